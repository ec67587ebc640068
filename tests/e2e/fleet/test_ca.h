#pragma once
// A certificate authority made by the real openssl CLI in a test's temp
// dir, and the certificates it signs: the fleet's members (server and client
// at once, named by CN and DNS SAN) and plain clients.

#include <string>
#include <utility>

namespace rdmagw::testing {

// openssl `args` run in `dir`; "" or what went wrong (its output is in
// dir/openssl.log).
std::string openssl(const std::string& dir, const std::string& args);

// A CA <name>.crt/.key in `dir`.
class Ca {
 public:
  Ca(std::string dir, std::string name) : dir_(std::move(dir)), name_(std::move(name)) {}
  // "" or what went wrong.
  std::string make();
  // <cn>.crt/.key for a server and client at once (a member: SANs cn,
  // localhost and 127.0.0.1), or a client only.
  std::string sign(const std::string& cn, bool member);
  std::string cert() const { return dir_ + "/" + name_ + ".crt"; }

 private:
  std::string dir_, name_;
};

}  // namespace rdmagw::testing
