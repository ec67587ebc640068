// Three gNMI servers in one process, each over its own store and its own
// fleet view (written here by hand, as the fleet layer would): a member
// forwards Get and Subscribe for targets another member owns, "*" spans
// every member, a subscription follows its target from owner to owner
// (another member, then this one), and two members whose views disagree
// do not forward to each other in a loop.

#include <gtest/gtest.h>

#include <array>
#include <memory>

#include "northbound/gnmi/gnmi_server.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/northbound/gnmi/test_store.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {

using Lines = std::vector<std::string>;
constexpr int kA = 0, kB = 1, kC = 2;
const std::array<std::string, 3> kNames = {"a", "b", "c"};

class GnmiFleetRoutingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(preparePythonClient(&err)) << err;
    for (int i = 0; i < 3; ++i) {
      GnmiServerConfig c;
      c.listen = "127.0.0.1:0";
      c.insecure = true;
      c.min_sample_interval = std::chrono::milliseconds(100);
      servers_[i] = std::make_unique<GnmiServer>(stores_[i], c, &views_[i]);
      Status st = servers_[i]->start();
      ASSERT_TRUE(st.isOk()) << st.toString();
    }
  }
  void TearDown() override {
    for (auto& s : servers_) s.reset();
  }

  // Member `self`'s view: all three live, `owners` as given.
  void setView(int self, const std::map<std::string, std::string>& owners) {
    FleetSnapshot s;
    s.enabled = true;
    s.cluster = "test";
    s.self = kNames[self];
    s.state = "healthy";
    for (int i = 0; i < 3; ++i) {
      s.members.push_back(FleetMemberView{kNames[i], {{"gnmi", servers_[i]->address()}}, "test", 0});
    }
    s.owners = owners;
    views_[self].set(std::move(s));
  }
  void setAllViews(const std::map<std::string, std::string>& owners) {
    for (int i = 0; i < 3; ++i) setView(i, owners);
  }
  void put(int member, const std::string& target, const std::string& path, uint64_t v) {
    std::vector<Update> b = {leaf(path, v, kTs1)};
    stores_[member].apply(target, b);
  }
  Lines get(int member, const std::string& json) { return runPython(servers_[member]->address(), json); }
  static std::string last(const Lines& l) { return l.empty() ? "" : l.back(); }
  static bool has(const Lines& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  }
  // Reads until `line` (true) or the client's end (false); `seen` gets all.
  static bool readUntil(PythonClient& c, const std::string& line, Lines* seen) {
    for (std::string l = c.next(); !l.empty(); l = c.next()) {
      seen->push_back(l);
      if (l == line) return true;
    }
    return false;
  }

  std::array<Store, 3> stores_;
  std::array<FleetView, 3> views_;
  std::array<std::unique_ptr<GnmiServer>, 3> servers_;
};

