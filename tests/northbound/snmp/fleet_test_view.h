#pragma once
// A fleet as the fleet layer (gateway/fleet/fleet.h) would publish it, filled by
// hand for the SNMP tests: three members, one of which advertises no SNMP
// address, and targets owned by each of them, by this member ("gw1") and
// by nobody yet.

#include <string>

#include "models/fleet_view.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::snmp;  // the helpers speak the vocabulary of the code they test

inline constexpr const char* kSelf = "gw1";

inline FleetSnapshot threeMemberFleet() {
  FleetSnapshot s;
  s.enabled = true;
  s.cluster = "fabric-a";
  s.self = kSelf;
  s.state = "healthy";
  s.members = {
      {"gw1", {{"snmp", "10.0.0.1:161"}, {"gnmi", "10.0.0.1:9339"}, {"prometheus", "10.0.0.1:9464"}}, "1", 0},
      {"gw2", {{"snmp", "10.0.0.2:1161"}, {"gnmi", "10.0.0.2:9339"}}, "1", 0},
      {"gw3", {{"prometheus", "10.0.0.3:9464"}}, "1", 0},  // no SNMP, no gNMI advertised
  };
  s.owners = {{"sw1", "gw1"}, {"host1", "gw2"}, {"esxi1", "gw1"}, {"leaf7", "gw3"}, {"spine1", "gw2"}};
  return s;
}

}  // namespace rdmagw::testing
