// A fabric of simulated gNMI switches (sim/gnmi) restarts at one moment:
// the gateway's sources must bring every switch back, never run more
// handshakes at once than the cap, and not hammer a switch that is still
// starting. The switches count what they saw; no clock is asserted.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "sim/fabric.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "southbound/gnmi/fallback_source.h"
#include "southbound/handshake_gate.h"
#include "tests/southbound/gnmi/test_util.h"

namespace rdmagw::southbound::gnmi {
namespace {

using rdmagw::testing::waitFor;
using std::chrono::milliseconds;

constexpr int kSwitches = 60;
constexpr size_t kCap = 4;
constexpr milliseconds kBackoffInitial{100};
constexpr milliseconds kStarting{1500};  // the switches refuse RPCs this long after coming back

struct Storm {
  explicit Storm(int switches = kSwitches) : fabric([switches] {
      sim::FabricConfig c;
      c.switches = switches;
      c.hosts = 2;
      c.esxi_hosts = 0;
      return c;
    }()) {
    sim::GnmiTargetOptions o;
    o.min_sample_interval = milliseconds(100);
    // A handshake takes a while on the switch (AAA per RPC): handshakes
    // started together overlap, so an uncapped client shows up at once.
    o.capabilities_delay = milliseconds(50);
    fleet = std::make_unique<sim::GnmiFleet>(fabric.switches(), o);
  }
  ~Storm() {
    for (auto& s : sources) s->stop();
    sources.clear();
    fleet.reset();
  }

  void startGateway(HandshakeGate* gate) {
    for (size_t i = 0; i < fleet->size(); ++i) {
      GnmiConfig c = rdmagw::testing::fastConfig(fleet->target(i).address());
      // Streams only need to come up: a slow sample keeps sixty switches
      // and sources from saturating a loaded machine between the restarts
      // (at 500 ms, on half a core under ASan, the first syncs took minutes).
      c.sample_interval = std::chrono::seconds(5);
      c.backoff_initial = kBackoffInitial;
      c.backoff_max = milliseconds(1000);
      // The switches restart together (an error on every stream at once),
      // so the idle check plays no part here; at 10 s, sixty in-process
      // targets under ASan on a loaded machine were sometimes silent that
      // long, and a stalled stream counted as a missed reconnect.
      c.idle_timeout = std::chrono::seconds(60);
      FallbackOptions o;
      o.target = fleet->target(i).switchName();
      o.config = std::move(c);
      o.handshake_gate = gate;
      sources.push_back(std::make_unique<FallbackSource>(store, std::move(o)));
      ASSERT_TRUE(sources.back()->start().isOk());
    }
  }
  // Every source has a stream that delivered data since its dial number `after[i]`.
  bool allUpAfter(const std::vector<uint64_t>& after) {
    for (size_t i = 0; i < sources.size(); ++i) {
      const GnmiSourceStats s = sources[i]->stats();
      if (!s.up || s.dials <= after[i]) return false;
    }
    return true;
  }
  std::string down() {
    std::string out;
    for (const TargetStatus& t : store.targets()) {
      if (!t.health.up) out += t.name + ": " + t.health.last_error + "\n";
    }
    return out;
  }

  sim::Fabric fabric;
  std::unique_ptr<sim::GnmiFleet> fleet;
  Store store;
  std::vector<std::unique_ptr<FallbackSource>> sources;
};

TEST(GnmiReconnectStormTest, RestartedFabricComesBackUnderTheHandshakeCap) {
  HandshakeGate gate(kCap);  // before the storm: its sources use the gate until they stop
  Storm storm;
  ASSERT_TRUE(storm.fleet->start().isOk());
  storm.fleet->publish(storm.fabric, nowNs());
  storm.startGateway(&gate);
  const std::vector<uint64_t> none(kSwitches, 0);
  ASSERT_TRUE(waitFor([&] { return storm.allUpAfter(none); })) << storm.down();
  // The first dials were capped too.
  EXPECT_LE(storm.fleet->handshakeMeter().peak(), kCap);

  std::vector<uint64_t> dials_before, subscribes_before, caps_before;
  for (int i = 0; i < kSwitches; ++i) {
    dials_before.push_back(storm.sources[i]->stats().dials);
    const sim::ConnectionCounts c = storm.fleet->target(i).connectionCounts();
    subscribes_before.push_back(c.subscribes);
    caps_before.push_back(c.capabilities);
  }
  storm.fleet->handshakeMeter().resetPeak();

  // Every switch reboots at once: down, then up but refusing while it starts.
  ASSERT_TRUE(storm.fleet->restart(milliseconds(300), kStarting).isOk());
  storm.fleet->publish(storm.fabric, nowNs());
  ASSERT_TRUE(waitFor([&] { return storm.allUpAfter(dials_before); })) << storm.down();

  // Never more handshakes at once than the cap, as the switches saw them...
  const size_t seen_peak = storm.fleet->handshakeMeter().peak();
  EXPECT_LE(seen_peak, kCap);
  EXPECT_GE(seen_peak, 2u) << "the storm never overlapped two handshakes: the cap was not exercised";
  EXPECT_LE(gate.peak(), kCap);

  // ...and no switch hammered while it was starting: a source waits at least
  // backoff_initial between attempts, so a switch refusing for kStarting
  // sees at most kStarting / backoff_initial + 1 of them.
  const uint64_t bound = uint64_t(kStarting / kBackoffInitial) + 1;
  uint64_t total_refused = 0;
  for (int i = 0; i < kSwitches; ++i) {
    const sim::ConnectionCounts c = storm.fleet->target(i).connectionCounts();
    total_refused += c.refused_starting;
    EXPECT_LE(c.refused_starting, bound) << storm.fleet->target(i).switchName();
    EXPECT_LE(c.capabilities - caps_before[i], bound + 1) << storm.fleet->target(i).switchName();
    EXPECT_GE(c.subscribes, subscribes_before[i] + 1) << storm.fleet->target(i).switchName();
  }
  // The switches did refuse while starting: the scenario tested the backoff.
  EXPECT_GE(total_refused, uint64_t(kSwitches));
}

// Few switches, a cap that never binds: only the backoff keeps a source from
// retrying a starting switch in a tight loop.
TEST(GnmiReconnectStormTest, AStartingSwitchIsNotHammered) {
  constexpr int kFew = 6;
  HandshakeGate gate(64);
  Storm storm(kFew);
  ASSERT_TRUE(storm.fleet->start().isOk());
  storm.fleet->publish(storm.fabric, nowNs());
  storm.startGateway(&gate);
  ASSERT_TRUE(waitFor([&] { return storm.allUpAfter(std::vector<uint64_t>(kFew, 0)); })) << storm.down();
  std::vector<uint64_t> dials_before;
  for (auto& s : storm.sources) dials_before.push_back(s->stats().dials);

  ASSERT_TRUE(storm.fleet->restart(milliseconds(100), kStarting).isOk());
  storm.fleet->publish(storm.fabric, nowNs());
  ASSERT_TRUE(waitFor([&] { return storm.allUpAfter(dials_before); })) << storm.down();

  const uint64_t bound = uint64_t(kStarting / kBackoffInitial) + 1;
  for (int i = 0; i < kFew; ++i) {
    const sim::ConnectionCounts c = storm.fleet->target(i).connectionCounts();
    EXPECT_GE(c.refused_starting, 1u) << storm.fleet->target(i).switchName();
    EXPECT_LE(c.refused_starting, bound) << storm.fleet->target(i).switchName();
  }
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
