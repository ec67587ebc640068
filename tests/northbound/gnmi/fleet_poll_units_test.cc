// The separable parts of forwarding POLL and a partial "*" Get: the round
// of links each poll opens (to whoever owns the target at that poll), how
// long a Get waits for the members, and the notification naming a member
// that did not answer.
#include <gtest/gtest.h>

#include "northbound/gnmi/fleet_get.h"
#include "northbound/gnmi/forwarded_links.h"
#include "northbound/gnmi/server_stats.h"

namespace rdmagw::northbound::gnmi {
namespace {

using namespace std::chrono_literals;

FleetSnapshot fleetOwning(const std::map<std::string, std::string>& owners) {
  FleetSnapshot f;
  f.enabled = true;
  f.self = "m1";
  for (const char* name : {"m1", "m2", "m3"}) {
    FleetMemberView m;
    m.name = name;
    m.addresses["gnmi"] = std::string("127.0.0.1:") + (name + 1);
    f.members.push_back(m);
  }
  f.owners = owners;
  return f;
}

std::vector<std::string> members(const ForwardedLinks::Plan& p) {
  std::vector<std::string> out;
  for (const ForwardedLinks::Opening& o : p.opening) out.push_back(o.member);
  return out;
}

TEST(FleetPollUnitsTest, EachPollRoundAsksWhoeverOwnsTheTargetAtThatPoll) {
  ServerStats stats;
  ForwardedLinks links("client", stats);
  const auto now = ForwardedLinks::Clock::now();
  ForwardedLinks::Plan first = links.pollRound(fleetOwning({{"h1", "m2"}}), "h1");
  EXPECT_EQ(members(first), std::vector<std::string>{"m2"});
  EXPECT_TRUE(links.routed());
  ASSERT_TRUE(links.deferSync(now)) << "the poll's sync waits for m2's";
  EXPECT_FALSE(links.releaseSync(now));
  EXPECT_TRUE(links.current(first.opening[0].id));
  EXPECT_TRUE(links.synced(first.opening[0].id));
  EXPECT_TRUE(links.releaseSync(now));

  // The owner changed: the next round asks m3; m2's link is no longer current.
  ForwardedLinks::Plan second = links.pollRound(fleetOwning({{"h1", "m3"}}), "h1");
  EXPECT_EQ(members(second), std::vector<std::string>{"m3"});
  EXPECT_FALSE(links.current(first.opening[0].id));
  EXPECT_NE(second.opening[0].id, first.opening[0].id);
  // A round that ended without a sync releases the poll too.
  ASSERT_TRUE(links.deferSync(now));
  links.ended(second.opening[0].id, grpc::Status(grpc::StatusCode::UNAVAILABLE, "gone"), false, "h1");
  EXPECT_TRUE(links.releaseSync(now));

  // "*": every other member; this member's own target: nobody.
  EXPECT_EQ(members(links.pollRound(fleetOwning({}), "*")), (std::vector<std::string>{"m2", "m3"}));
  ForwardedLinks::Plan own = links.pollRound(fleetOwning({{"h1", "m1"}}), "h1");
  EXPECT_TRUE(own.opening.empty());
  EXPECT_FALSE(links.deferSync(now)) << "nothing to wait for: the sync goes at once";
}

TEST(FleetPollUnitsTest, AMemberThatHangsPastKSyncWaitDoesNotHoldThePoll) {
  ServerStats stats;
  ForwardedLinks links("client", stats);
  const auto now = ForwardedLinks::Clock::now();
  links.pollRound(fleetOwning({{"h1", "m2"}}), "h1");
  ASSERT_TRUE(links.deferSync(now));
  EXPECT_FALSE(links.releaseSync(now + ForwardedLinks::kSyncWait - 1ms));
  EXPECT_TRUE(links.releaseSync(now + ForwardedLinks::kSyncWait));
}

TEST(FleetPollUnitsTest, AGetWaitsForMembersWithinTheClientsDeadlineLessAReserve) {
  const auto now = std::chrono::system_clock::now();
  EXPECT_EQ(memberDeadline(now + 5s, now), now + 5s - 500ms) << "a tenth of the time left";
  EXPECT_EQ(memberDeadline(now + 9s, now), now + 9s - 900ms);
  EXPECT_EQ(memberDeadline(now + 60s, now), now + kMemberGetLimit);
  EXPECT_EQ(memberDeadline(std::chrono::system_clock::time_point::max(), now), now + kMemberGetLimit)
      << "no deadline from the client";
  EXPECT_EQ(memberDeadline(now + 10500ms, now), now + 9500ms) << "at most 1 s of reserve";
  EXPECT_EQ(memberDeadline(now - 1s, now), now - 1s) << "already past: fail at once";
}

TEST(FleetPollUnitsTest, ASilentMemberIsNamedUnderFleetMemberError) {
  ::gnmi::Notification n = missingMemberNotification("m2", "UNAVAILABLE: fleet member m2 did not answer");
  EXPECT_EQ(n.prefix().target(), "*");
  ASSERT_EQ(n.update_size(), 1);
  const ::gnmi::Path& p = n.update(0).path();
  ASSERT_EQ(p.elem_size(), 3);
  EXPECT_EQ(p.elem(0).name(), "fleet");
  EXPECT_EQ(p.elem(1).name(), "member");
  EXPECT_EQ(p.elem(1).key().at("name"), "m2");
  EXPECT_EQ(p.elem(2).name(), "error");
  EXPECT_EQ(n.update(0).val().string_val(), "UNAVAILABLE: fleet member m2 did not answer");
  EXPECT_GT(n.timestamp(), 0);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
