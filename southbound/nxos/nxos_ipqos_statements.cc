#include "southbound/nxos/nxos_ipqos_statements.h"

#include <cctype>

#include "southbound/nxos/nxos_text.h"
#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::nxos {

using text::cutBeforeLabels;
using text::parseBounded;
using text::trimBlanks;

namespace {

// Where a collapsed configuration is cut. A longer keyword that holds a
// shorter one comes first and is consumed whole ("congestion-control
// random-detect ..." is not cut at "random-detect").
const std::vector<std::string_view> kKeywords = {
    "congestion-control random-detect forward-nonecn",
    "priority-flow-control watch-dog-interval",
    "priority-flow-control mode",
    "hardware access-list",
    "hardware qos",
    "class-map type",
    "policy-map type",
    "class type",
    "class ",
    "match ",
    "set qos-group",
    "pause ",
    "mtu ",
    "system qos",
    "service-policy",
    "bandwidth ",
    "random-detect",
    "priority level",
    "shape ",
    "queue-limit",
    "interface ",
};

// Lines longer than this are taken as collapsed (as decollapseLines).
constexpr size_t kCollapsed = 250;

}  // namespace

std::vector<IpqosStatement> ipqosStatements(std::string_view text) {
  std::vector<IpqosStatement> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kCollapsed) {
      for (const std::string& piece : cutBeforeLabels(line, kKeywords)) {
        if (!trimBlanks(piece).empty()) out.push_back({std::string(trimBlanks(piece)), false, false});
      }
      continue;
    }
    const std::string_view t = trimBlanks(line);
    if (t.empty()) continue;
    out.push_back({std::string(t), line.front() != ' ' && line.front() != '\t', true});
  }
  return out;
}

Result<std::vector<std::string>> expandNxosInterfaces(std::string_view list) {
  std::vector<std::string> out;
  size_t i = 0;
  const std::string s(list);
  while (i <= s.size()) {
    size_t c = s.find(',', i);
    if (c == std::string::npos) c = s.size();
    std::string item;
    for (char ch : trimBlanks(std::string_view(s).substr(i, c - i))) {
      if (ch != ' ' && ch != '\t') item.push_back(ch);  // "ethernet 1/1" -> "ethernet1/1"
    }
    i = c + 1;
    if (item.empty()) continue;
    // A trailing "-N" after a digit is a range of the last number.
    const size_t dash = item.rfind('-');
    if (dash != std::string::npos && dash > 0 && std::isdigit(static_cast<unsigned char>(item[dash - 1])) &&
        dash + 1 < item.size()) {
      size_t first = dash;
      while (first > 0 && std::isdigit(static_cast<unsigned char>(item[first - 1]))) --first;
      Result<uint64_t> a = parseBounded(item.substr(first, dash - first), UINT32_MAX);
      Result<uint64_t> b = parseBounded(item.substr(dash + 1), UINT32_MAX);
      std::optional<std::string> base = normalizeIfName(item.substr(0, dash));
      if (!a.isOk() || !b.isOk() || !base || *a > *b || *b - *a > 512) {
        return Status::invalidArgument("interface range '" + item.substr(0, 40) + "' is not NAME-N within 512");
      }
      const std::string prefix = base->substr(0, base->size() - (dash - first));
      for (uint64_t n = *a; n <= *b; ++n) out.push_back(prefix + std::to_string(n));
      continue;
    }
    std::optional<std::string> name = normalizeIfName(item);
    if (!name) return Status::invalidArgument("'" + item.substr(0, 40) + "' is not an interface name");
    out.push_back(*name);
  }
  if (out.empty()) return Status::invalidArgument("no interface named");
  return out;
}

}  // namespace rdmagw::southbound::nxos
