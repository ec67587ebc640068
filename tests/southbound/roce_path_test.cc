// The RoCE path derived from parsed configuration (models/roce_path.h): the
// recorded N93180FX2 (RoCE DSCP 26 -> qos-group 5 -> pause pfc-cos 5, CNP
// DSCP 48 -> qos-group 6 at priority level 2) and the recorded ConnectX-7
// host (DSCP 40 -> priority 5, PFC on 5, but TC 5 strict).

#include "models/roce_path.h"

#include <gtest/gtest.h>

#include "southbound/nxos/nxos_ipqos.h"
#include "southbound/rdma/mlnx_qos_text.h"
#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound {
namespace {

using namespace rdmagw::roce;
using testing::roceFixture;

SwitchQos zartbot() {
  SwitchQos q;
  Status s = nxos::parseNxosIpqos(roceFixture("nxos_running-config_qos_snippet__zartbot-blog.txt"), q);
  EXPECT_TRUE(s.isOk()) << s.message();
  return q;
}

TEST(RocePathTest, ZartbotSwitchRoceAndCnpPaths) {
  const SwitchQos q = zartbot();
  for (const std::string ifn : {"Ethernet1/51", ""}) {  // one port, and the device-wide view
    RocePath path = switchRocePath(q, 26, 48, ifn);
    EXPECT_EQ(path.paused_priorities, uint8_t(1u << 5)) << ifn;
    ASSERT_TRUE(path.roce) << ifn;
    const RoceHop& r = *path.roce;
    EXPECT_EQ(r.classified_by, "RoCEv2-DATA");
    EXPECT_EQ(r.qos_group, 5u);
    EXPECT_EQ(r.priority, 5u);
    EXPECT_TRUE(r.lossless);
    EXPECT_EQ(r.mtu, 2240u);
    EXPECT_EQ(r.egress_queue, "c-out-8q-q5");
    EXPECT_EQ(r.bandwidth_percent, 70u);
    EXPECT_EQ(r.tsa, Tsa::kEts);
    EXPECT_FALSE(r.priority_level);
    ASSERT_TRUE(r.wred);
    EXPECT_TRUE(r.wred->ecn);
    EXPECT_EQ(r.wred->min_threshold, 400u);
    EXPECT_EQ(r.wred->max_threshold, 800u);
    ASSERT_TRUE(r.ingress_pause);
    EXPECT_EQ(r.ingress_pause->pause_threshold, 114688u);

    ASSERT_TRUE(path.cnp);
    const RoceHop& c = *path.cnp;
    EXPECT_EQ(c.classified_by, "RoCEv2-CNP");
    EXPECT_EQ(c.qos_group, 6u);
    EXPECT_FALSE(c.lossless);  // no network-qos class pauses group 6
    EXPECT_FALSE(c.priority);
    EXPECT_EQ(c.egress_queue, "c-out-8q-q6");
    EXPECT_EQ(c.priority_level, 2u);
    EXPECT_EQ(c.tsa, Tsa::kStrict);
    EXPECT_FALSE(c.wred);
  }
  EXPECT_EQ(switchLosslessDscps(q), std::vector<uint32_t>{26});
  // Any other DSCP is unclassified: qos-group 0, the default queue.
  RoceHop other = switchHop(q, 0, "Ethernet1/52");
  EXPECT_EQ(other.classified_by, "class-default");
  EXPECT_EQ(other.qos_group, 0u);
  EXPECT_FALSE(other.lossless);
  EXPECT_EQ(other.egress_queue, "c-out-8q-q-default");
}

TEST(RocePathTest, APortWithoutPoliciesDoesNotBorrowItsNeighbours) {
  const SwitchQos q = zartbot();
  RoceHop bare = switchHop(q, 26, "Ethernet1/1");  // in no `interface` block
  EXPECT_EQ(bare.classified_by, "class-default");
  EXPECT_EQ(bare.qos_group, 0u);
  EXPECT_FALSE(bare.lossless);
  EXPECT_TRUE(bare.egress_queue.empty());
  EXPECT_FALSE(bare.ingress_pause);
}

TEST(RocePathTest, PfcModeOffOnAPortPausesNothingThere) {
  SwitchQos q = zartbot();
  q.interfaces.at("Ethernet1/53").pfc_mode = "off";
  EXPECT_EQ(switchPausedPriorities(q, "Ethernet1/53"), 0u);
  EXPECT_FALSE(switchHop(q, 26, "Ethernet1/53").lossless);
  EXPECT_TRUE(switchHop(q, 26, "Ethernet1/54").lossless);
}

TEST(RocePathTest, NoNetworkQosPolicyMeansNothingIsPaused) {
  SwitchQos q = zartbot();
  q.system.network_qos.reset();
  EXPECT_EQ(switchPausedPriorities(q), 0u);
  RoceHop r = switchHop(q, 26, "Ethernet1/51");
  EXPECT_EQ(r.qos_group, 5u);
  EXPECT_FALSE(r.lossless);
  EXPECT_FALSE(r.mtu);
  EXPECT_TRUE(switchLosslessDscps(q).empty());
}

TEST(RocePathTest, Feishu3fsHostRoceAndCnpPaths) {
  DeviceRoceConfig host;
  HostPort& port = host.port("ens4np0");
  ASSERT_TRUE(rdma::parseMlnxQos(roceFixture("linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt"), port).isOk());
  // The write-up's RoCE traffic class 160 (DSCP 40) and CNP DSCP 48, as
  // configfs and the ECN knobs would hold them.
  host.rdma_cm.push_back(RdmaCmPort{"mlx5_0", 1, 160, "RoCE v2"});
  port.dcqcn.cnp_dscp = 48;
  port.dcqcn.np_enabled = 0xff;
  port.dcqcn.rp_enabled = 0xff;

  RocePath path = hostRocePath(host, "ens4np0");
  EXPECT_EQ(path.paused_priorities, uint8_t(1u << 5));
  ASSERT_TRUE(path.roce);
  const RoceHop& r = *path.roce;
  EXPECT_EQ(r.dscp, 40u);
  EXPECT_EQ(r.priority, 5u);
  EXPECT_TRUE(r.lossless);
  EXPECT_EQ(r.traffic_class, 5u);
  EXPECT_EQ(r.tsa, Tsa::kStrict);  // RoCE in a strict TC: what the ETS check must flag
  EXPECT_FALSE(r.bandwidth_percent);
  EXPECT_EQ(r.receive_buffer_bytes, 220896u);
  EXPECT_EQ(r.dcqcn_np, true);
  EXPECT_EQ(r.dcqcn_rp, true);
  ASSERT_TRUE(path.cnp);
  EXPECT_EQ(path.cnp->dscp, 48u);
  EXPECT_EQ(path.cnp->priority, 6u);
  EXPECT_FALSE(path.cnp->lossless);
  EXPECT_EQ(path.cnp->tsa, Tsa::kStrict);
  EXPECT_EQ(path.cnp->receive_buffer_bytes, 19872u);

  // cnp_802p_prio tags the CNPs whatever the DSCP map says.
  host.ports.at("ens4np0").dcqcn.cnp_802p_prio = 7;
  EXPECT_EQ(hostRocePath(host, "ens4np0").cnp->priority, 7u);
}

TEST(RocePathTest, PcpTrustSaysNothingAboutADscp) {
  HostPort port;
  ASSERT_TRUE(rdma::parseMlnxQos(roceFixture("linux_mlnx_qos_-i_ens2f0_--pfc__zartbot-blog.txt"), port).isOk());
  RoceHop hop = hostHop(port, 26);
  EXPECT_FALSE(hop.priority);
  EXPECT_FALSE(hop.lossless);
  EXPECT_FALSE(hop.traffic_class);
  // A DSCP map left from an earlier DSCP trust does not classify under PCP trust.
  HostPort was_dscp;
  ASSERT_TRUE(rdma::parseMlnxQos(roceFixture("linux_mlnx_qos_-i_ens4np0__feishu-3fs-troubleshooting.txt"), was_dscp).isOk());
  ASSERT_EQ(hostHop(was_dscp, 40).priority, 5u);
  was_dscp.trust = Trust::kPcp;
  EXPECT_FALSE(hostHop(was_dscp, 40).priority);
  DeviceRoceConfig none;
  EXPECT_FALSE(hostRocePath(none, "ens2f0").roce);
}

TEST(RocePathTest, SystemClassNames) {
  EXPECT_EQ(nxosClassQosGroup("c-8q-nq5"), 5u);
  EXPECT_EQ(nxosClassQosGroup("c-nq3"), 3u);
  EXPECT_EQ(nxosClassQosGroup("c-out-8q-q-default"), 0u);
  EXPECT_EQ(nxosClassQosGroup("c-in-q5"), 5u);
  EXPECT_EQ(nxosClassQosGroup("c-out-q7"), 7u);
  EXPECT_FALSE(nxosClassQosGroup("c-out-8q-q8"));
  EXPECT_FALSE(nxosClassQosGroup("RoCEv2-DATA"));
  EXPECT_FALSE(nxosClassQosGroup("c-8q-nq"));
}

}  // namespace
}  // namespace rdmagw::southbound
