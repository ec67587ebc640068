#pragma once
// MIB table names the SNMP tests look cells up by (models/schema.yaml lists
// the tables; the northbound itself names none).

#include <string_view>

namespace rdmagw::northbound::snmp {

inline constexpr std::string_view kIfTable = "ifTable";
inline constexpr std::string_view kIfXTable = "ifXTable";
inline constexpr std::string_view kTargetTable = "rdmagwTargetTable";
inline constexpr std::string_view kFleetTargetTable = "rdmagwFleetTargetTable";

}  // namespace rdmagw::northbound::snmp
