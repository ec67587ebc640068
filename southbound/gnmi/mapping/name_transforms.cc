#include "southbound/gnmi/mapping/name_transforms.h"

namespace rdmagw::southbound::gnmi {
namespace {

bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isBodyChar(char c) { return isDigit(c) || c == '/' || c == '.' || c == ':'; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

bool lowerEquals(std::string_view a, std::string_view lower_b) {
  if (a.size() != lower_b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower_b[i]) return false;
  }
  return true;
}

// True when `p` (any case) is a non-empty prefix of `lower_word`.
bool abbreviates(std::string_view p, std::string_view lower_word) {
  return !p.empty() && p.size() <= lower_word.size() && lowerEquals(p, lower_word.substr(0, p.size()));
}

}  // namespace

void appendIfName(std::string_view t, std::string& out) {
  // Same acceptance rules as the SSH parsers' normalizeIfName; names it
  // would not rewrite are appended unchanged.
  size_t i = 0;
  while (i < t.size() && (isAlpha(t[i]) || t[i] == '-')) ++i;
  bool shaped = !t.empty() && t.size() <= 64 && isAlpha(t.front()) && i < t.size() && isDigit(t[i]);
  std::string_view body = shaped ? t.substr(i) : std::string_view();
  for (char c : body) {
    if (!isBodyChar(c)) shaped = false;
  }
  if (shaped && (body.back() == '/' || body.back() == '.' || body.back() == ':')) shaped = false;
  if (!shaped) {
    out.append(t);
    return;
  }
  std::string_view p = t.substr(0, i);
  if (p.size() > 3 && lowerEquals(p.substr(0, 3), "br-")) p.remove_prefix(3);
  if (abbreviates(p, "ethernet")) {
    out.append("Ethernet").append(body);
  } else if (lowerEquals(p, "po") || lowerEquals(p, "pc") || lowerEquals(p, "port-channel")) {
    // "pc": the native ipqos If-list documents short names as "eth1/1 or pc1".
    out.append("port-channel").append(body);
  } else if (lowerEquals(p, "veth") || lowerEquals(p, "vethernet")) {
    out.append("Vethernet").append(body);
  } else {
    out.append(t);
  }
}

std::string ifName(std::string_view in) {
  std::string out;
  appendIfName(in, out);
  return out;
}

bool qosGroupOf(std::string_view name, std::string_view& digits_out) {
  if (name.empty() || name.size() > 128) return false;
  size_t end = name.size();
  size_t start = end;
  while (start > 0 && isDigit(name[start - 1])) --start;
  if (start == end) {
    if (name == "class-default" || (name.size() >= 9 && name.substr(name.size() - 9) == "q-default")) {
      digits_out = "0";
      return true;
    }
    return false;
  }
  if (end - start > 3) return false;
  // A bare number is already a qos-group; otherwise the digits must follow
  // the class's 'q' (c-out-8q-q3): "c-out-8q" alone names a policy, not a queue.
  if (start != 0 && lower(name[start - 1]) != 'q') return false;
  if (start != 0 && start >= 2 && name[start - 2] != '-' && lower(name[start - 2]) != 'n') return false;
  digits_out = name.substr(start);
  while (digits_out.size() > 1 && digits_out.front() == '0') digits_out.remove_prefix(1);
  return true;
}

bool priorityOf(std::string_view name, std::string_view& digit_out) {
  std::string_view g;
  if (!qosGroupOf(name, g) || g.size() != 1 || g[0] > '7') return false;
  digit_out = g;
  return true;
}

}  // namespace rdmagw::southbound::gnmi
