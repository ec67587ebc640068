#include "northbound/snmp/oid.h"

#include <algorithm>

namespace rdmagw::northbound::snmp {

Result<Oid> parseOid(std::string_view text) {
  if (!text.empty() && text.front() == '.') text.remove_prefix(1);
  if (text.empty()) return Status::invalidArgument("empty OID");
  Oid out;
  uint64_t arc = 0;
  bool have_digit = false;
  for (char c : text) {
    if (c == '.') {
      if (!have_digit) return Status::invalidArgument("OID '" + std::string(text) + "' has an empty arc");
      out.push_back(static_cast<uint32_t>(arc));
      arc = 0;
      have_digit = false;
    } else if (c >= '0' && c <= '9') {
      arc = arc * 10 + uint64_t(c - '0');
      if (arc > 0xffffffffu) return Status::invalidArgument("OID '" + std::string(text) + "' has an arc over 2^32-1");
      have_digit = true;
    } else {
      return Status::invalidArgument("OID '" + std::string(text) + "' is not dotted decimal");
    }
  }
  if (!have_digit) return Status::invalidArgument("OID '" + std::string(text) + "' ends with '.'");
  out.push_back(static_cast<uint32_t>(arc));
  return out;
}

std::string oidToString(const Oid& oid) {
  std::string out;
  for (uint32_t arc : oid) {
    if (!out.empty()) out += '.';
    out += std::to_string(arc);
  }
  return out;
}

bool oidHasPrefix(const Oid& oid, const Oid& prefix) {
  return oid.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), oid.begin());
}

void appendStringIndex(Oid* oid, std::string_view text) {
  oid->push_back(static_cast<uint32_t>(text.size()));
  for (unsigned char c : text) oid->push_back(c);
}

}  // namespace rdmagw::northbound::snmp
