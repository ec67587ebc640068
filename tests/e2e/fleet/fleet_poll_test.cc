// gNMI loose ends of a fleet, on real `rdmagw run` members, a real etcd and
// the simulator's peers, with Debian's python3-grpcio as the client: a POLL
// subscription through m1 to a target m2 owns is answered by m2 at every
// poll (a later poll sees newer values); the forwarded-stream metrics show
// on m1's /metrics; and with m2 killed -9 while its lease lives on, a "*"
// Get through m1 returns the live members' targets and names m2, while a
// Get of one of m2's targets is UNAVAILABLE naming m2.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <thread>

#include "tests/e2e/fleet/fleet_bed.h"
#include "tests/northbound/gnmi/python_client.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test
namespace {

using Lines = std::vector<std::string>;

// Targets named by the notifications ("N <target> <ts>") among `lines`.
std::set<std::string> notifiedTargets(const Lines& lines) {
  std::set<std::string> out;
  for (const std::string& l : lines) {
    if (l.rfind("N ", 0) == 0) out.insert(l.substr(2, l.find(' ', 2) - 2));
  }
  return out;
}

// The newest notification timestamp for `target` among `lines` (0: none).
uint64_t newestOf(const Lines& lines, const std::string& target) {
  uint64_t newest = 0;
  for (const std::string& l : lines) {
    if (l.rfind("N " + target + " ", 0) == 0)
      newest = std::max<uint64_t>(newest, std::stoull(l.substr(target.size() + 3)));
  }
  return newest;
}

// The value of the sample `series` (name and labels, as exposed) on a /metrics body.
std::optional<double> sample(const std::string& body, const std::string& series) {
  const size_t at = body.find("\n" + series + " ");
  if (at == std::string::npos) return std::nullopt;
  return std::strtod(body.c_str() + at + series.size() + 2, nullptr);
}

class FleetPollTest : public ::testing::Test {
 protected:
  // Empty: started; else why the test skips.
  void startFleet(int lease_ttl_s) {
    if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
    if (access("/usr/bin/etcd", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/etcd (Debian etcd-server)";
    std::string error;
    ASSERT_TRUE(testing::preparePythonClient(&error)) << error;
    ASSERT_EQ(bed_.start(3, 6, lease_ttl_s), "");
    for (int i = 0; i < 3; ++i) bed_.startMember(i);
    ASSERT_TRUE(bed_.waitConverged()) << bed_.describe() << bed_.log(0);
  }
  std::set<std::string> targetsOf(const std::string& member) {
    std::set<std::string> out;
    for (const auto& [t, ms] : bed_.collectors()) {
      if (ms.size() == 1 && ms.contains(member)) out.insert(t);
    }
    return out;
  }
  std::string metrics(int i) {
    return testing::httpGet("http://127.0.0.1:" + std::to_string(bed_.prometheusPort(i)) + "/metrics");
  }
  // The lines up to the next SYNC (included); false at the client's end.
  static bool round(PythonClient& c, Lines* seen) {
    seen->clear();
    for (std::string l = c.next(); !l.empty(); l = c.next()) {
      seen->push_back(l);
      if (l == "SYNC") return true;
    }
    return false;
  }

  FleetBed bed_;
};

TEST_F(FleetPollTest, PollThroughM1IsAnsweredByTheOwnerAndForwardedStreamsShowInMetrics) {
  startFleet(3);
  const std::set<std::string> m2 = targetsOf("m2");
  ASSERT_FALSE(m2.empty()) << bed_.describe();
  const std::string t = *m2.begin();
  // The owner has polled its device once the data shows through m1.
  ASSERT_TRUE(testing::waitUntil([&] {
    Lines l = runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": ")" + t + R"(", "paths": ["/"]})");
    return !l.empty() && l.back() == "STATUS OK";
  }));

  const std::string gate = testing::pythonModuleDir() + "/fleet-poll-gate-" + std::to_string(::getpid()) + "-";
  PythonClient c(bed_.gnmiAddress(0), R"({"rpc": "sub", "mode": "POLL", "target": ")" + t +
                                          R"(", "polls": 200, "poll_gate": ")" + gate +
                                          R"(", "subs": [{"path": "/"}], "timeout": 200})");
  Lines seen;
  ASSERT_TRUE(round(c, &seen)) << ::testing::PrintToString(seen) << bed_.log(0);
  EXPECT_EQ(notifiedTargets(seen), std::set<std::string>{t}) << "the initial set comes from m2";
  const uint64_t first = newestOf(seen, t);
  ASSERT_GT(first, 0u);
  // Poll until a poll brings a newer collection than the initial set.
  uint64_t later = 0;
  int polls = 0;
  for (int k = 1; k <= 200 && later <= first; ++k) {
    std::ofstream(gate + std::to_string(k)) << "go";
    ASSERT_TRUE(round(c, &seen)) << "poll " << k << ": " << ::testing::PrintToString(seen) << bed_.log(0);
    ASSERT_EQ(notifiedTargets(seen), std::set<std::string>{t}) << "poll " << k << " answered by m2";
    later = newestOf(seen, t);
    polls = k;
    if (later <= first) std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_GT(later, first) << "no poll saw a newer value of " << t;
  std::printf("POLL through m1 of %s (owned by m2): a newer collection at poll %d\n", t.c_str(), polls);

  // What m1 received from m2 on forwarded calls.
  const std::string notif = "rdmagw_gnmi_forwarded_notifications_total{member=\"m2\"}";
  const std::string bytes = "rdmagw_gnmi_forwarded_bytes_total{member=\"m2\"}";
  const std::string streams = "rdmagw_gnmi_forwarded_streams{member=\"m2\"}";
  std::string body;
  ASSERT_TRUE(testing::waitUntil([&] {
    body = metrics(0);
    return sample(body, notif).value_or(0) >= polls + 1 && sample(body, streams) == 0.0;
  })) << body;
  EXPECT_GT(sample(body, bytes).value_or(0), *sample(body, notif)) << body;
  // A STREAM subscription through m1 holds one forwarded stream to m2 while it lasts.
  {
    PythonClient watch(bed_.gnmiAddress(0), R"({"rpc": "sub", "target": ")" + t +
                                                R"(", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 200})");
    Lines w;
    ASSERT_TRUE(round(watch, &w)) << ::testing::PrintToString(w);
    ASSERT_TRUE(testing::waitUntil([&] { return sample(metrics(0), streams) == 1.0; })) << metrics(0);
  }
  ASSERT_TRUE(testing::waitUntil([&] { return sample(metrics(0), streams) == 0.0; })) << metrics(0);
  EXPECT_FALSE(sample(metrics(1), notif).has_value()) << "m2 forwarded nothing to itself";
}

