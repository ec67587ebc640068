#pragma once
// A store filled the way the collectors fill it, for the SNMP tests: a
// Nexus (sw1), an RDMA host (host1) and an ESXi host (esxi1), each with
// leaves in every table the SNMP northbound serves.

#include <cstdint>
#include <string>

#include "models/store.h"

namespace rdmagw::testing {

inline constexpr const char* kSwitch = "sw1";
inline constexpr const char* kHost = "host1";
inline constexpr const char* kEsxi = "esxi1";

// Paths used by several tests.
inline constexpr const char* kEth11InOctets = "/interfaces/interface[name=eth1/1]/state/counters/in-octets";
inline constexpr const char* kEth12InOctets = "/interfaces/interface[name=eth1/2]/state/counters/in-octets";
inline constexpr uint64_t kEth11InOctetsValue = 5'000'000'000;  // > 2^32: Counter32 columns wrap

void put(Store* store, const std::string& target, const std::string& path, Value v);
void fillStore(Store* store);

}  // namespace rdmagw::testing
