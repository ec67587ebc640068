// Three gNMI servers in one process over their own stores and hand-written
// fleet views (as gnmi_fleet_routing_test.cc): a POLL subscription through
// a member is answered at every poll by the owners of what it asks, and
// follows an owner that changed between polls; a "*" Get with a member
// that does not answer returns the others' data and names the silent one;
// the forwarding counters per member count what was forwarded.

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

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

class GnmiFleetPollTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(preparePythonClient(&err)) << err;
    for (int i = 0; i < 3; ++i) {
      GnmiServerConfig c;
      c.listen = "127.0.0.1:0";
      c.insecure = true;
      servers_[i] = std::make_unique<GnmiServer>(stores_[i], c, &views_[i]);
      Status st = servers_[i]->start();
      ASSERT_TRUE(st.isOk()) << st.toString();
    }
    gate_ = pythonModuleDir() + "/poll-gate-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-";
  }
  void TearDown() override {
    for (auto& s : servers_) s.reset();
  }

  // Every member's view: all three live, `owners` as given.
  void setAllViews(const std::map<std::string, std::string>& owners) {
    for (int self = 0; self < 3; ++self) {
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
  }
  void put(int member, const std::string& target, const std::string& path, uint64_t v) {
    std::vector<Update> b = {leaf(path, v, kTs1)};
    stores_[member].apply(target, b);
  }
  // Lets the client send its k-th poll (1-based).
  void openGate(int k) { std::ofstream(gate_ + std::to_string(k)) << "go"; }
  // The lines up to the next SYNC (included); false at the client's end.
  static bool round(PythonClient& c, Lines* seen) {
    seen->clear();
    for (std::string l = c.next(); !l.empty(); l = c.next()) {
      seen->push_back(l);
      if (l == "SYNC") return true;
    }
    return false;
  }
  static bool has(const Lines& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  }
  static std::string last(const Lines& l) { return l.empty() ? "" : l.back(); }
  // Member `server`'s forwarding counters toward `member` (zeros when none yet).
  MemberForwardStats::Values forwarded(int server, const std::string& member) const {
    auto all = servers_[server]->stats().forwarding();
    auto it = all.find(member);
    return it == all.end() ? MemberForwardStats::Values{} : it->second->values();
  }

  std::array<Store, 3> stores_;
  std::array<FleetView, 3> views_;
  std::array<std::unique_ptr<GnmiServer>, 3> servers_;
  std::string gate_;
};

TEST_F(GnmiFleetPollTest, EachPollIsAnsweredByTheTargetsOwnerAndFollowsAnOwnerThatChanged) {
  put(kB, "host01", kHostIfIn, 1);
  setAllViews({{"host01", "b"}});
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the hubs read the views every 0.5 s
  PythonClient c(servers_[kA]->address(), R"({"rpc": "sub", "mode": "POLL", "target": "host01", "polls": 100,
      "poll_gate": ")" + gate_ + R"(", "subs": [{"path": "/"}], "timeout": 60})");
  Lines seen;
  ASSERT_TRUE(round(c, &seen)) << ::testing::PrintToString(seen);
  EXPECT_TRUE(has(seen, "U " + kHostIfIn + " uint_val 1"))
      << "the initial set asks b: " << ::testing::PrintToString(seen);

  put(kB, "host01", kHostIfIn, 2);
  openGate(1);
  ASSERT_TRUE(round(c, &seen)) << ::testing::PrintToString(seen);
  EXPECT_EQ(seen, (Lines{"N host01 " + std::to_string(kTs1), "U " + kHostIfIn + " uint_val 2", "SYNC"}));

  // host01 moved to c between the polls: a later poll asks c, not b (a
  // poll may still find b while a's hub has not read the view yet).
  put(kC, "host01", kHostIfIn, 30);
  put(kB, "host01", kHostIfIn, 3);
  setAllViews({{"host01", "c"}});
  bool moved = false;
  for (int k = 2; k <= 100 && !moved; ++k) {
    if (k > 2) std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let the hub read the view
    openGate(k);
    ASSERT_TRUE(round(c, &seen)) << ::testing::PrintToString(seen);
    moved = seen == Lines{"N host01 " + std::to_string(kTs1), "U " + kHostIfIn + " uint_val 30", "SYNC"};
    if (!moved) {
      ASSERT_EQ(seen, (Lines{"N host01 " + std::to_string(kTs1), "U " + kHostIfIn + " uint_val 3", "SYNC"}));
    }
  }
  EXPECT_TRUE(moved) << "no poll reached c";

  // Each poll held its own short streams; none stays open after its sync.
  EXPECT_GE(forwarded(kA, "b").notifications, 2u) << "the initial set and the first poll";
  EXPECT_EQ(forwarded(kA, "c").notifications, 1u);
  EXPECT_GT(forwarded(kA, "b").bytes, forwarded(kA, "b").notifications);
  ASSERT_TRUE(testing::waitUntil([&] { return forwarded(kA, "b").streams == 0 && forwarded(kA, "c").streams == 0; }));
  EXPECT_EQ(servers_[kB]->stats().forwarded_streams_opened.load(), 0u) << "b only answered";
}