TEST_F(FleetPollTest, StarGetWithAKilledMemberReturnsTheLiveMembersAndNamesIt) {
  // A long lease: m2 stays in the member set well after its death. At 15 s
  // two Python clients on a loaded machine outlasted it, and the target had
  // moved to a live member before the last Get asked for it.
  startFleet(60);
  const std::set<std::string> dead = targetsOf("m2");
  ASSERT_FALSE(dead.empty()) << bed_.describe();
  std::set<std::string> live = targetsOf("m1");
  live.merge(targetsOf("m3"));
  const std::set<std::string> all(bed_.targets().begin(), bed_.targets().end());
  ASSERT_TRUE(testing::waitUntil([&] {
    Lines star = runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": "*", "paths": ["/"]})");
    return !star.empty() && star.back() == "STATUS OK" && notifiedTargets(star) == all;
  })) << bed_.describe();

  bed_.kill9(1);
  Lines star = runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": "*", "paths": ["/"]})");
  ASSERT_FALSE(star.empty());
  EXPECT_EQ(star.back(), "STATUS OK");
  std::set<std::string> expected = live;
  expected.insert("*");  // the notification naming m2
  EXPECT_EQ(notifiedTargets(star), expected) << ::testing::PrintToString(notifiedTargets(star));
  const std::string detail = "U /fleet/member[name=m2]/error string_val UNAVAILABLE: fleet member m2 (" +
                             bed_.gnmiAddress(1) + ") did not answer";
  EXPECT_EQ(std::count_if(star.begin(), star.end(), [&](const std::string& l) { return l.rfind(detail, 0) == 0; }), 1)
      << ::testing::PrintToString(Lines(star.end() - std::min<size_t>(star.size(), 4), star.end()));

  const Lines one =
      runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": ")" + *dead.begin() + R"(", "paths": ["/"]})");
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(one.back().rfind("STATUS UNAVAILABLE fleet member m2", 0), 0u) << one.back();
  EXPECT_EQ(one.size(), 1u) << "no data with the error";
}

}  // namespace
}  // namespace rdmagw::testing
