#include "models/value.h"

#include <chrono>
#include <cstdio>

namespace rdmagw {

int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

TimestampNs nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string valueToString(const Value& v) {
  struct Visitor {
    std::string operator()(uint64_t x) const { return std::to_string(x); }
    std::string operator()(int64_t x) const { return std::to_string(x); }
    std::string operator()(double x) const {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", x);
      return buf;
    }
    std::string operator()(bool x) const { return x ? "true" : "false"; }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
  };
  return std::visit(Visitor{}, v);
}

bool valueAsDouble(const Value& v, double* out) {
  if (auto p = std::get_if<uint64_t>(&v)) { *out = static_cast<double>(*p); return true; }
  if (auto p = std::get_if<int64_t>(&v)) { *out = static_cast<double>(*p); return true; }
  if (auto p = std::get_if<double>(&v)) { *out = *p; return true; }
  if (auto p = std::get_if<bool>(&v)) { *out = *p ? 1.0 : 0.0; return true; }
  return false;
}

}  // namespace rdmagw
