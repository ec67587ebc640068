// The leaves in the fabric model: every counter a switch port shows agrees
// with the host NIC at the other end of its cable, every tick (ECN marks,
// PFC both ways, octets and packets by cast), queues are lossless on the
// RoCE class and drop a little on the lossy one, and what a leaf takes in it
// sends out, drops or still queues.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "sim/fabric.h"

namespace rdmagw::sim {
namespace {

FabricConfig shape(uint64_t seed, int hosts, int devs, int switches, int esxi, int prio = 3,
                   int internal = 4) {
  FabricConfig c;
  c.seed = seed;
  c.hosts = hosts;
  c.devices_per_host = devs;
  c.switches = switches;
  c.esxi_hosts = esxi;
  c.roce_priority = prio;
  c.internal_ports = internal;
  return c;
}

class SwitchHostTest : public ::testing::TestWithParam<FabricConfig> {};

TEST_P(SwitchHostTest, EveryCableAgreesEveryTick) {
  Fabric f(GetParam());
  const int roce = f.config().roce_priority;
  uint64_t lossy_drops = 0, ii_pauses = 0, uplink_pauses = 0, nic_pauses = 0;
  for (int t = 0; t < 100; ++t) {
    f.step();
    for (int e = 0; e < f.endpointCount(); ++e) {
      const SwitchPort& p = f.switchPortOf(e);
      const PortCounters& c = f.endpointPort(e);
      SCOPED_TRACE(f.endpointName(e) + " on " + p.name + " tick " + std::to_string(f.tick()));
      ASSERT_EQ(p.endpoint, e);
      // The marks the leaf's egress queue made are the marks the receiver saw.
      ASSERT_EQ(p.queues[roce].ecn_pkts, c.np_ecn_marked_roce_packets);
      ASSERT_EQ(p.queues[roce].ecn_bytes, c.np_ecn_marked_roce_packets * Fabric::kPacketBytes);
      // PFC the NIC sent is PFC the port received, and the other way round.
      ASSERT_EQ(p.rx_ppp[roce], c.tx_roce_prio_pause);
      ASSERT_EQ(p.rxPpp(), c.tx_pause_ctrl_phy);
      ASSERT_EQ(p.tx_ppp[roce], c.rx_roce_prio_pause);
      ASSERT_EQ(p.txPpp(), c.rx_pause_ctrl_phy);
      // Interface counters: what the host sent came in, what came out reached
      // the host or was discarded by its NIC.
      ASSERT_EQ(p.in_octets, c.tx_bytes);
      ASSERT_EQ(p.inPackets(), c.tx_packets);
      ASSERT_EQ(p.in_mcast, c.tx_multicast_packets);
      ASSERT_EQ(p.in_bcast, c.tx_broadcast_packets);
      ASSERT_EQ(p.outPackets(), c.rx_packets + c.rx_discards_phy);
      ASSERT_EQ(p.out_octets, c.rx_bytes + c.rx_discards_phy * Fabric::kTcpPacketBytes);
      ASSERT_EQ(p.out_mcast, c.rx_multicast_packets);
      ASSERT_EQ(p.out_bcast, c.rx_broadcast_packets);
      // Lossless class never drops; 802.3x stays off.
      ASSERT_EQ(p.queues[roce].drop_pkts, 0u);
      ASSERT_EQ(p.in_pause + p.out_pause, 0u);
      nic_pauses += p.rxPpp();
    }
    std::map<int, uint64_t> uplink_out, uplink_in;
    for (size_t s = 0; s < f.switches().size(); ++s) {
      const Switch& sw = f.switches()[s];
      uint64_t in = 0, out = 0, drops = 0, buffered = 0, bcast_in = 0, bcast_out = 0;
      for (const SwitchPort& p : sw.ports) {
        uint64_t queued_tx = 0, queue_drops = 0;
        for (const QueueCounters& q : p.queues) {
          queued_tx += q.uc_tx_pkts + q.mc_tx_pkts;
          queue_drops += q.drop_pkts;
        }
        if (p.kind == PortKind::kInternal) {
          // One row shows both ends of an ASIC link.
          ASSERT_EQ(p.txPpp(), p.rxPpp()) << p.name;
          ii_pauses += p.txPpp();
          continue;
        }
        ASSERT_EQ(queued_tx, p.outPackets()) << p.name;
        ASSERT_EQ(queue_drops, p.out_discard) << p.name;
        if (p.kind == PortKind::kHost) {
          lossy_drops += queue_drops;
          buffered += f.bufferedPackets(p.endpoint);
        } else {
          uplink_pauses += p.txPpp();
        }
        in += p.in_ucast + p.in_mcast;
        out += p.out_ucast + p.out_mcast;
        bcast_in += p.in_bcast;
        bcast_out += p.out_bcast;
        drops += queue_drops;
      }
      for (int u = 0; u < sw.uplinks; ++u) {
        uplink_out[u] += sw.ports[sw.uplinkIndex(u)].outPackets();
        uplink_in[u] += sw.ports[sw.uplinkIndex(u)].inPackets();
      }
      // A leaf is a closed box: in == out + dropped + still queued, except
      // that it floods each broadcast to every other host port.
      ASSERT_EQ(in, out + drops + buffered) << sw.name << " tick " << f.tick();
      ASSERT_EQ(bcast_out, bcast_in * uint64_t(sw.host_ports - 1)) << sw.name;
    }
    // The spine passes everything on: per uplink index, out of the leaves
    // equals into the leaves.
    ASSERT_EQ(uplink_out, uplink_in);
  }
  EXPECT_GT(lossy_drops, 0u) << "the lossy class never tail-dropped";
  EXPECT_GT(nic_pauses, 0u) << "no NIC ever paused its leaf";
  EXPECT_GT(ii_pauses, 0u) << "no pause ever crossed the ASICs";
  if (f.switches().size() > 1) {
    EXPECT_GT(uplink_pauses, 0u) << "no pause ever crossed the spine";
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SwitchHostTest,
                         ::testing::Values(FabricConfig{}, shape(7, 16, 4, 4, 3),
                                           shape(99, 3, 1, 1, 1, 5, 1), shape(5, 6, 2, 2, 0, 0),
                                           shape(11, 8, 2, 1, 4, 3, 16)));

TEST(SwitchTest, PortsAreNamedAndCabledInEndpointOrder) {
  FabricConfig c;  // 4 hosts x 2 devices, 2 ESXi, one leaf
  Fabric f(c);
  ASSERT_EQ(f.switches().size(), 1u);
  const Switch& sw = f.switches()[0];
  EXPECT_EQ(sw.name, "leaf01");
  EXPECT_EQ(sw.host_ports, 12);
  EXPECT_EQ(sw.uplinks, 0);
  EXPECT_EQ(f.switchPortOf(0).name, "Ethernet1/1");
  EXPECT_EQ(f.switchPortOf(0).description, "host01:mlx5_0");
  EXPECT_EQ(f.switchPortOf(7).name, "Ethernet1/8");
  EXPECT_EQ(f.switchPortOf(8).description, "esx01:vmnic0");
  EXPECT_EQ(f.switchPortOf(11).name, "Ethernet1/12");
  EXPECT_EQ(f.endpointName(11), "esx02:vmnic1");
  EXPECT_EQ(f.switchPortOf(5).asic, 0);
  EXPECT_EQ(f.switchPortOf(6).asic, 1);
  EXPECT_EQ(sw.ports[sw.internalIndex(0)].name, "ii1/1/1");
  EXPECT_EQ(sw.ports.back().name, "ii1/1/4");
  ASSERT_EQ(f.esxiHosts().size(), 2u);
  EXPECT_EQ(f.esxiHosts()[1].name, "esx02");
  EXPECT_EQ(f.esxiHosts()[1].nics[1].driver, "nmlx5_core");

  c.switches = 2;
  Fabric two(c);
  // Rail-optimised: device d of every host on leaf d % 2; uplinks after.
  EXPECT_EQ(two.attachment(0).sw, 0);
  EXPECT_EQ(two.attachment(1).sw, 1);
  EXPECT_EQ(two.switchPortOf(1).name, "Ethernet1/1");
  EXPECT_EQ(two.switches()[1].name, "leaf02");
  const Switch& l2 = two.switches()[1];
  EXPECT_EQ(l2.host_ports, 6);
  EXPECT_EQ(l2.ports[l2.uplinkIndex(0)].name, "Ethernet1/7");
  EXPECT_EQ(l2.ports[l2.uplinkIndex(1)].name, "Ethernet1/8");
}

TEST(SwitchTest, ConfigValidatesTheNewFields) {
  FabricConfig c;
  c.switches = 0;
  c.esxi_hosts = -1;
  c.internal_ports = 0;
  const Status s = c.validate();
  for (const char* key : {"sim.switches", "sim.esxi_hosts", "sim.internal_ports"}) {
    EXPECT_NE(s.message().find(key), std::string::npos) << key << " in " << s.message();
  }
  c = FabricConfig{};
  c.esxi_hosts = 0;
  EXPECT_TRUE(c.validate().isOk());
  Fabric f(c);
  EXPECT_EQ(f.endpointCount(), f.deviceCount());
}

}  // namespace
}  // namespace rdmagw::sim
