#include "northbound/gnmi/ietf_scalar.h"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "models/log.h"
#include "northbound/gnmi/typed_value.h"

namespace rdmagw::northbound::gnmi {
namespace {

using Int = __int128;  // holds every int64 and uint64 value

std::optional<Int> integerOf(const Value& value) {
  if (auto u = std::get_if<uint64_t>(&value)) return Int(*u);
  if (auto i = std::get_if<int64_t>(&value)) return Int(*i);
  if (auto d = std::get_if<double>(&value)) {
    // Integral and within the 64-bit ranges: exact.
    if (!std::isfinite(*d) || std::trunc(*d) != *d) return std::nullopt;
    if (*d < -9223372036854775808.0 || *d >= 18446744073709551616.0) return std::nullopt;
    return *d < 0 ? Int(int64_t(*d)) : Int(uint64_t(*d));
  }
  if (auto s = std::get_if<std::string>(&value)) {
    std::string_view t = *s;
    const char* end = t.data() + t.size();
    if (!t.empty() && t.front() == '-') {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(t.data(), end, v);
      if (ec != std::errc() || p != end) return std::nullopt;
      return Int(v);
    }
    if (!t.empty() && t.front() == '+') t.remove_prefix(1);
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), end, v);
    if (t.empty() || ec != std::errc() || p != end) return std::nullopt;
    return Int(v);
  }
  return std::nullopt;  // bool
}

struct IntRange {
  Int min, max;
  bool quoted;  // 64-bit: a JSON string
};

std::optional<IntRange> rangeOf(YangType type) {
  switch (type) {
    case YangType::kInt8: return IntRange{INT8_MIN, INT8_MAX, false};
    case YangType::kInt16: return IntRange{INT16_MIN, INT16_MAX, false};
    case YangType::kInt32: return IntRange{INT32_MIN, INT32_MAX, false};
    case YangType::kInt64: return IntRange{INT64_MIN, INT64_MAX, true};
    case YangType::kUint8: return IntRange{0, UINT8_MAX, false};
    case YangType::kUint16: return IntRange{0, UINT16_MAX, false};
    case YangType::kUint32: return IntRange{0, UINT32_MAX, false};
    case YangType::kUint64: return IntRange{0, Int(UINT64_MAX), true};
    default: return std::nullopt;
  }
}

void appendInt(Int v, std::string* out) {
  if (v < 0) {
    *out += std::to_string(int64_t(v));
  } else {
    *out += std::to_string(uint64_t(v));
  }
}

// The shortest fixed-point text that reads back as `d` ("0.1", "12", "-3.5").
std::string shortestFixed(double d) {
  char buf[400];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, p) : std::string();
}

// "12" -> "12.0", "1.2500" -> "1.25": YANG's canonical decimal64 form keeps
// one fraction digit at least and no trailing zeros.
std::string canonicalDecimal(std::string text) {
  const size_t dot = text.find('.');
  if (dot == std::string::npos) return text + ".0";
  while (text.size() > dot + 2 && text.back() == '0') text.pop_back();
  if (text.size() == dot + 1) text.push_back('0');
  return text;
}

// A decimal64 text: [sign] digits [. digits], at most `fraction_digits`
// (when known) after the point, and within the 64-bit scaled range.
bool decimalText(const Value& value, uint8_t fraction_digits, std::string* text) {
  Int scale = 1;
  for (int i = 0; i < fraction_digits; ++i) scale *= 10;
  if (auto d = std::get_if<double>(&value)) {
    if (!std::isfinite(*d)) return false;
    if (std::fabs(*d) * double(scale) >= 9223372036854775807.0) return false;
    if (fraction_digits == 0) {
      *text = shortestFixed(*d);
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*f", int(fraction_digits), *d);
      *text = buf;
    }
    if (text->empty()) return false;
    *text = canonicalDecimal(*text);
    return true;
  }
  if (auto s = std::get_if<std::string>(&value)) {
    std::string_view t = *s;
    if (!t.empty() && (t.front() == '-' || t.front() == '+')) t.remove_prefix(1);
    const size_t dot = t.find('.');
    std::string_view whole = t.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view() : t.substr(dot + 1);
    auto digits = [](std::string_view x) {
      for (char c : x) {
        if (c < '0' || c > '9') return false;
      }
      return true;
    };
    if (whole.empty() || !digits(whole) || !digits(frac) || (dot != std::string_view::npos && frac.empty())) return false;
    if (fraction_digits != 0 && frac.size() > fraction_digits) return false;
    if (whole.size() > 19) return false;
    *text = canonicalDecimal(*s);
    return true;
  }
  std::optional<Int> i = integerOf(value);
  if (!i) return false;
  const Int limit = Int(INT64_MAX) / scale;
  if (*i > limit || *i < -limit) return false;
  text->clear();
  appendInt(*i, text);
  *text += ".0";
  return true;
}

