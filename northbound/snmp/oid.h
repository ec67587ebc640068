#pragma once
// Object identifiers as plain vectors of arcs. Kept apart from Net-SNMP's
// `oid` type so the snapshot and its tests need no Net-SNMP headers.
// std::vector's operator< is the lexicographic order SNMP walks in (a
// prefix sorts before everything under it).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::northbound::snmp {

using Oid = std::vector<uint32_t>;

// "1.3.6.1.2.1.2.2.1.10" (a leading '.' is accepted).
Result<Oid> parseOid(std::string_view text);
std::string oidToString(const Oid& oid);

// True when `prefix` is a (not necessarily proper) prefix of `oid`.
bool oidHasPrefix(const Oid& oid, const Oid& prefix);

// Appends an OCTET STRING index: length, then one arc per byte (SMIv2 rule
// for a non-IMPLIED variable-length index).
void appendStringIndex(Oid* oid, std::string_view text);

}  // namespace rdmagw::northbound::snmp
