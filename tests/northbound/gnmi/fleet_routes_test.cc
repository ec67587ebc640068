// Which forwarded calls a member believes: the forwarded-for metadata moves
// a stream to another client's per-client limit, so only a live member
// calling from the address it advertises may set it.
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

TEST(FleetRoutesTest, AForwardingMemberIsBelievedOnlyFromTheAddressItAdvertises) {
  const FleetSnapshot f = fleetOf({{"m1", "127.0.0.1:1"}, {"m2", "127.0.0.2:9339"}, {"m3", "[::1]:9339"}});
  EXPECT_TRUE(callerIsMember(f, "m2", "ipv4:127.0.0.2:40000"));
  EXPECT_TRUE(callerIsMember(f, "m2", "ipv6:[::ffff:127.0.0.2]:40000"));
  EXPECT_TRUE(callerIsMember(f, "m3", "ipv6:[::1]:40000"));
  EXPECT_FALSE(callerIsMember(f, "m2", "ipv4:127.0.0.9:40000")) << "another host claims to be m2";
  EXPECT_FALSE(callerIsMember(f, "m3", "ipv4:127.0.0.1:40000"));
  EXPECT_FALSE(callerIsMember(f, "m9", "ipv4:127.0.0.2:40000")) << "no such member";
  EXPECT_FALSE(callerIsMember(f, "m1", "ipv4:127.0.0.1:40000")) << "this member never forwards to itself";
  EXPECT_FALSE(callerIsMember(f, "", "ipv4:127.0.0.2:40000"));
  EXPECT_FALSE(callerIsMember(f, "m2", "garbage"));
}

TEST(FleetRoutesTest, OutsideAFleetOrWithoutAnAdvertisedAddressNobodyIsAMember) {
  FleetSnapshot f = fleetOf({{"m2", "127.0.0.2:9339"}, {"m4", ""}});
  EXPECT_FALSE(callerIsMember(f, "m4", "ipv4:127.0.0.2:40000"));
  f.enabled = false;
  EXPECT_FALSE(callerIsMember(f, "m2", "ipv4:127.0.0.2:40000"));
}

TEST(FleetRoutesTest, AMemberAdvertisedByHostNameIsBelievedByName) {
  const FleetSnapshot f = fleetOf({{"m2", "gw2.example:9339"}});
  EXPECT_TRUE(callerIsMember(f, "m2", "ipv4:10.0.0.7:40000"));
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