bool appendBoolean(const Value& value, std::string* out) {
  std::optional<bool> b;
  if (auto v = std::get_if<bool>(&value)) {
    b = *v;
  } else if (auto s = std::get_if<std::string>(&value)) {
    if (*s == "true") b = true;
    if (*s == "false") b = false;
  } else if (std::optional<Int> i = integerOf(value); i && (*i == 0 || *i == 1)) {
    b = *i == 1;
  }
  if (!b) return false;
  *out += *b ? "true" : "false";
  return true;
}

bool appendString(const Value& value, std::string* out) {
  if (auto s = std::get_if<std::string>(&value)) {
    appendJsonString(*s, out);
  } else if (auto b = std::get_if<bool>(&value)) {
    appendJsonString(*b ? "true" : "false", out);
  } else if (auto d = std::get_if<double>(&value)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    appendJsonString(buf, out);
  } else {
    std::string digits;
    appendInt(*integerOf(value), &digits);
    appendJsonString(digits, out);
  }
  return true;
}

bool appendIdentity(const Value& value, const YangLeafType& type, std::string* out) {
  const std::string* s = std::get_if<std::string>(&value);
  if (s == nullptr) return false;
  std::string_view name = *s;
  const size_t colon = name.rfind(':');
  if (type.identity_module.empty()) {
    // Nothing to qualify with: only an already qualified value is valid.
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == name.size()) return false;
    appendJsonString(name, out);
    return true;
  }
  // A device's prefix ("oc-eth:SPEED_100GB") or module name is replaced by
  // the module the schema names.
  if (colon != std::string_view::npos) name.remove_prefix(colon + 1);
  if (name.empty()) return false;
  std::string q;
  q.reserve(type.identity_module.size() + 1 + name.size());
  q += type.identity_module;
  q.push_back(':');
  q += name;
  appendJsonString(q, out);
  return true;
}

std::atomic<uint64_t> g_mismatches{0};

}  // namespace

bool appendIetfScalar(const Value& value, const YangLeafType& type, std::string* out) {
  switch (type.type) {
    case YangType::kUnknown:
      appendJsonScalar(value, true, out);
      return true;
    case YangType::kString:
      return appendString(value, out);
    case YangType::kEnumeration:
      if (auto s = std::get_if<std::string>(&value); s != nullptr && !s->empty()) {
        appendJsonString(*s, out);
        return true;
      }
      return false;
    case YangType::kIdentityref:
      return appendIdentity(value, type, out);
    case YangType::kBoolean:
      return appendBoolean(value, out);
    case YangType::kDecimal64: {
      std::string text;
      if (!decimalText(value, type.fraction_digits, &text)) return false;
      appendJsonString(text, out);
      return true;
    }
    default: {
      const std::optional<IntRange> range = rangeOf(type.type);
      const std::optional<Int> v = integerOf(value);
      if (!range || !v || *v < range->min || *v > range->max) return false;
      if (range->quoted) out->push_back('"');
      appendInt(*v, out);
      if (range->quoted) out->push_back('"');
      return true;
    }
  }
}

void reportIetfMismatch(std::string_view where, const YangLeafType& type, const Value& value, bool key) {
  g_mismatches.fetch_add(1, std::memory_order_relaxed);
  static std::mutex mu;
  static std::unordered_set<std::string> logged;
  constexpr size_t kMaxLogged = 64;
  {
    std::lock_guard lock(mu);
    if (logged.size() >= kMaxLogged || !logged.emplace(where).second) return;
  }
  std::string shown = valueToString(value);
  if (shown.size() > 80) shown = shown.substr(0, 80) + "...";
  RDMAGW_LOG(kWarn, "gnmi") << "JSON_IETF: " << where << ": the value " << shown << " does not fit its YANG type "
                            << yangTypeName(type.type)
                            << (key ? "; the key is written as text" : "; the leaf is left out (JSON and PROTO carry it)")
                            << " (logged once per leaf)";
}

uint64_t ietfMismatchCount() { return g_mismatches.load(std::memory_order_relaxed); }

}  // namespace rdmagw::northbound::gnmi
