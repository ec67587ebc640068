// The derived verdicts as a gNMI client sees them (the derived leaves under
// our YANG module, streamed ON_CHANGE). The real simulated
// fabric feeds the store through the real collectors and the analytics
// engine (sim_feed.h); the real gNMI server serves that store on loopback;
// an independent client (the Python client of the gNMI conformance tests)
// subscribes STREAM / ON_CHANGE to one verdict leaf on every target. A
// scenario switched on must reach the client as one update of exactly the
// faulty port's verdict, and its end as one update back, and nothing else.
//
// "Nothing else" without waiting on a clock: once the store has settled,
// the test writes a sentinel leaf (same subscribed path, a target of its
// own) into the store. The server queues a subscriber's leaves in the order
// the store changed them, so everything the scenario changed arrives before
// the sentinel, and whatever arrives before it is all the client got.
// Waits are counted in simulated ticks; reads are bounded by the client's
// own stream deadline.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "northbound/gnmi/gnmi_server.h"
#include "sim/scenario.h"
#include "tests/analytics/sim_feed.h"
#include "tests/northbound/gnmi/python_client.h"

namespace rdmagw::analytics {
namespace {

using northbound::gnmi::GnmiServer;
using northbound::gnmi::GnmiServerConfig;
using testing::PythonClient;
using testing::SimFeed;
using Events = std::vector<std::string>;

constexpr int kWaitTicks = 60;          // generous: the verdicts settle within a window or two (4 ticks)
constexpr int kStreamDeadlineS = 120;   // the client's own deadline bounds every blocking read
const std::string kSentinelTarget = "zz-sentinel";

// One subscribed leaf: its schema path (no keys: every list entry), how a
// SimFeed key "target:name:last" becomes a keyed path, and its gNMI kind.
struct Leaf {
  std::string name;      // as SimFeed::derived() names it
  std::string list1;     // "/fabric/dcqcn/devices/device[name="
  std::string list2;     // "]/ports/port[port-num="
  std::string tail;      // "]/state/verdict"
  std::string kind;      // "string_val"
  std::string normal;    // the quiet value

  std::string subscribed() const {
    auto strip = [](std::string s) {
      for (size_t b; (b = s.find('[')) != std::string::npos;) s.erase(b, s.find(']', b) - b + 1);
      return s;
    };
    return strip(list1 + "x" + list2 + "x" + tail);
  }
  // "host01:mlx5_0:1" -> "host01 /fabric/.../device[name=mlx5_0]/.../port[port-num=1]/state/verdict"
  std::string event(const std::string& key, const std::string& value) const {
    const size_t first = key.find(':');
    const size_t last = key.rfind(':');
    return key.substr(0, first) + " " + list1 + key.substr(first + 1, last - first - 1) + list2 + key.substr(last + 1) +
           tail + " " + kind + " " + value;
  }
};

const Leaf kVerdict{"verdict", "/fabric/dcqcn/devices/device[name=", "]/ports/port[port-num=", "]/state/verdict",
                    "string_val", "idle"};
const Leaf kPauseStorm{"pause-storm", "/fabric/interfaces/interface[name=", "]/priorities/priority[id=",
                       "]/state/pause-storm", "uint_val", "0"};

class FabricGnmiSubscribeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(testing::preparePythonClient(&err)) << err;
    feed_.ticks(6);  // two samples and a full window: every verdict present and quiet
    GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    server_ = std::make_unique<GnmiServer>(feed_.store(), c);
    const Status st = server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  void TearDown() override {
    client_.reset();
    server_.reset();
  }

  // Subscribes to `leaf` on every target; returns the initial set as events
  // (sorted), having read through the sync_response.
  Events subscribe(const Leaf& leaf) {
    client_ = std::make_unique<PythonClient>(
        server_->address(), R"({"rpc": "sub", "target": "*", "timeout": )" + std::to_string(kStreamDeadlineS) +
                                R"(, "subs": [{"path": ")" + leaf.subscribed() + R"(", "mode": "ON_CHANGE"}]})");
    Events initial;
    const bool synced = read([&](const std::string& e) { initial.push_back(e); }, "SYNC");
    EXPECT_TRUE(synced) << "no sync_response";
    std::sort(initial.begin(), initial.end());
    return initial;
  }

