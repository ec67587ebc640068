#include "southbound/text/roce_text.h"

#include <cctype>

namespace rdmagw::southbound::text {

Status Problems::status() const {
  if (msgs_.empty()) return Status::ok();
  std::string all = what_ + ": ";
  for (size_t i = 0; i < msgs_.size(); ++i) all += (i ? "; " : "") + msgs_[i];
  return Status::invalidArgument(all);
}

std::string_view trimBlanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

Result<uint64_t> parseBounded(std::string_view token, uint64_t max) {
  const std::string_view t = trimBlanks(token);
  const std::string shown(t.substr(0, 24));
  if (t.empty()) return Status::corrupt("empty value where a number was expected");
  uint64_t n = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return Status::corrupt("'" + shown + "' is not a number");
    if (n > (UINT64_MAX - uint64_t(c - '0')) / 10) return Status::invalidArgument(shown + " is out of range 0.." + std::to_string(max));
    n = n * 10 + uint64_t(c - '0');
  }
  if (n > max) return Status::invalidArgument(shown + " is out of range 0.." + std::to_string(max));
  return n;
}

std::optional<uint32_t> dscpFromToken(std::string_view token) {
  std::string t;
  for (char c : trimBlanks(token)) t.push_back(char(std::toupper(static_cast<unsigned char>(c))));
  if (t.empty()) return std::nullopt;
  if (Result<uint64_t> n = parseBounded(t, 63); n.isOk()) return uint32_t(*n);
  if (t == "DEFAULT") return 0;
  if (t == "EF") return 46;
  if (t == "VA") return 44;
  if (t.size() == 3 && t.compare(0, 2, "CS") == 0 && t[2] >= '0' && t[2] <= '7') return uint32_t(t[2] - '0') * 8;
  // AFxy = 8x + 2y, x 1..4, y 1..3 (RFC 2597).
  if (t.size() == 4 && t.compare(0, 2, "AF") == 0 && t[2] >= '1' && t[2] <= '4' && t[3] >= '1' && t[3] <= '3') {
    return uint32_t(t[2] - '0') * 8 + uint32_t(t[3] - '0') * 2;
  }
  return std::nullopt;
}

std::optional<Tsa> tsaFromWord(std::string_view word) {
  std::string w;
  for (char c : trimBlanks(word)) w.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  if (w == "strict") return Tsa::kStrict;
  if (w == "ets") return Tsa::kEts;
  if (w == "cbs") return Tsa::kCbs;
  if (w == "vendor") return Tsa::kVendor;
  return std::nullopt;
}

std::vector<std::string> cutBeforeLabels(std::string_view text, const std::vector<std::string_view>& labels) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(start, nl - start);
    std::string cur;
    size_t i = 0;
    while (i < line.size()) {
      bool matched = false;
      for (std::string_view label : labels) {
        if (label.empty() || line.compare(i, label.size(), label) != 0) continue;
        if (!trimBlanks(cur).empty()) out.push_back(cur);
        cur.assign(label);
        i += label.size();
        matched = true;
        break;
      }
      if (!matched) cur.push_back(line[i++]);
    }
    out.push_back(cur);
    if (nl == text.size()) break;
    start = nl + 1;
  }
  return out;
}

}  // namespace rdmagw::southbound::text