TEST_F(GnmiFleetRoutingTest, GetIsForwardedToTheOwnerAndStarSpansTheFleet) {
  put(kA, "host02", kHostIfIn, 2);
  put(kB, "host01", kHostIfIn, 1);
  put(kC, "leaf01", kLeafIn1, 11);
  setAllViews({{"host01", "b"}, {"host02", "a"}, {"leaf01", "c"}});

  EXPECT_EQ(get(kA, R"({"rpc": "get", "target": "host01", "paths": ["/"]})"),
            (Lines{"N host01 " + std::to_string(kTs1), "U " + kHostIfIn + " uint_val 1", "STATUS OK"}));
  Lines star = get(kA, R"({"rpc": "get", "target": "*", "paths": ["/"]})");
  EXPECT_EQ(last(star), "STATUS OK");
  EXPECT_TRUE(has(star, "U " + kHostIfIn + " uint_val 1")) << ::testing::PrintToString(star);
  EXPECT_TRUE(has(star, "U " + kHostIfIn + " uint_val 2")) << ::testing::PrintToString(star);
  EXPECT_TRUE(has(star, "U " + kLeafIn1 + " uint_val 11")) << ::testing::PrintToString(star);
  // No target: this member's store alone.
  EXPECT_EQ(get(kA, R"({"rpc": "get", "paths": ["/"]})"),
            (Lines{"N host02 " + std::to_string(kTs1), "U " + kHostIfIn + " uint_val 2", "STATUS OK"}));
  // A ONCE subscription through a: the owner's values, then one sync.
  EXPECT_EQ(get(kA, R"({"rpc": "sub", "mode": "ONCE", "target": "leaf01", "subs": [{"path": "/"}]})"),
            (Lines{"N leaf01 " + std::to_string(kTs1), "U " + kLeafIn1 + " uint_val 11", "SYNC", "STATUS OK"}));
  // A request another member forwarded is answered from the store only.
  EXPECT_EQ(last(get(kB, R"({"rpc": "get", "target": "leaf01", "paths": ["/"],
                           "metadata": [["rdmagw-forwarded-by", "a"]]})")).rfind("STATUS NOT_FOUND", 0), 0u);
  EXPECT_EQ(servers_[kA]->stats().forwarded_get_calls.load(), 3u) << "b for host01, b and c for *";
  // A dead owner is this Get's unavailability, named.
  servers_[kC]->stop();
  const std::string dead = last(get(kA, R"({"rpc": "get", "target": "leaf01", "paths": ["/"]})"));
  EXPECT_EQ(dead.rfind("STATUS UNAVAILABLE fleet member c", 0), 0u) << dead;
}

TEST_F(GnmiFleetRoutingTest, ASubscriptionFollowsItsTargetFromOwnerToOwnerWithoutReconnecting) {
  put(kB, "host01", kHostIfIn, 1);
  setAllViews({{"host01", "b"}});
  PythonClient c(servers_[kA]->address(),
                 R"({"rpc": "sub", "target": "host01", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 60})");
  Lines seen;
  ASSERT_TRUE(readUntil(c, "SYNC", &seen)) << ::testing::PrintToString(seen);
  EXPECT_TRUE(has(seen, "U " + kHostIfIn + " uint_val 1")) << "the initial values come from b before the sync";
  put(kB, "host01", kHostIfIn, 2);
  ASSERT_TRUE(readUntil(c, "U " + kHostIfIn + " uint_val 2", &seen)) << ::testing::PrintToString(seen);

  // host01 moves to c: c's values follow, b's no longer reach the client.
  put(kC, "host01", kHostIfIn, 30);
  setAllViews({{"host01", "c"}});
  ASSERT_TRUE(readUntil(c, "U " + kHostIfIn + " uint_val 30", &seen)) << ::testing::PrintToString(seen);
  ASSERT_TRUE(testing::waitUntil([&] { return servers_[kB]->subscriberCount() == 0; }));
  put(kB, "host01", kHostIfIn, 3);
  put(kC, "host01", kHostIfIn, 31);
  seen.clear();
  ASSERT_TRUE(readUntil(c, "U " + kHostIfIn + " uint_val 31", &seen)) << ::testing::PrintToString(seen);
  EXPECT_FALSE(has(seen, "U " + kHostIfIn + " uint_val 3"));

  // host01 moves to a itself: served from a's store, c's link is dropped.
  setAllViews({{"host01", "a"}});
  ASSERT_TRUE(testing::waitUntil([&] { return servers_[kC]->subscriberCount() == 0; }));
  put(kA, "host01", kHostIfIn, 40);
  put(kC, "host01", kHostIfIn, 32);
  seen.clear();
  ASSERT_TRUE(readUntil(c, "U " + kHostIfIn + " uint_val 40", &seen)) << ::testing::PrintToString(seen);
  EXPECT_FALSE(has(seen, "U " + kHostIfIn + " uint_val 32"));
  EXPECT_FALSE(has(seen, "SYNC")) << "one sync_response per subscription";
  const ServerStats& a = servers_[kA]->stats();
  EXPECT_GE(a.forwarded_streams_opened.load(), 2u) << "to b, then to c";
  EXPECT_EQ(a.forwarded_streams_rerouted.load(), 2u) << "b's link when c took host01, c's when a did";
  EXPECT_GE(a.forwarded_updates_received.load(), 3u);
  EXPECT_EQ(servers_[kB]->stats().forwarded_streams_opened.load(), 0u) << "b only answered";
}

TEST_F(GnmiFleetRoutingTest, AStarSubscriptionStreamsEveryMembersTargets) {
  put(kA, "host02", kHostIfIn, 2);
  put(kB, "host01", kHostIfIn, 1);
  put(kC, "leaf01", kLeafIn1, 11);
  setAllViews({{"host01", "b"}, {"host02", "a"}, {"leaf01", "c"}});
  PythonClient c(servers_[kA]->address(),
                 R"({"rpc": "sub", "target": "*", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 60})");
  Lines seen;
  ASSERT_TRUE(readUntil(c, "SYNC", &seen)) << ::testing::PrintToString(seen);
  // The sync comes after every member's initial values.
  for (const std::string& u : {"U " + kHostIfIn + " uint_val 2", "U " + kHostIfIn + " uint_val 1",
                               "U " + kLeafIn1 + " uint_val 11"}) {
    EXPECT_TRUE(has(seen, u)) << u << " missing before the sync: " << ::testing::PrintToString(seen);
  }
  put(kC, "leaf01", kLeafIn1, 12);
  ASSERT_TRUE(readUntil(c, "U " + kLeafIn1 + " uint_val 12", &seen)) << ::testing::PrintToString(seen);
  put(kA, "host02", kHostIfIn, 3);
  ASSERT_TRUE(readUntil(c, "U " + kHostIfIn + " uint_val 3", &seen)) << ::testing::PrintToString(seen);
}

TEST_F(GnmiFleetRoutingTest, ASampleSubscriptionIsSampledByTheOwner) {
  put(kB, "host01", kHostIfIn, 1);
  setAllViews({{"host01", "b"}});
  Lines lines = get(kA, R"({"rpc": "sub", "target": "host01", "count": 5,
                            "subs": [{"path": "/", "mode": "SAMPLE", "sample_ms": 100}]})");
  // Responses: the initial value, the sync, then samples of the same value.
  EXPECT_EQ(last(lines), "STATUS OK");
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "U " + kHostIfIn + " uint_val 1"), 4) << ::testing::PrintToString(lines);
  EXPECT_TRUE(has(lines, "SYNC"));
}

