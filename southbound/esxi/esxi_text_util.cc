#include "southbound/esxi/esxi_text_util.h"

#include <cctype>
#include <charconv>

#include "models/path.h"

namespace rdmagw::southbound::esxi {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool isLower(char c) { return c >= 'a' && c <= 'z'; }
bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isLower(c) || isUpper(c) || isDigit(c); }

std::string quoted(std::string_view s) {
  constexpr size_t kMax = 40;
  std::string out = "'" + std::string(s.substr(0, kMax));
  return out + (s.size() > kMax ? "...'" : "'");
}

Path nicBase(std::string_view nic) {
  Path p;
  p.add("hypervisor").add("nics").add("nic", {{"name", std::string(nic)}});
  return p;
}

void addLeaf(Path& p, std::string_view leaf) {
  while (!leaf.empty()) {
    size_t slash = leaf.find('/');
    p.add(std::string(leaf.substr(0, slash)));
    if (slash == std::string_view::npos) break;
    leaf.remove_prefix(slash + 1);
  }
}

}  // namespace

std::string_view esxiTrim(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<EsxiLine> esxiLines(std::string_view text) {
  std::vector<EsxiLine> out;
  size_t n = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(EsxiLine{++n, line, nl != std::string_view::npos});
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return out;
}

Result<uint64_t> esxiParseUnsigned(std::string_view text) {
  std::string_view t = esxiTrim(text);
  if (t.empty()) return Status::corrupt("empty value");
  for (char c : t) {
    if (!isDigit(c)) {
      if (c == '-') return Status::corrupt("negative or malformed number " + quoted(t));
      if (c == ',' || c == '.' || c == '\'' || c == ' ' || c == '_') {
        return Status::corrupt("number with separators or fraction " + quoted(t));
      }
      return Status::corrupt("not a number " + quoted(t));
    }
  }
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size()) {
    return Status::corrupt("number beyond 64 bits " + quoted(t));
  }
  return v;
}

bool esxiValidNicName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!isAlnum(c) && c != '_' && c != '.' && c != '-') return false;
  }
  return true;
}

std::string esxiNicFromVsishPath(std::string_view text) {
  constexpr std::string_view kKey = "/net/pNics/";
  auto nameIn = [&](std::string_view line) -> std::string {
    size_t at = line.find(kKey);
    if (at == std::string_view::npos) return {};
    std::string_view rest = line.substr(at + kKey.size());
    std::string_view name = rest.substr(0, rest.find('/'));
    return esxiValidNicName(name) ? std::string(name) : std::string();
  };
  // Prefer the command line ("# vsish -pe get /net/pNics/vmnic4/stats",
  // "$ vsish ..."); prose that merely mentions a path comes second.
  std::string fallback;
  for (const EsxiLine& l : esxiLines(text)) {
    std::string_view t = esxiTrim(l.text);
    while (!t.empty() && (t.front() == '#' || t.front() == '$' || t.front() == ' ')) {
      t.remove_prefix(1);
    }
    if (t.substr(0, 5) == "sudo ") t.remove_prefix(5);
    std::string name = nameIn(t);
    if (name.empty()) continue;
    if (t.substr(0, 5) == "vsish") return name;
    if (fallback.empty()) fallback = name;
  }
  return fallback;
}

std::string esxiErrorLine(std::string_view text) {
  for (const EsxiLine& l : esxiLines(text)) {
    std::string_view t = esxiTrim(l.text);
    if (t.substr(0, 6) == "Error:" || t.substr(0, 6) == "ERROR:" ||
        t.find("Get failed") != std::string_view::npos ||
        t.find("Extraneous") != std::string_view::npos ||
        t.find("not found") != std::string_view::npos) {
      return std::string(t.substr(0, 160));
    }
  }
  return {};
}

std::string esxiNicStatePath(std::string_view nic, std::string_view leaf) {
  Path p = nicBase(nic);
  p.add("state");
  addLeaf(p, leaf);
  return p.toString();
}

std::string esxiPriorityPath(std::string_view nic, int priority, std::string_view leaf) {
  Path p = nicBase(nic);
  p.add("priorities").add("priority", {{"id", std::to_string(priority)}}).add("state");
  p.add("counters");
  addLeaf(p, leaf);
  return p.toString();
}

std::string esxiSanitizeName(std::string_view name) {
  constexpr size_t kMax = 96;
  std::string out;
  bool pending_dash = false;
  for (size_t i = 0; i < name.size() && out.size() < kMax; ++i) {
    char c = name[i];
    if (!isAlnum(c)) {
      pending_dash = !out.empty();
      continue;
    }
    // camelCase boundary: "rxPause" -> "rx-pause"; "RxXon" -> "rx-xon".
    if (isUpper(c) && i > 0 && (isLower(name[i - 1]) || isDigit(name[i - 1]))) {
      pending_dash = !out.empty();
    }
    if (pending_dash) out.push_back('-');
    pending_dash = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string esxiFoldName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '_' || c == '-' || c == ' ') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

}  // namespace rdmagw::southbound::esxi
