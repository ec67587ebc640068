#include "sim/gnmi/gnmi_tls.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/file_text.h"

namespace rdmagw::sim {
namespace {

Status writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  return out ? Status::ok() : Status::ioError("cannot write " + path);
}

Status run(const std::string& dir, const std::string& cmd) {
  const std::string full = "cd '" + dir + "' && " + cmd + " >>openssl.log 2>&1";
  const int rc = std::system(full.c_str());
  if (rc != 0) {
    return Status::ioError("openssl failed (" + std::to_string(rc) + "): " + cmd + "\n" +
                         readTextFile(dir + "/openssl.log"));
  }
  return Status::ok();
}

constexpr const char* kNewKey = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";

Status makeTempDir(std::string* dir) {
  char tmpl[] = "/tmp/rdmagw-gnmi-tls-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return Status::ioError("mkdtemp failed for gNMI TLS files");
  *dir = tmpl;
  return Status::ok();
}

std::string quotedPath(const std::string& path) { return "'" + path + "'"; }

// A self-signed CA as <dir>/ca.crt and <dir>/ca.key.
Status writeCa(const std::string& dir, GnmiCa* ca) {
  ca->dir = dir;
  ca->cert = dir + "/ca.crt";
  ca->key = dir + "/ca.key";
  return run(dir, std::string("openssl req -x509 ") + kNewKey +
                      " -keyout ca.key -out ca.crt -days 3650 -subj '/CN=rdmagw sim gNMI CA'"
                      " -addext 'basicConstraints=critical,CA:TRUE'"
                      " -addext 'keyUsage=critical,keyCertSign,cRLSign'");
}

}  // namespace

std::string readTextFile(const std::string& path) { return common::readFileText(path).text; }

Status generateGnmiCa(GnmiCa* ca) {
  std::string dir;
  if (Status st = makeTempDir(&dir); !st.isOk()) return st;
  GnmiCa c;
  if (Status st = writeCa(dir, &c); !st.isOk()) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return st;
  }
  *ca = c;
  return Status::ok();
}

Status generateGnmiTlsFiles(GnmiTlsFiles* files, const GnmiCa* ca) {
  std::string dir;
  if (Status st = makeTempDir(&dir); !st.isOk()) return st;
  GnmiTlsFiles f;
  f.dir = dir;
  Status st = Status::ok();
  GnmiCa own;
  if (ca == nullptr) {
    st = writeCa(dir, &own);
    ca = &own;
  }
  f.ca_cert = ca->cert;
  f.ca_key = ca->key;
  f.server_cert = dir + "/server.crt";
  f.server_key = dir + "/server.key";
  f.client_cert = dir + "/client.crt";
  f.client_key = dir + "/client.key";
  f.untrusted_client_cert = dir + "/untrusted.crt";
  f.untrusted_client_key = dir + "/untrusted.key";
  if (st.isOk()) {
    st = writeFile(dir + "/server.ext",
                   "basicConstraints=CA:FALSE\n"
                   "keyUsage=critical,digitalSignature,keyEncipherment\n"
                   "extendedKeyUsage=serverAuth\n"
                   "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  }
  if (st.isOk()) {
    st = writeFile(dir + "/client.ext",
                   "basicConstraints=CA:FALSE\n"
                   "keyUsage=critical,digitalSignature\n"
                   "extendedKeyUsage=clientAuth\n");
  }
  // The serial goes beside the certificates, never beside a shared CA:
  // targets of one fleet sign concurrently.
  const std::string signer = " -CA " + quotedPath(f.ca_cert) + " -CAkey " + quotedPath(f.ca_key) +
                             " -set_serial 0x$(openssl rand -hex 16)";
  const std::string cmds[] = {
      std::string("openssl req ") + kNewKey + " -keyout server.key -out server.csr -subj '/CN=localhost'",
      "openssl x509 -req -in server.csr" + signer + " -out server.crt -days 3650 -extfile server.ext",
      std::string("openssl req ") + kNewKey + " -keyout client.key -out client.csr -subj '/CN=rdmagw-client'",
      "openssl x509 -req -in client.csr" + signer + " -out client.crt -days 3650 -extfile client.ext",
      std::string("openssl req -x509 ") + kNewKey +
          " -keyout untrusted.key -out untrusted.crt -days 3650 -subj '/CN=intruder'",
  };
  for (const std::string& cmd : cmds) {
    if (!st.isOk()) break;
    st = run(dir, cmd);
  }
  if (!st.isOk()) return st;
  *files = f;
  return Status::ok();
}

}  // namespace rdmagw::sim
