#include "gateway/demo/demo_flags.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "gateway/config/yaml_reader.h"

namespace rdmagw::gateway {

bool intFlag(const Args& args, const char* name, long long min, long long max, long long* out) {
  std::string text;
  if (!flagValue(args, name, &text)) return true;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v < min || v > max) {
    std::fprintf(stderr, "rdmagw demo: %s must be an integer in [%lld, %lld]\n", name, min, max);
    return false;
  }
  *out = v;
  return true;
}

bool durationFlag(const Args& args, const char* name, std::chrono::milliseconds* out) {
  std::string text;
  if (!flagValue(args, name, &text)) return true;
  auto d = YamlReader::parseDuration(text);
  if (!d || d->count() < 100) {
    std::fprintf(stderr, "rdmagw demo: %s must be a duration of at least 100ms (e.g. 1s)\n", name);
    return false;
  }
  *out = *d;
  return true;
}

}  // namespace rdmagw::gateway