TEST_F(GnmiFleetRoutingTest, MembersWhoseViewsDisagreeDoNotForwardInALoop) {
  put(kC, "host01", kHostIfIn, 1);
  setView(kA, {{"host01", "b"}});
  setView(kB, {{"host01", "a"}});
  setView(kC, {{"host01", "c"}});
  // b, asked by a, answers from its own store (nothing) instead of asking a.
  EXPECT_EQ(last(get(kA, R"({"rpc": "get", "target": "host01", "paths": ["/"]})")).rfind("STATUS NOT_FOUND", 0), 0u);
  PythonClient c(servers_[kA]->address(),
                 R"({"rpc": "sub", "target": "host01", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 60})");
  Lines seen;
  ASSERT_TRUE(readUntil(c, "SYNC", &seen)) << ::testing::PrintToString(seen);
  // One stream on each: the client's on a, a's forwarded one on b; b never
  // forwards it back (a second stream on a, a third on b, ...).
  std::this_thread::sleep_for(std::chrono::seconds(2));  // several route checks
  EXPECT_EQ(servers_[kA]->subscriberCount(), 1u);
  EXPECT_EQ(servers_[kB]->subscriberCount(), 1u);
  // The views converge on c: the data comes.
  setView(kA, {{"host01", "c"}});
  setView(kB, {{"host01", "c"}});
  ASSERT_TRUE(readUntil(c, "U " + kHostIfIn + " uint_val 1", &seen)) << ::testing::PrintToString(seen);
}

}  // namespace
}  // namespace rdmagw::testing
