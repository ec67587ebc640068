#include "sim/gnmi/gnmi_tls.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

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

}  // namespace

std::string readTextFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status generateGnmiTlsFiles(GnmiTlsFiles* files) {
  char tmpl[] = "/tmp/rdmagw-gnmi-tls-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return Status::ioError("mkdtemp failed for gNMI TLS files");
  const std::string dir = tmpl;
  GnmiTlsFiles f;
  f.dir = dir;
  f.ca_cert = dir + "/ca.crt";
  f.ca_key = dir + "/ca.key";
  f.server_cert = dir + "/server.crt";
  f.server_key = dir + "/server.key";
  f.client_cert = dir + "/client.crt";
  f.client_key = dir + "/client.key";
  f.untrusted_client_cert = dir + "/untrusted.crt";
  f.untrusted_client_key = dir + "/untrusted.key";
  Status st = writeFile(dir + "/server.ext",
                        "basicConstraints=CA:FALSE\n"
                        "keyUsage=critical,digitalSignature,keyEncipherment\n"
                        "extendedKeyUsage=serverAuth\n"
                        "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  if (st.isOk()) {
    st = writeFile(dir + "/client.ext",
                   "basicConstraints=CA:FALSE\n"
                   "keyUsage=critical,digitalSignature\n"
                   "extendedKeyUsage=clientAuth\n");
  }
  const std::string cmds[] = {
      std::string("openssl req -x509 ") + kNewKey +
          " -keyout ca.key -out ca.crt -days 3650 -subj '/CN=rdmagw sim gNMI CA'"
          " -addext 'basicConstraints=critical,CA:TRUE'"
          " -addext 'keyUsage=critical,keyCertSign,cRLSign'",
      std::string("openssl req ") + kNewKey + " -keyout server.key -out server.csr -subj '/CN=localhost'",
      "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial"
      " -out server.crt -days 3650 -extfile server.ext",
      std::string("openssl req ") + kNewKey + " -keyout client.key -out client.csr -subj '/CN=rdmagw-client'",
      "openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial"
      " -out client.crt -days 3650 -extfile client.ext",
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