  // Reads the stream into events ("target path kind value", "target path
  // deleted") until a line equal to `stop`; false if the stream ended first.
  template <typename F>
  bool read(F&& sink, const std::string& stop) {
    std::string target;
    for (std::string l = client_->next(); !l.empty(); l = client_->next()) {
      raw_.push_back(l);
      if (l == stop) return true;
      if (l.starts_with("N ")) {
        target = l.substr(2, l.find(' ', 2) - 2);
      } else if (l.starts_with("U ")) {
        sink(target + " " + l.substr(2));
      } else if (l.starts_with("D ")) {
        sink(target + " " + l.substr(2) + " deleted");
      } else {
        sink("unexpected line: " + l);
      }
    }
    return false;
  }

  // The store's `leaf` leaves as SimFeed keys them, the sentinel's left out.
  std::map<std::string, std::string> derived(const Leaf& leaf) const {
    std::map<std::string, std::string> out = feed_.derived(leaf.name);
    std::erase_if(out, [](const auto& kv) { return kv.first.starts_with(kSentinelTarget + ":"); });
    return out;
  }
  std::map<std::string, std::string> flagged(const Leaf& leaf) const {
    std::map<std::string, std::string> out = derived(leaf);
    std::erase_if(out, [&](const auto& kv) { return kv.second == leaf.normal; });
    return out;
  }

  // What the store holds of `leaf` right now, as events (sorted).
  Events storeEvents(const Leaf& leaf) const {
    Events out;
    for (const auto& [k, v] : derived(leaf)) out.push_back(leaf.event(k, v));
    return out;  // derived() is a sorted map, and so is the event text per target
  }

  // Records every change of `leaf` in the store since the last call, as the
  // events a subscriber should get for it.
  void recordChanges(const Leaf& leaf) {
    const std::map<std::string, std::string> now = derived(leaf);
    for (const auto& [k, v] : now) {
      auto it = seen_.find(k);
      if (it == seen_.end() || it->second != v) changes_.push_back(leaf.event(k, v));
    }
    for (const auto& [k, v] : seen_) {
      if (!now.count(k)) changes_.push_back("removed from the store: " + k);
    }
    seen_ = now;
  }

  // Writes the sentinel (a leaf of the subscribed path on a target no
  // collector or engine touches) and returns every event the client got
  // before it, sorted.
  Events untilSentinel(const Leaf& leaf, const std::string& value) {
    const std::string key = kSentinelTarget + ":sentinel:" + (leaf.kind == "uint_val" ? "3" : "1");
    const std::string event = leaf.event(key, value);
    const std::string path = event.substr(event.find(' ') + 1, event.find(' ' + leaf.kind) - event.find(' ') - 1);
    const Value v = leaf.kind == "uint_val" ? Value(uint64_t(std::stoull(value))) : Value(value);
    PollBatch batch;
    batch.add(path, v, ++sentinel_ts_);
    const Store::ApplyResult r = feed_.store().apply(kSentinelTarget, batch.updates);
    EXPECT_EQ(r.rejected, 0u) << r.first_error;
    Events got;
    const bool found = read([&](const std::string& e) { got.push_back(e); }, "U " + path + " " + leaf.kind + " " + value);
    EXPECT_TRUE(found) << "the stream ended before the sentinel " << value << "\n" << transcript();
    std::sort(got.begin(), got.end());
    return got;
  }

  Events takeChanges() {
    Events out = std::move(changes_);
    changes_.clear();
    std::sort(out.begin(), out.end());
    return out;
  }

  // What the client printed after its initial set (all of it if it never synced).
  std::string transcript() const {
    auto from = std::find(raw_.begin(), raw_.end(), "SYNC");
    from = from == raw_.end() ? raw_.begin() : from;
    std::string out = "client lines (" + std::to_string(raw_.size()) + " in all) from its sync on:\n";
    for (auto it = from; it != raw_.end(); ++it) out += "  " + *it + "\n";
    return out;
  }