TEST_F(GnmiFleetPollTest, AStarPollAnswersEveryMembersTargetsBeforeEachSync) {
  put(kA, "host02", kHostIfIn, 2);
  put(kB, "host01", kHostIfIn, 1);
  put(kC, "leaf01", kLeafIn1, 11);
  setAllViews({{"host01", "b"}, {"host02", "a"}, {"leaf01", "c"}});
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the hubs read the views every 0.5 s
  PythonClient c(servers_[kA]->address(), R"({"rpc": "sub", "mode": "POLL", "target": "*", "polls": 1,
      "poll_gate": ")" + gate_ + R"(", "subs": [{"path": "/"}], "timeout": 60})");
  Lines seen;
  ASSERT_TRUE(round(c, &seen)) << ::testing::PrintToString(seen);
  put(kA, "host02", kHostIfIn, 3);
  put(kB, "host01", kHostIfIn, 4);
  put(kC, "leaf01", kLeafIn1, 12);
  openGate(1);
  ASSERT_TRUE(round(c, &seen)) << ::testing::PrintToString(seen);
  for (const std::string& u :
       {"U " + kHostIfIn + " uint_val 3", "U " + kHostIfIn + " uint_val 4", "U " + kLeafIn1 + " uint_val 12"}) {
    EXPECT_TRUE(has(seen, u)) << u << " missing before the poll's sync: " << ::testing::PrintToString(seen);
  }
}

TEST_F(GnmiFleetPollTest, AStarGetWithASilentMemberReturnsTheOthersAndNamesIt) {
  put(kA, "host02", kHostIfIn, 2);
  put(kB, "host01", kHostIfIn, 1);
  put(kC, "leaf01", kLeafIn1, 11);
  setAllViews({{"host01", "b"}, {"host02", "a"}, {"leaf01", "c"}});
  servers_[kC]->stop();  // c's view entry lives on, as a dead member's lease does
  Lines star = runPython(servers_[kA]->address(), R"({"rpc": "get", "target": "*", "paths": ["/"]})");
  EXPECT_EQ(last(star), "STATUS OK") << ::testing::PrintToString(star);
  EXPECT_TRUE(has(star, "U " + kHostIfIn + " uint_val 1")) << ::testing::PrintToString(star);
  EXPECT_TRUE(has(star, "U " + kHostIfIn + " uint_val 2")) << ::testing::PrintToString(star);
  EXPECT_FALSE(has(star, "U " + kLeafIn1 + " uint_val 11"));
  const std::string detail = "U /fleet/member[name=c]/error string_val UNAVAILABLE: fleet member c (";
  EXPECT_EQ(std::count_if(star.begin(), star.end(), [&](const std::string& l) { return l.rfind(detail, 0) == 0; }), 1)
      << ::testing::PrintToString(star);
  ASSERT_GE(star.size(), 3u);
  EXPECT_EQ(star[star.size() - 3].rfind("N * ", 0), 0u) << "the detail's own notification, last, for target *";
  // One target of the silent member: its unavailability, named.
  const std::string one =
      last(runPython(servers_[kA]->address(), R"({"rpc": "get", "target": "leaf01", "paths": ["/"]})"));
  EXPECT_EQ(one.rfind("STATUS UNAVAILABLE fleet member c", 0), 0u) << one;
  // Nothing from anyone but the silence: the Get fails, naming it.
  Lines none = runPython(servers_[kA]->address(),
                         R"({"rpc": "get", "target": "*", "paths": ["/interfaces/interface[name=nosuch]"]})");
  EXPECT_EQ(last(none).rfind("STATUS UNAVAILABLE fleet member c", 0), 0u) << last(none);
  EXPECT_GT(forwarded(kA, "b").notifications, 0u);
}

}  // namespace
}  // namespace rdmagw::testing
