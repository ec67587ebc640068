#include "southbound/secret_source.h"

#include <cstdlib>

#include "common/file_text.h"

namespace rdmagw::southbound {
namespace {

void trimOneNewline(std::string* s) {
  if (!s->empty() && s->back() == '\n') {
    s->pop_back();
    if (!s->empty() && s->back() == '\r') s->pop_back();
  }
}

}  // namespace

Result<common::Secret> resolveSecret(std::string_view field_env, const std::string& env,
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
    return common::Secret(std::move(value));
  }
  if (!file.empty()) {
    common::FileText read = common::readFileText(file);
    if (!read.ok()) return Status::ioError(std::string(field_file) + ": " + read.error);
    trimOneNewline(&read.text);
    if (read.text.empty()) return Status::invalidArgument(std::string(field_file) + ": " + file + " is empty");
    return common::Secret(std::move(read.text));
  }
  return common::Secret();
}

}  // namespace rdmagw::southbound
