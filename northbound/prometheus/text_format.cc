#include "northbound/prometheus/text_format.h"

#include <charconv>
#include <cmath>

namespace rdmagw::northbound::prometheus {
namespace {

// Most values need no escaping: find the first special byte and copy the
// clean run in one append instead of byte by byte.
template <bool kQuote>
void appendEscaped(std::string* out, std::string_view s) {
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c != '\\' && c != '\n' && (!kQuote || c != '"')) continue;
    out->append(s.data() + start, i - start);
    out->push_back('\\');
    out->push_back(c == '\n' ? 'n' : c);
    start = i + 1;
  }
  out->append(s.data() + start, s.size() - start);
}

}  // namespace

void appendLabelValue(std::string* out, std::string_view value) { appendEscaped<true>(out, value); }

void appendHelpText(std::string* out, std::string_view help) { appendEscaped<false>(out, help); }

void appendUint(std::string* out, uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, res.ptr - buf);
}

void appendInt(std::string* out, int64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, res.ptr - buf);
}

void appendDouble(std::string* out, double v) {
  if (std::isnan(v)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(v)) {
    out->append(v > 0 ? "+Inf" : "-Inf");
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, res.ptr - buf);
}

std::string sanitizeLabelName(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 1);
  if (!name.empty() && name[0] >= '0' && name[0] <= '9') out.push_back('_');
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out.push_back(ok ? c : '_');
  }
  return out;
}

std::string familyHeader(std::string_view name, std::string_view help, bool counter) {
  std::string out = "# HELP ";
  out.append(name).push_back(' ');
  appendHelpText(&out, help);
  out.append("\n# TYPE ").append(name);
  out.append(counter ? " counter\n" : " gauge\n");
  return out;
}

}  // namespace rdmagw::northbound::prometheus
