#include "southbound/rdma/sysfs_values.h"

#include <charconv>

namespace rdmagw::southbound::rdma {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string quoted(std::string_view s) {
  constexpr size_t kMax = 60;  // an error line, not a hexdump
  std::string out = "\"";
  out.append(s.substr(0, kMax));
  if (s.size() > kMax) out += "...";
  return out + "\"";
}

bool isDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::string_view trimValue(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

Result<uint64_t> parseCounter(std::string_view text) {
  std::string_view t = trimValue(text);
  if (t.empty()) return Status::corrupt("empty value");
  if (t.substr(0, 3) == "N/A") return Status::unavailable("counter not available: " + quoted(t));
  if (!isDigits(t)) return Status::corrupt("not a counter: " + quoted(t));
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size()) {
    return Status::corrupt("counter out of 64-bit range: " + quoted(t));
  }
  return v;
}

Result<IbEnum> parseIbEnum(std::string_view text) {
  std::string_view t = trimValue(text);
  if (t.empty()) return Status::corrupt("empty value");
  IbEnum out;
  size_t colon = t.find(':');
  std::string_view num = trimValue(t.substr(0, colon));
  std::string_view name = colon == std::string_view::npos ? "" : trimValue(t.substr(colon + 1));
  if (colon == std::string_view::npos) {
    if (isDigits(t)) {
      num = t;
    } else {
      out.name = std::string(t);
      return out;
    }
  } else if (name.empty()) {
    return Status::corrupt("truncated state (no name after ':'): " + quoted(t));
  }
  if (!isDigits(num)) return Status::corrupt("state without a numeric code: " + quoted(t));
  Result<uint64_t> id = parseCounter(num);
  if (!id.isOk()) return Status::corrupt("bad state code: " + quoted(t));
  out.id = id.value();
  if (!name.empty()) out.name = std::string(name);
  return out;
}

Result<uint64_t> parseRateBps(std::string_view text) {
  std::string_view t = trimValue(text);
  if (t.empty()) return Status::corrupt("empty value");
  size_t i = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  std::string_view whole = t.substr(0, i);
  std::string_view frac;
  if (i < t.size() && t[i] == '.') {
    size_t start = ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    frac = t.substr(start, i - start);
  }
  if (whole.empty() || whole.size() > 9 || frac.size() > 9) {
    return Status::corrupt("not a rate: " + quoted(t));
  }
  std::string_view unit = trimValue(t.substr(i));
  uint64_t scale = 0;
  if (!unit.empty()) {
    switch (unit.front()) {
      case 'G':
        scale = 1000000000ULL;
        break;
      case 'M':
        scale = 1000000ULL;
        break;
      case 'K':
      case 'k':
        scale = 1000ULL;
        break;
      default:
        break;
    }
  }
  std::string_view rest = unit.empty() ? unit : unit.substr(1);
  if (scale == 0 || !(rest.substr(0, 5) == "b/sec" || rest.substr(0, 5) == "B/sec")) {
    return Status::corrupt("rate without a Gb/sec, Mb/sec or Kb/sec unit: " + quoted(t));
  }
  // Integer arithmetic so "2.5 Gb/sec" is exactly 2500000000.
  uint64_t bps = parseCounter(whole).value() * scale;
  uint64_t div = 1;
  for (size_t k = 0; k < frac.size(); ++k) div *= 10;
  if (!frac.empty()) bps += parseCounter(frac).value() * scale / div;
  return bps;
}

}  // namespace rdmagw::southbound::rdma
