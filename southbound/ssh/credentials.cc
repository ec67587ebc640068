#include "southbound/ssh/credentials.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace rdmagw::southbound::ssh {

Secret& Secret::operator=(Secret&& other) noexcept {
  if (this != &other) {
    wipe();
    value_ = std::move(other.value_);
    other.wipe();
  }
  return *this;
}

void Secret::wipe() {
  // volatile stores so the compiler cannot drop the wipe as a dead store.
  volatile char* p = value_.data();
  for (size_t i = 0; i < value_.size(); ++i) p[i] = 0;
  value_.clear();
}

std::string Secret::scrub(std::string text) const {
  if (value_.empty()) return text;
  for (size_t pos = text.find(value_); pos != std::string::npos; pos = text.find(value_, pos)) {
    text.replace(pos, value_.size(), "***");
    pos += 3;
  }
  return text;
}

namespace {

void trimOneNewline(std::string* s) {
  if (!s->empty() && s->back() == '\n') {
    s->pop_back();
    if (!s->empty() && s->back() == '\r') s->pop_back();
  }
}

}  // namespace

Result<Secret> resolveSecret(std::string_view field_env, const std::string& env,
                             std::string_view field_file, const std::string& file) {
  if (!env.empty()) {
    const char* v = std::getenv(env.c_str());
    if (v == nullptr) {
      return Status::notFound(std::string(field_env) + ": environment variable " + env +
                              " is not set");
    }
    std::string value(v);
    trimOneNewline(&value);
    if (value.empty()) {
      return Status::invalidArgument(std::string(field_env) + ": environment variable " + env +
                                     " is empty");
    }
    return Secret(std::move(value));
  }
  if (!file.empty()) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      return Status::ioError(std::string(field_file) + ": cannot read " + file + ": " +
                             std::strerror(errno));
    }
    std::string value((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    trimOneNewline(&value);
    if (value.empty()) return Status::invalidArgument(std::string(field_file) + ": " + file + " is empty");
    return Secret(std::move(value));
  }
  return Secret();
}

}  // namespace rdmagw::southbound::ssh
