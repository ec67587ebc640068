// The fabric model: determinism (pinned counters), conservation laws, DCQCN
// and PFC behaviour, 32-bit wrap, naming.

#include "sim/fabric.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "sim/cli_catalog.h"
#include "sim/naming.h"
#include "sim/tree_writer.h"

namespace rdmagw::sim {
namespace {

constexpr int kRoce = 3;

Fabric run(FabricConfig config, int ticks) {
  Fabric f(config);
  for (int t = 0; t < ticks; ++t) f.step();
  return f;
}

// FNV-1a over every counter the writer exposes (ethtool text plus sysfs
// fields of every endpoint, and the leaves' CLI outputs), so a change
// anywhere in the model shows up as one number.
uint64_t fingerprint(const Fabric& f) {
  uint64_t h = 1469598103934665603ULL;
  auto eat = [&h](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  };
  for (const Switch& sw : f.switches()) {
    for (const RenderedCommand& c : renderSwitch(f, sw)) eat(c.output);
  }
  for (int g = 0; g < f.endpointCount(); ++g) {
    Device d;
    if (g < f.deviceCount()) d = f.device(g);
    d.port = f.endpointPort(g);
    const PortCounters& p = d.port;
    eat(d.node_guid);
    eat(ethtoolText(d, f.config().roce_priority));
    for (uint64_t v : {p.port_xmit_data, p.port_rcv_data, p.port_xmit_packets, p.port_rcv_packets,
                       p.port_xmit_wait, p.np_ecn_marked_roce_packets, p.np_cnp_sent,
                       p.rp_cnp_handled, p.rp_cnp_ignored, p.out_of_buffer, p.rx_write_requests,
                       p.rx_read_requests, p.rx_atomic_requests}) {
      eat(std::to_string(v) + ",");
    }
  }
  return h;
}

TEST(FabricTest, PinnedCountersForSeedOneAfterFortyTicks) {
  // Computed once from this model and pinned: any change to the arithmetic,
  // the PRNG or the evaluation order fails here, on every machine alike.
  // Re-pinned when the leaves and ESXi vmnics joined the model (the traffic
  // pattern now spans 12 endpoints and congestion moved into the leaf).
  const Fabric f = run(FabricConfig{}, 40);
  ASSERT_EQ(f.tick(), 40);
  ASSERT_EQ(f.endpointCount(), 12);
  const PortCounters& d0 = f.device(0).port;
  const PortCounters& d1 = f.device(1).port;
  const PortCounters& d7 = f.device(7).port;
  const PortCounters& v0 = f.endpointPort(8);  // esx01:vmnic0
  EXPECT_EQ(d0.port_xmit_data, 67207674560u);
  EXPECT_EQ(d0.port_rcv_data, 63033835280u);
  EXPECT_EQ(d0.rx_write_requests, 2288077u);
  EXPECT_EQ(d1.np_ecn_marked_roce_packets, 2580704u);
  EXPECT_EQ(d1.np_cnp_sent, 161256u);
  EXPECT_EQ(d1.tx_roce_prio_pause, 418u);
  EXPECT_EQ(d7.rp_cnp_handled, 61424u);
  EXPECT_EQ(d7.rx_roce_prio_pause, 52124u);
  EXPECT_EQ(d7.rx_roce_prio_pause_duration, 8706645u);
  EXPECT_EQ(d7.tx_bytes, 232381861468u);
  EXPECT_EQ(v0.rx_packets, 62231881u);
  EXPECT_EQ(v0.np_ecn_marked_roce_packets, 2474403u);
  EXPECT_EQ(f.switchPortOf(4).rxPpp(), 14368u);
  EXPECT_EQ(f.switchPortOf(0).txPpp(), 65236u);
  EXPECT_EQ(f.totals().ecn_marks, 13177537u);
  EXPECT_EQ(f.totals().cnps, 823416u);
  EXPECT_EQ(f.totals().pause_frames, 574999u);
  EXPECT_EQ(f.totals().nic_pause_frames, 18015u);
  EXPECT_EQ(f.device(3).node_guid, "248a:0703:e5cb:31c9");
  // Re-pinned when the leaves began to answer `show interface counters errors`,
  // and again for `show lldp neighbors detail [| json]` (without those two
  // outputs the fingerprint was still 3253526168457658176: no counter moved)
  // and for `show policy-map system type network-qos`, and for `show
  // class-map type qos` (each time the counters pinned above did not move),
  // and when the ii ports began to count the traffic crossing the ASICs and
  // to appear in `show interface` (the endpoints' counters did not move),
  // and for `show running-config ipqos` and `show queuing pfc-queue detail`
  // (the counters pinned above did not move), and when the leaves gave the
  // RoCE queue the hosts' 60 % (rendered text only).
  EXPECT_EQ(fingerprint(f), 17371494652293584351u);
}

TEST(FabricTest, SameSeedAgreesBitForBit) {
  FabricConfig c;
  c.seed = 42;
  c.hosts = 6;
  c.devices_per_host = 3;
  Fabric a(c), b(c);
  for (int t = 0; t < 60; ++t) {
    a.step();
    b.step();
    for (int g = 0; g < a.endpointCount(); ++g) {
      ASSERT_EQ(a.endpointPort(g), b.endpointPort(g)) << "tick " << a.tick() << " endpoint " << g;
    }
    ASSERT_EQ(a.switches()[0].ports, b.switches()[0].ports) << "tick " << a.tick();
  }
  EXPECT_EQ(fingerprint(a), fingerprint(b));
}

TEST(FabricTest, DifferentSeedsDiffer) {
  FabricConfig c1, c2;
  c2.seed = 2;
  const Fabric a = run(c1, 20), b = run(c2, 20);
  EXPECT_NE(fingerprint(a), fingerprint(b));
  EXPECT_NE(a.device(0).node_guid, b.device(0).node_guid);
}

struct Sums {
  uint64_t ecn = 0, cnp_sent = 0, cnp_handled = 0, cnp_ignored = 0;
  uint64_t tx_pause = 0, rx_pause = 0, tx_ctrl = 0, rx_ctrl = 0;
  uint64_t tx_pkts = 0, rx_pkts = 0, buffered = 0;
};

Sums sum(const Fabric& f) {
  Sums s;
  for (int g = 0; g < f.endpointCount(); ++g) {
    const PortCounters& p = f.endpointPort(g);
    s.ecn += p.np_ecn_marked_roce_packets;
    s.cnp_sent += p.np_cnp_sent;
    s.cnp_handled += p.rp_cnp_handled;
    s.cnp_ignored += p.rp_cnp_ignored;
    s.tx_pause += p.tx_roce_prio_pause;
    s.rx_pause += p.rx_roce_prio_pause;
    s.tx_ctrl += p.tx_pause_ctrl_phy;
    s.rx_ctrl += p.rx_pause_ctrl_phy;
    s.tx_pkts += p.port_xmit_packets;
    s.rx_pkts += p.port_rcv_packets;
    s.buffered += f.bufferedPackets(g);
  }
  return s;
}

class ConservationTest : public ::testing::TestWithParam<FabricConfig> {};

TEST_P(ConservationTest, HoldsEveryTick) {
  Fabric f(GetParam());
  const int n = f.endpointCount();
  uint64_t pauses_seen = 0;
  for (int t = 0; t < 120; ++t) {
    std::vector<PortCounters> before;
    for (int g = 0; g < n; ++g) before.push_back(f.endpointPort(g));
    f.step();
    const Sums s = sum(f);
    // ECN marks seen by receivers == marks the model made.
    ASSERT_EQ(s.ecn, f.totals().ecn_marks) << "tick " << f.tick();
    // CNPs sent by receivers == CNPs senders handled or ignored.
    ASSERT_EQ(s.cnp_sent, f.totals().cnps);
    ASSERT_EQ(s.cnp_sent, s.cnp_handled + s.cnp_ignored);
    // Pause frames: the leaf sent what sender NICs received; receiver NICs
    // sent what the model made; all are on the RoCE priority.
    ASSERT_EQ(s.rx_pause, f.totals().pause_frames);
    ASSERT_EQ(s.tx_pause, f.totals().nic_pause_frames);
    ASSERT_EQ(s.tx_ctrl, s.tx_pause);
    ASSERT_EQ(s.rx_ctrl, s.rx_pause);
    // Lossless: every RoCE packet sent was received or still sits in a queue.
    ASSERT_EQ(s.tx_pkts, s.rx_pkts + s.buffered);

    // Per sender, this tick's pause deltas match the events.
    std::map<int, uint64_t> got_by;
    for (const PauseEvent& e : f.lastTick().pauses) {
      got_by[e.sender] += e.frames;
      ++pauses_seen;
    }
    std::map<int, uint64_t> cnp_by, cnp_to;
    for (const CnpEvent& e : f.lastTick().cnps) {
      cnp_by[e.receiver] += e.cnps;
      cnp_to[e.sender] += e.cnps;
    }
    for (int g = 0; g < n; ++g) {
      const PortCounters& now = f.endpointPort(g);
      ASSERT_EQ(now.rx_roce_prio_pause - before[g].rx_roce_prio_pause, got_by[g]);
      ASSERT_EQ(now.np_cnp_sent - before[g].np_cnp_sent, cnp_by[g]);
      ASSERT_EQ(now.rp_cnp_handled + now.rp_cnp_ignored - before[g].rp_cnp_handled -
                    before[g].rp_cnp_ignored,
                cnp_to[g]);
      // port_xmit_data counts 4-octet words of the RoCE priority's bytes.
      ASSERT_EQ(now.port_xmit_data * 4, now.tx_prio_bytes[GetParam().roce_priority]);
      ASSERT_EQ(now.port_rcv_data * 4, now.rx_prio_bytes[GetParam().roce_priority]);
    }
  }
  if (n > 2) {
    EXPECT_GT(pauses_seen, 0u) << "the configuration never congested";
  }
}

FabricConfig cfg(uint64_t seed, int hosts, int devs, int prio = kRoce, double gbps = 100) {
  FabricConfig c;
  c.seed = seed;
  c.hosts = hosts;
  c.devices_per_host = devs;
  c.roce_priority = prio;
  c.link_gbps = gbps;
  return c;
}

INSTANTIATE_TEST_SUITE_P(Shapes, ConservationTest,
                         ::testing::Values(FabricConfig{}, cfg(7, 16, 4), cfg(99, 3, 1, 5, 25),
                                           cfg(5, 100, 2, 0, 400), cfg(3, 1, 1), cfg(11, 1, 2)));

TEST(FabricTest, CongestedReceiversMarkAndTheirSendersSlowAndPause) {
  Fabric f(FabricConfig{});
  int congested_ticks = 0;
  for (int t = 0; t < 40; ++t) {
    std::vector<PortCounters> before;
    for (int g = 0; g < f.endpointCount(); ++g) before.push_back(f.endpointPort(g));
    f.step();
    const TickReport& r = f.lastTick();
    if (!r.congested.empty()) ++congested_ticks;
    for (int dst : r.congested) {
      const PortCounters& now = f.endpointPort(dst);
      EXPECT_GT(now.np_ecn_marked_roce_packets, before[dst].np_ecn_marked_roce_packets);
      EXPECT_GT(now.np_cnp_sent, before[dst].np_cnp_sent);
    }
    for (const CnpEvent& e : r.cnps) {
      EXPECT_GE(e.cnps, 1u);
      const PortCounters& s = f.endpointPort(e.sender);
      if (e.handled) {
        EXPECT_GT(s.rp_cnp_handled, before[e.sender].rp_cnp_handled);
      } else {
        EXPECT_GT(s.rp_cnp_ignored, before[e.sender].rp_cnp_ignored);
      }
    }
    for (const PauseEvent& e : r.pauses) {
      const PortCounters& s = f.endpointPort(e.sender);
      EXPECT_GT(s.rx_roce_prio_pause, before[e.sender].rx_roce_prio_pause);
      EXPECT_GT(s.rx_roce_prio_pause_duration, before[e.sender].rx_roce_prio_pause_duration);
      EXPECT_GT(s.rx_roce_prio_pause_transition, before[e.sender].rx_roce_prio_pause_transition);
    }
  }
  EXPECT_GE(congested_ticks, 20);
}

TEST(FabricTest, HotSpotsRotate) {
  Fabric f(FabricConfig{});
  std::set<int> hot;
  for (int t = 0; t < 64; ++t) {
    f.step();
    for (int r : f.lastTick().congested) hot.insert(r);
  }
  EXPECT_GE(hot.size(), 3u);
}

TEST(FabricTest, PauseHoldsBackEveryFlowOfThePausedSender) {
  // PFC pauses the whole priority, not one flow: a sender paused for x us in
  // tick t sends at most (1 - x/1e6) of its link in tick t+1, to every peer,
  // congested or not. This is how pauses ripple upstream.
  const uint64_t cap_pkts = 12'500'000'000ULL / Fabric::kPacketBytes;  // 100 Gb/s
  Fabric f(FabricConfig{});
  int checked = 0;
  for (int t = 0; t < 60; ++t) {
    f.step();
    std::map<int, uint64_t> paused_us;
    for (const PauseEvent& e : f.lastTick().pauses) {
      paused_us[e.sender] = std::max(paused_us[e.sender], e.duration_us);
    }
    std::map<int, uint64_t> before;
    for (const auto& [s, us] : paused_us) before[s] = f.endpointPort(s).port_xmit_packets;
    f.step();
    for (const auto& [s, us] : paused_us) {
      const uint64_t sent = f.endpointPort(s).port_xmit_packets - before[s];
      EXPECT_LE(sent, cap_pkts - cap_pkts * us / 1'000'000 + 1) << "sender " << s;
      EXPECT_GT(f.endpointPort(s).port_xmit_wait, 0u);
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

TEST(FabricTest, ThirtyTwoBitCounterWrapsEarly) {
  Fabric f(FabricConfig{});
  uint64_t prev = f.device(0).port.rx_write_requests;
  EXPECT_GT(prev, 0xffffffffULL - 2'000'000);
  int wrapped_at = -1;
  for (int t = 0; t < 60; ++t) {
    f.step();
    for (int g = 0; g < f.endpointCount(); ++g) {
      ASSERT_LE(f.endpointPort(g).rx_write_requests, 0xffffffffULL);
      ASSERT_LE(f.endpointPort(g).out_of_buffer, 0xffffffffULL);
    }
    const uint64_t now = f.device(0).port.rx_write_requests;
    if (now < prev && wrapped_at < 0) wrapped_at = f.tick();
    prev = now;
  }
  EXPECT_GT(wrapped_at, 0);
  EXPECT_LE(wrapped_at, 40);
}

TEST(FabricTest, DevicesAreNamedLikeTheKernelNamesThem) {
  FabricConfig c;
  c.hosts = 12;
  c.devices_per_host = 3;
  Fabric f(c);
  ASSERT_EQ(f.hosts().size(), 12u);
  EXPECT_EQ(f.hosts()[0].name, "host01");
  EXPECT_EQ(f.hosts()[11].name, "host12");
  const Device& d = f.hosts()[1].devices[2];
  EXPECT_EQ(d.name, "mlx5_2");
  EXPECT_EQ(d.netdev, "ens1f2np2");
  EXPECT_EQ(d.hca_type, "MT4125");
  EXPECT_EQ(d.node_guid.size(), 19u);
  EXPECT_EQ(d.node_guid.substr(0, 10), "248a:0703:");
  EXPECT_EQ(f.rate(), "100 Gb/sec (4X EDR)");
  EXPECT_STREQ(f.portState(), "4: ACTIVE");
  EXPECT_STREQ(f.physState(), "5: LinkUp");
  EXPECT_STREQ(f.linkLayer(), "Ethernet");
}

TEST(NamingTest, HostNamesPadToTheCount) {
  EXPECT_EQ(hostName(0, 1), "host01");
  EXPECT_EQ(hostName(8, 99), "host09");
  EXPECT_EQ(hostName(0, 100), "host001");
  EXPECT_EQ(hostName(99, 100), "host100");
  EXPECT_EQ(hostName(4095, 4096), "host4096");
  EXPECT_EQ(hostName(6, 4096), "host0007");
}

TEST(NamingTest, RateStringsMatchTheKernel) {
  EXPECT_EQ(rateString(100), "100 Gb/sec (4X EDR)");
  EXPECT_EQ(rateString(200), "200 Gb/sec (4X HDR)");
  EXPECT_EQ(rateString(400), "400 Gb/sec (4X NDR)");
  EXPECT_EQ(rateString(25), "25 Gb/sec (1X EDR)");
  EXPECT_EQ(rateString(56), "56 Gb/sec (4X FDR)");
  EXPECT_EQ(rateString(2.5), "2.5 Gb/sec (1X SDR)");
  EXPECT_EQ(rateString(3), "3 Gb/sec (4X)");
  EXPECT_EQ(guidString(0x248a070300b4a0c2ULL), "248a:0703:00b4:a0c2");
}

TEST(FabricConfigTest, ValidateRejectsOutOfRangeAndNamesEveryField) {
  EXPECT_TRUE(FabricConfig{}.validate().isOk());
  FabricConfig c;
  c.hosts = 0;
  c.devices_per_host = 17;
  c.roce_priority = 8;
  c.link_gbps = 0;
  const Status s = c.validate();
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* key : {"sim.hosts", "sim.devices_per_host", "sim.roce_priority", "sim.link_gbps"}) {
    EXPECT_NE(s.message().find(key), std::string::npos) << key << " in " << s.message();
  }
  c = FabricConfig{};
  c.hosts = 4096;
  c.devices_per_host = 16;
  c.roce_priority = 0;
  EXPECT_TRUE(c.validate().isOk());
  c.hosts = 4097;
  EXPECT_FALSE(c.validate().isOk());
}

TEST(FabricTest, LargestFabricSteps) {
  FabricConfig c;
  c.hosts = 4096;
  c.devices_per_host = 16;
  Fabric f(c);
  f.step();
  f.step();
  EXPECT_EQ(f.deviceCount(), 65536);
  EXPECT_EQ(f.endpointCount(), 65536 + 4);
  EXPECT_EQ(f.hosts().back().name, "host4096");
  const Sums s = sum(f);
  EXPECT_EQ(s.tx_pkts, s.rx_pkts + s.buffered);
  EXPECT_EQ(s.rx_pause, f.totals().pause_frames);
}

}  // namespace
}  // namespace rdmagw::sim
