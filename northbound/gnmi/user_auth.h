#pragma once
// Username/password checks for gNMI calls (metadata keys "username" and
// "password"). Passwords are stored only as salted PBKDF2-SHA256 hashes in
// the passlib "pbkdf2_sha256" form, one user per line:
//
//   # comment
//   alice:$pbkdf2-sha256$600000$<salt>$<hash>
//
// <salt> and <hash> are base64 with '.' for '+' and no '=' padding. Make a
// line with Python's standard library:
//   python3 -c 'import hashlib,os,base64,getpass; s=os.urandom(16); e=lambda b: base64.b64encode(b).decode().rstrip("=").replace("+","."); print("USER:$pbkdf2-sha256$600000$"+e(s)+"$"+e(hashlib.pbkdf2_hmac("sha256",getpass.getpass().encode(),s,600000)))'
//
// The environment variable (users_env) holds lines of the same form,
// separated by newlines or ';'. Passwords are never logged and never appear
// in an error text; every failure answers the same "authentication failed".

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "models/status.h"

namespace rdmagw::northbound::gnmi {

class UserAuth {
 public:
  // Loads users from the file and/or variable; empty names skip a source.
  static Result<std::shared_ptr<UserAuth>> load(const std::string& users_file,
                                                const std::string& users_env);
  // Parses user lines (tests, and the two sources above).
  static Result<std::shared_ptr<UserAuth>> fromText(const std::string& text, const std::string& origin);

  bool check(const std::string& user, const std::string& password) const;
  size_t userCount() const { return users_.size(); }

 private:
  struct Hash {
    unsigned iterations = 0;
    std::string salt;
    std::string digest;
  };
  std::unordered_map<std::string, Hash> users_;
  // A successful check is remembered as HMAC(process key, user:password),
  // so a stream of calls does not run PBKDF2 every time.
  mutable std::mutex cache_mu_;
  mutable std::unordered_map<std::string, std::string> verified_;  // guarded by cache_mu_
  std::string process_key_;
};

// The hash line for `password` (tests and tooling).
std::string hashPassword(const std::string& password, unsigned iterations);

}  // namespace rdmagw::northbound::gnmi
