#include "tests/e2e/fleet/test_ca.h"

#include <cstdlib>
#include <fstream>

namespace rdmagw::testing {

std::string openssl(const std::string& dir, const std::string& args) {
  const std::string cmd = "cd '" + dir + "' && openssl " + args + " >>openssl.log 2>&1";
  return std::system(cmd.c_str()) == 0 ? "" : "openssl " + args + " failed, see " + dir + "/openssl.log";
}

std::string Ca::make() {
  return openssl(dir_, "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 -keyout " + name_ +
                           ".key -out " + name_ + ".crt -subj '/CN=" + name_ +
                           "' -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign'");
}

std::string Ca::sign(const std::string& cn, bool member) {
  std::ofstream(dir_ + "/" + cn + ".ext")
      << "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
      << (member ? "extendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=DNS:" + cn + ",DNS:localhost,IP:127.0.0.1\n"
                 : "extendedKeyUsage=clientAuth\n");
  if (std::string e = openssl(dir_, "req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout " + cn +
                                        ".key -out " + cn + ".csr -subj '/CN=" + cn + "'");
      !e.empty()) {
    return e;
  }
  return openssl(dir_, "x509 -req -in " + cn + ".csr -CA " + name_ + ".crt -CAkey " + name_ +
                           ".key -set_serial 0x$(openssl rand -hex 16) -days 30 -out " + cn + ".crt -extfile " + cn +
                           ".ext");
}

}  // namespace rdmagw::testing
