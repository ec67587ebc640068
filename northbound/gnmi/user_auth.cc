#include "northbound/gnmi/user_auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "common/file_text.h"

namespace rdmagw::northbound::gnmi {
namespace {

constexpr std::string_view kScheme = "$pbkdf2-sha256$";
constexpr unsigned kMaxIterations = 10'000'000;  // a typo must not make every call take minutes

// passlib's "ab64": standard base64, '.' for '+', no padding.
std::string ab64Encode(const std::string& raw) {
  std::string out(4 * ((raw.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(raw.data()), int(raw.size()));
  out.resize(n);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) c = c == '+' ? '.' : c;
  return out;
}

bool ab64Decode(std::string text, std::string* raw) {
  for (char& c : text) c = c == '.' ? '+' : c;
  const size_t pad = (4 - text.size() % 4) % 4;
  if (pad == 3) return false;
  text.append(pad, '=');
  std::string out(text.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(text.data()), int(text.size()));
  if (n < 0) return false;
  out.resize(size_t(n) - pad);
  *raw = std::move(out);
  return true;
}

std::string pbkdf2(const std::string& password, const std::string& salt, unsigned iterations,
                   size_t len) {
  std::string out(len, '\0');
  PKCS5_PBKDF2_HMAC(password.data(), int(password.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()), int(salt.size()),
                    int(iterations), EVP_sha256(), int(len), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string hmac(const std::string& key, const std::string& data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), md, &len);
  return std::string(reinterpret_cast<char*>(md), len);
}

bool equalSecret(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

std::string hashPassword(const std::string& password, unsigned iterations) {
  std::string salt(16, '\0');
  RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), int(salt.size()));
  return std::string(kScheme) + std::to_string(iterations) + "$" + ab64Encode(salt) + "$" +
         ab64Encode(pbkdf2(password, salt, iterations, 32));
}

Result<std::shared_ptr<UserAuth>> UserAuth::fromText(const std::string& text, const std::string& origin) {
  auto auth = std::shared_ptr<UserAuth>(new UserAuth());
  std::string normalized = text;
  for (char& c : normalized) c = c == ';' ? '\n' : c;
  std::istringstream in(normalized);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::string where = origin + ":" + std::to_string(lineno) + ": ";
    const size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0) return Status::invalidArgument(where + "expected user:hash");
    const std::string user = line.substr(0, colon);
    const std::string hash = line.substr(colon + 1);
    // Never echo the hash text: the message names the user and the rule only.
    if (hash.rfind(kScheme, 0) != 0) {
      return Status::invalidArgument(where + "user " + user + ": hash is not in $pbkdf2-sha256$ form");
    }
    std::vector<std::string> parts;
    std::stringstream ss(hash.substr(kScheme.size()));
    for (std::string part; std::getline(ss, part, '$');) parts.push_back(part);
    Hash h;
    if (parts.size() != 3 || !ab64Decode(parts[1], &h.salt) || !ab64Decode(parts[2], &h.digest) ||
        h.digest.empty()) {
      return Status::invalidArgument(where + "user " + user + ": expected $pbkdf2-sha256$<iterations>$<salt>$<hash>");
    }
    char* end = nullptr;
    const unsigned long it = std::strtoul(parts[0].c_str(), &end, 10);
    if (end == parts[0].c_str() || *end != '\0' || it == 0 || it > kMaxIterations) {
      return Status::invalidArgument(where + "user " + user + ": iterations must be 1.." +
                                     std::to_string(kMaxIterations));
    }
    h.iterations = unsigned(it);
    auth->users_[user] = std::move(h);
  }
  auth->process_key_.resize(32);
  RAND_bytes(reinterpret_cast<unsigned char*>(auth->process_key_.data()), 32);
  return auth;
}

Result<std::shared_ptr<UserAuth>> UserAuth::load(const std::string& users_file,
                                                 const std::string& users_env) {
  std::string text;
  if (!users_file.empty()) {
    common::FileText read = common::readFileText(users_file);
    if (!read.ok()) return Status::ioError("users_file: cannot read " + users_file);
    text = std::move(read.text);
    if (!text.empty() && text.back() != '\n') text.push_back('\n');
  }
  if (!users_env.empty()) {
    const char* v = std::getenv(users_env.c_str());
    if (v == nullptr) return Status::invalidArgument("users_env: variable " + users_env + " is not set");
    text += v;
  }
  Result<std::shared_ptr<UserAuth>> auth = fromText(text, users_file.empty() ? "$" + users_env : users_file);
  if (auth.isOk() && (*auth)->userCount() == 0) {
    return Status::invalidArgument("users: no user defined in " + (users_file.empty() ? users_env : users_file));
  }
  return auth;
}

bool UserAuth::check(const std::string& user, const std::string& password) const {
  auto it = users_.find(user);
  if (it == users_.end()) return false;
  const std::string token = hmac(process_key_, user + ":" + password);
  {
    std::lock_guard lock(cache_mu_);
    auto v = verified_.find(user);
    if (v != verified_.end() && equalSecret(v->second, token)) return true;
  }
  const Hash& h = it->second;
  if (!equalSecret(pbkdf2(password, h.salt, h.iterations, h.digest.size()), h.digest)) return false;
  std::lock_guard lock(cache_mu_);
  verified_[user] = token;
  return true;
}

}  // namespace rdmagw::northbound::gnmi
