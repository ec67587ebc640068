// Which forwarded calls a member believes: the forwarded-for metadata moves
// a stream to another client's per-client limit, so only a live member
// whose identity the call proved (member_identity.h) may set it.
#include "northbound/gnmi/fleet_routes.h"

#include <gtest/gtest.h>

namespace rdmagw::northbound::gnmi {
namespace {

FleetSnapshot fleetOf(std::vector<std::pair<std::string, std::string>> gnmi_addresses) {
  FleetSnapshot f;
  f.enabled = true;
  f.self = "m1";
  for (auto& [name, address] : gnmi_addresses) {
    FleetMemberView m;
    m.name = name;
    if (!address.empty()) m.addresses["gnmi"] = address;
    f.members.push_back(m);
  }
  return f;
}

TEST(FleetRoutesTest, AForwardingMemberIsBelievedOnlyAsTheMemberTheCallProved) {
  const FleetSnapshot f = fleetOf({{"m1", "127.0.0.1:1"}, {"m2", "127.0.0.2:9339"}, {"m3", "gw3.example:9339"}});
  EXPECT_TRUE(callerIsMember(f, "m2", "m2"));
  EXPECT_TRUE(callerIsMember(f, "m3", "m3")) << "a member advertised by host name, proved";
  EXPECT_FALSE(callerIsMember(f, "m2", "")) << "the name alone, from m2's own address, proves nothing";
  EXPECT_FALSE(callerIsMember(f, "m3", "")) << "nor from a member advertised by host name";
  EXPECT_FALSE(callerIsMember(f, "m2", "m3")) << "m3 speaking as m2";
  EXPECT_FALSE(callerIsMember(f, "m9", "m9")) << "no such member";
  EXPECT_FALSE(callerIsMember(f, "m1", "m1")) << "this member never forwards to itself";
  EXPECT_FALSE(callerIsMember(f, "", ""));
}

TEST(FleetRoutesTest, OutsideAFleetNobodyIsAMember) {
  FleetSnapshot f = fleetOf({{"m2", "127.0.0.2:9339"}});
  f.enabled = false;
  EXPECT_FALSE(callerIsMember(f, "m2", "m2"));
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
