#include "southbound/nxos/nxos_text.h"

#include <array>
#include <cctype>

namespace rdmagw::southbound::nxos {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Characters NX-OS uses in interface names after the type prefix.
bool isIfBodyChar(char c) { return isDigit(c) || c == '/' || c == '.' || c == ':'; }

// Section labels that start a new line in collapsed output; longest first so
// "Per Port Ingress Statistics" is not cut at "Port Ingress Statistics".
constexpr std::array<std::string_view, 22> kLabels = {
    "Per Slice Ingress Statistics", "Per Port Ingress Statistics", "Port Ingress Statistics",
    "Port Egress Statistics", "Ingress Overflow Drop Pkts", "Total Rx PFC Frames:",
    "Total Tx PFC Frames:", "Low Priority Drop Pkts", "Hi Priority Drop Pkts",
    "Ingress Queuing for", "Egress Queuing for", "Ingress MMU Drop", "PFC Statistics",
    "Admin Mode:", "Oper Mode:", "VL bitmap:", "QoS-Group#", "PFC_COS", "TxPPP:",
    "RX Queuing", "TX Queuing", "Statistics:"};

void cutCollapsed(std::string_view line, std::vector<std::string>& out) {
  std::string cur;
  auto flush = [&] {
    out.push_back(cur);
    cur.clear();
  };
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    // Rules: a run of 5+ '-' or '=' becomes its own line.
    if (c == '-' || c == '=') {
      size_t j = i;
      while (j < line.size() && line[j] == c) ++j;
      if (j - i >= 5) {
        flush();
        out.push_back(std::string(line.substr(i, j - i)));
        i = j;
        continue;
      }
    }
    // Box borders glued together.
    if (i + 1 < line.size()) {
      char n = line[i + 1];
      if ((c == '|' && (n == '|' || n == '+')) || (c == '+' && n == '|')) {
        cur.push_back(c);
        flush();
        ++i;
        continue;
      }
    }
    // Known labels.
    bool cut = false;
    for (std::string_view label : kLabels) {
      if (line.substr(i, label.size()) == label) {
        flush();
        cur.append(label);
        i += label.size();
        cut = true;
        break;
      }
    }
    if (cut) continue;
    // "|0Ethernet1/52": an interface name glued to the previous row's digit.
    if (i > 0 && isDigit(line[i - 1]) && line.substr(i, 8) == "Ethernet" && i + 8 < line.size() &&
        isDigit(line[i + 8])) {
      flush();
    }
    cur.push_back(c);
    ++i;
  }
  flush();
}

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string toLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::vector<std::string_view> splitWs(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    size_t start = i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::vector<std::string_view> splitBars(std::string_view line) {
  std::vector<std::string_view> cells;
  std::string_view t = trim(line);
  size_t start = 0;
  for (size_t i = 0; i <= t.size(); ++i) {
    if (i == t.size() || t[i] == '|') {
      cells.push_back(trim(t.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!cells.empty() && cells.front().empty() && !t.empty() && t.front() == '|') {
    cells.erase(cells.begin());
  }
  if (!cells.empty() && cells.back().empty() && !t.empty() && t.back() == '|') cells.pop_back();
  return cells;
}

bool isRuleLine(std::string_view line) {
  for (char c : line) {
    if (c != '-' && c != '=' && c != '+' && !isSpace(c)) return false;
  }
  return true;
}

bool isPromptLine(std::string_view line) {
  std::vector<std::string_view> t = splitWs(line);
  if (t.empty()) return false;
  std::string_view first = t.front();
  if (first.size() < 2 || first.back() != '#') return false;
  // "QoS-Group#  Pause ..." is a table header: a prompt stands alone or is
  // followed by a command.
  if (t.size() > 1) {
    std::string verb = toLower(t[1]);
    bool command = verb == "sh" || verb == "sho" || verb == "show" || verb == "term" ||
                   verb == "terminal" || verb == "clear" || verb == "exit" || verb == "end" ||
                   verb == "conf" || verb == "configure";
    if (!command) return false;
  }
  // A prompt is a host name: no '/' (interface) and not all '#'.
  for (char c : first.substr(0, first.size() - 1)) {
    if (!(isAlpha(c) || isDigit(c) || c == '-' || c == '_' || c == '.' || c == '(' || c == ')')) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> deviceErrorLine(std::string_view line) {
  std::string_view t = trim(line);
  if (t.size() >= 2 && t[0] == '%' && t[1] == ' ') return std::string(t);
  if (startsWith(t, "ERROR:") || startsWith(t, "Syntax error")) return std::string(t);
  return std::nullopt;
}

Result<uint64_t> parseCount(std::string_view token) {
  std::string_view t = trim(token);
  if (!t.empty() && t.back() == ',') t.remove_suffix(1);
  if (t == "--" || t == "-" || iequals(t, "N/A") || iequals(t, "NA")) {
    return Status::notFound("no value");
  }
  if (t.empty() || !isDigit(t.front()) || !isDigit(t.back())) {
    return Status::corrupt("not a counter: '" + std::string(t.substr(0, 40)) + "'");
  }
  // Thousands separators: every ',' must be followed by exactly 3 digits and
  // the first group must have 1-3 digits.
  size_t first_comma = t.find(',');
  if (first_comma != std::string_view::npos) {
    if (first_comma > 3) return Status::corrupt("bad thousands grouping: '" + std::string(t.substr(0, 40)) + "'");
    size_t group = 0;
    for (size_t i = first_comma + 1; i < t.size(); ++i) {
      if (t[i] == ',') {
        if (group != 3) return Status::corrupt("bad thousands grouping: '" + std::string(t.substr(0, 40)) + "'");
        group = 0;
      } else if (isDigit(t[i])) {
        ++group;
      } else {
        return Status::corrupt("not a counter: '" + std::string(t.substr(0, 40)) + "'");
      }
    }
    if (group != 3) return Status::corrupt("bad thousands grouping: '" + std::string(t.substr(0, 40)) + "'");
  }
  uint64_t v = 0;
  for (char c : t) {
    if (c == ',') continue;
    if (!isDigit(c)) return Status::corrupt("not a counter: '" + std::string(t.substr(0, 40)) + "'");
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) {
      return Status::invalidArgument("counter beyond 64 bits: '" + std::string(t.substr(0, 40)) + "'");
    }
    v = v * 10 + d;
  }
  return v;
}

bool isNumberToken(std::string_view token) {
  return parseCount(token).status().code() != Status::Code::kCorrupt;
}

std::optional<std::string> normalizeIfName(std::string_view token) {
  std::string_view t = trim(token);
  if (t.empty() || t.size() > 64 || !isAlpha(t.front())) return std::nullopt;
  // Type prefix: letters and '-' ; body: digits, '/', '.', ':'.
  size_t i = 0;
  while (i < t.size() && (isAlpha(t[i]) || t[i] == '-')) ++i;
  if (i == t.size() || !isDigit(t[i])) return std::nullopt;
  std::string_view prefix = t.substr(0, i);
  std::string_view body = t.substr(i);
  for (char c : body) {
    if (!isIfBodyChar(c)) return std::nullopt;
  }
  if (body.back() == '/' || body.back() == '.' || body.back() == ':') return std::nullopt;
  std::string p = toLower(prefix);
  if (startsWith(p, "br-")) p = p.substr(3);
  std::string_view kEthernet = "ethernet";
  if (!p.empty() && kEthernet.substr(0, p.size()) == p) return "Ethernet" + std::string(body);
  if (p == "po" || p == "port-channel") return "port-channel" + std::string(body);
  if (p == "veth" || p == "vethernet") return "Vethernet" + std::string(body);
  if (p == "ii") return "ii" + std::string(body);
  return std::string(t);
}

std::vector<std::string> decollapseLines(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view line : splitLines(text)) {
    if (line.size() <= kCollapsedLineLength) {
      out.emplace_back(line);
    } else {
      cutCollapsed(line, out);
    }
  }
  return out;
}

std::optional<std::string> interfaceFromPrompt(std::string_view line) {
  if (!isPromptLine(line)) return std::nullopt;
  std::vector<std::string_view> t = splitWs(line);
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    if (t[i] == "|") break;
    // "interface" or an abbreviation of it ("int", "inte"...).
    std::string_view kw = "interface";
    if (t[i].size() < 3 || t[i].size() > kw.size() || !iequals(t[i], kw.substr(0, t[i].size()))) continue;
    std::string_view arg = t[i + 1];
    if (arg.find(',') != std::string_view::npos) return std::nullopt;
    // "ethernet 1/51" (type and number apart) or "e1/51".
    if (i + 2 < t.size() && !arg.empty() && isAlpha(arg.back()) && !t[i + 2].empty() &&
        isDigit(t[i + 2].front())) {
      return normalizeIfName(std::string(arg) + std::string(t[i + 2]));
    }
    return normalizeIfName(arg);
  }
  return std::nullopt;
}

size_t jsonStart(std::string_view text) {
  for (std::string_view line : splitLines(text)) {
    std::string_view t = trim(line);
    if (t.empty() || t.front() == '#' || isPromptLine(t)) continue;
    if (t.front() == '{') return static_cast<size_t>(t.data() - text.data());
    return std::string_view::npos;
  }
  return std::string_view::npos;
}

}  // namespace rdmagw::southbound::nxos