  SimFeed feed_{SimFeed::calmFabric(), SimFeed::config()};
  std::unique_ptr<GnmiServer> server_;
  std::unique_ptr<PythonClient> client_;
  std::map<std::string, std::string> seen_;  // the store's values at the last recordChanges
  Events changes_;                           // the store's changes since the last takeChanges
  Events raw_;                               // every line the client printed
  TimestampNs sentinel_ts_ = 0;
};

TEST_F(FabricGnmiSubscribeTest, NpOffReachesTheSubscriberAsTheReceiversVerdictAloneAndItsClear) {
  const Events initial = subscribe(kVerdict);
  // The initial set: every RDMA port's verdict, all quiet, as the store holds them.
  EXPECT_EQ(initial, storeEvents(kVerdict)) << transcript();
  ASSERT_EQ(initial.size(), 8u) << transcript();  // 4 hosts x 2 RDMA ports
  for (const std::string& e : initial) EXPECT_TRUE(e.ends_with(" string_val idle")) << e;
  recordChanges(kVerdict);
  (void)takeChanges();

  feed_.fabric().setScenario({sim::ScenarioKind::kNpOff, 0});
  const std::string receiver = feed_.rdmaPort(0);
  ASSERT_TRUE(feed_.tickUntil(
      [&] {
        recordChanges(kVerdict);
        return derived(kVerdict)[receiver] == "marks-no-cnp";
      },
      kWaitTicks));
  for (int i = 0; i < 4; ++i) {  // settled: nothing more changes
    feed_.tick();
    recordChanges(kVerdict);
  }
  const Events flip = {kVerdict.event(receiver, "marks-no-cnp")};
  EXPECT_EQ(takeChanges(), flip) << "the store itself (analytics, not gNMI)";
  EXPECT_EQ(untilSentinel(kVerdict, "sentinel-1"), flip) << transcript();

  feed_.fabric().setScenario({});
  ASSERT_TRUE(feed_.tickUntil(
      [&] {
        recordChanges(kVerdict);
        return flagged(kVerdict).empty();
      },
      kWaitTicks));
  for (int i = 0; i < 8; ++i) {
    feed_.tick();
    recordChanges(kVerdict);
  }
  const Events clear = {kVerdict.event(receiver, "idle")};
  EXPECT_EQ(takeChanges(), clear) << "the store itself (analytics, not gNMI)";
  EXPECT_EQ(untilSentinel(kVerdict, "sentinel-2"), clear) << transcript();
}

TEST_F(FabricGnmiSubscribeTest, PauseStormReachesTheSubscriberAsTheStormingNicsAlarmAloneAndItsClear) {
  const Events initial = subscribe(kPauseStorm);
  EXPECT_EQ(initial, storeEvents(kPauseStorm)) << transcript();
  ASSERT_FALSE(initial.empty());
  for (const std::string& e : initial) EXPECT_TRUE(e.ends_with(" uint_val 0")) << e;
  recordChanges(kPauseStorm);
  (void)takeChanges();

  feed_.fabric().setScenario({sim::ScenarioKind::kPauseStorm, 3});  // host02:mlx5_1
  const std::string nic = feed_.hostPort(3) + ":3";
  ASSERT_TRUE(feed_.tickUntil(
      [&] {
        recordChanges(kPauseStorm);
        return derived(kPauseStorm)[nic] == "1";
      },
      kWaitTicks));
  for (int i = 0; i < 4; ++i) {
    feed_.tick();
    recordChanges(kPauseStorm);
  }
  const Events alarm = {kPauseStorm.event(nic, "1")};
  EXPECT_EQ(takeChanges(), alarm) << "the store itself (analytics, not gNMI)";
  EXPECT_EQ(untilSentinel(kPauseStorm, "101"), alarm) << transcript();

  feed_.fabric().setScenario({});
  ASSERT_TRUE(feed_.tickUntil(
      [&] {
        recordChanges(kPauseStorm);
        return flagged(kPauseStorm).empty();
      },
      kWaitTicks));
  for (int i = 0; i < 8; ++i) {
    feed_.tick();
    recordChanges(kPauseStorm);
  }
  const Events clear = {kPauseStorm.event(nic, "0")};
  EXPECT_EQ(takeChanges(), clear) << "the store itself (analytics, not gNMI)";
  EXPECT_EQ(untilSentinel(kPauseStorm, "102"), clear) << transcript();
}

}  // namespace
}  // namespace rdmagw::analytics
