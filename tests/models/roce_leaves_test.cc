// The RoCE configuration writer: struct fields -> exactly these leaves, an
// unknown field -> no leaf, WRED thresholds in bytes.
#include "models/roce_leaves.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "models/store.h"
#include "tests/support/n93180_roce_leaves.h"

namespace rdmagw::roce {
namespace {

constexpr TimestampNs kTs = 42;

// Every update as path -> "123" or "'text'"; a path written twice fails.
testing::LeafTable leaves(const PollBatch& b) {
  for (const Update& u : b.updates) EXPECT_EQ(u.timestamp_ns, kTs) << u.path;
  return testing::leafTable(b);
}

// The store takes every leaf: a schema row, the right keys, the right kind.
void expectSchemaRows(const PollBatch& b) {
  Store store;
  const Store::ApplyResult r = store.apply("t", b.updates);
  EXPECT_EQ(r.rejected, 0u) << r.first_error;
  EXPECT_EQ(r.applied, b.updates.size());
}

TEST(RoceLeavesTest, HostPortFieldsBecomeExactlyTheirLeaves) {
  HostPort port;
  port.name = "ens1f0np0";
  port.trust = Trust::kDscp;
  port.pfc_enabled = 0x20;
  port.dcqcn.np_enabled = 0x20;
  port.dcqcn.rp_enabled = 0x28;
  port.dcqcn.cnp_dscp = 48;
  port.dcqcn.cnp_802p_prio = 6;
  port.dscp_priority = {{26, 3}, {40, 5}};
  port.priority_tc[5] = 5;
  port.priority_tc[0] = 0;
  port.tc[5] = {Tsa::kEts, 60};
  port.tc[7] = {Tsa::kStrict, std::nullopt};
  port.priority_buffer[5] = 1;
  port.buffer_bytes[1] = 262144;
  port.priority_buffer[0] = 0;  // buffer 0's size unknown: no leaf
  port.dcbx_mode = "IEEE";      // not a leaf of the contract
  PollBatch b;
  appendHostPortLeaves(port, kTs, b);
  const std::string e = "/interfaces/interface[name=ens1f0np0]/ethernet";
  const std::map<std::string, std::string> want = {
      {e + "/dcb/state/trust", "'dscp'"},
      {e + "/pfc/state/enabled-priorities", "32"},
      {e + "/dcqcn/state/np-enabled-priorities", "32"},
      {e + "/dcqcn/state/rp-enabled-priorities", "40"},
      {e + "/dcqcn/state/cnp-dscp", "48"},
      {e + "/dcqcn/state/cnp-802p-priority", "6"},
      {e + "/dcb/dscp-priorities/dscp-priority[dscp=26]/state/priority", "3"},
      {e + "/dcb/dscp-priorities/dscp-priority[dscp=40]/state/priority", "5"},
      {e + "/dcb/priorities/priority[id=0]/state/traffic-class", "0"},
      {e + "/dcb/priorities/priority[id=5]/state/traffic-class", "5"},
      {e + "/dcb/priorities/priority[id=5]/state/receive-buffer-bytes", "262144"},
      {e + "/dcb/traffic-classes/traffic-class[id=5]/state/tsa", "'ets'"},
      {e + "/dcb/traffic-classes/traffic-class[id=5]/state/bandwidth-percent", "60"},
      {e + "/dcb/traffic-classes/traffic-class[id=7]/state/tsa", "'strict'"},
  };
  EXPECT_EQ(leaves(b), want);
  expectSchemaRows(b);
}

TEST(RoceLeavesTest, UnknownIsAbsentNeverADefault) {
  HostPort port;
  port.name = "eth0";
  PollBatch b;
  appendHostPortLeaves(port, kTs, b);
  appendRdmaCmLeaves({RdmaCmPort{"mlx5_0", 1, std::nullopt, std::nullopt}}, kTs, b);
  appendSwitchQosLeaves(SwitchQos{}, kTs, b);
  EXPECT_EQ(leaves(b), (std::map<std::string, std::string>{}));
}

TEST(RoceLeavesTest, RdmaCmDefaultsPerPort) {
  PollBatch b;
  appendRdmaCmLeaves({RdmaCmPort{"mlx5_0", 1, 106, "RoCE v2"}, RdmaCmPort{"mlx5_1", 2, std::nullopt, "IB/RoCE v1"}},
                     kTs, b);
  const std::map<std::string, std::string> want = {
      {"/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/default-roce-tos", "106"},
      {"/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/default-roce-mode", "'RoCE v2'"},
      {"/rdma/devices/device[name=mlx5_1]/ports/port[port-num=2]/state/default-roce-mode", "'IB/RoCE v1'"},
  };
  EXPECT_EQ(leaves(b), want);
  expectSchemaRows(b);
}

TEST(RoceLeavesTest, WredThresholdsInBytes) {
  EXPECT_EQ(wredThresholdBytes(400, "kbytes"), 409600u);
  EXPECT_EQ(wredThresholdBytes(2, "mbytes"), 2097152u);
  EXPECT_EQ(wredThresholdBytes(150000, "bytes"), 150000u);
  EXPECT_EQ(wredThresholdBytes(100, "packets"), std::nullopt);
  EXPECT_EQ(wredThresholdBytes(100, ""), std::nullopt);
  EXPECT_EQ(wredThresholdBytes(UINT64_MAX / 2, "kbytes"), std::nullopt);  // would overflow
}

// The recorded N93180FX2 configuration (RoCE DSCP 26 -> qos-group 5, paused
// on CoS 5; CNP DSCP 48 -> qos-group 6, priority level 2), built by hand: its
// leaves are tests/support/n93180_roce_leaves.h's, plus a few of its own.
SwitchQos n93180() {
  SwitchQos q;
  q.class_maps["RoCEv2-DATA"] = ClassMap{"qos", "match-all", {26}, {}, {}};
  q.class_maps["RoCEv2-CNP"] = ClassMap{"qos", "match-all", {48}, {}, {}};
  PolicyMap marking{"qos", {}};
  PolicyClass data;
  data.name = "RoCEv2-DATA";
  data.set_qos_group = 5;
  PolicyClass cnp;
  cnp.name = "RoCEv2-CNP";
  cnp.set_qos_group = 6;
  marking.classes = {data, cnp};
  q.policy_maps["QOS_MARKING"] = marking;
  PolicyClass nq5;
  nq5.name = "c-8q-nq5";
  nq5.pause_pfc_cos = 0x20;
  nq5.mtu = 2240;
  PolicyClass nq_default;
  nq_default.name = "c-8q-nq-default";
  nq_default.mtu = 1500;
  q.policy_maps["QOS-NETWORK"] = PolicyMap{"network-qos", {nq5, nq_default}};
  PolicyClass q5;
  q5.name = "c-out-8q-q5";
  q5.bandwidth_remaining_percent = 70;
  Wred w;
  w.min_threshold = 400;
  w.max_threshold = 800;
  w.unit = "kbytes";
  w.ecn = true;
  q5.wred = w;
  PolicyClass q6;
  q6.name = "c-out-8q-q6";
  q6.priority_level = 2;
  PolicyClass q3;
  q3.name = "c-out-8q-q3";
  q3.bandwidth_remaining_percent = 0;
  Wred packets;  // thresholds in packets: no byte leaves, ECN still known
  packets.min_threshold = 10;
  packets.max_threshold = 20;
  packets.unit = "packets";
  packets.ecn = true;
  q3.wred = packets;
  q.policy_maps["QOS-EGRESS"] = PolicyMap{"queuing", {q5, q6, q3}};
  PolicyClass in5;
  in5.name = "c-in-q5";
  in5.pause = PauseThresholds{147456, 114688, 107688};
  q.policy_maps["QOS-INGRESS"] = PolicyMap{"queuing", {in5}};
  q.system.network_qos = "QOS-NETWORK";
  for (const char* ifn : {"Ethernet1/51", "Ethernet1/52"}) {
    SwitchInterface& i = q.interfaces[ifn];
    i.policies.qos_input = "QOS_MARKING";
    i.policies.queuing_input = "QOS-INGRESS";
    i.policies.queuing_output = "QOS-EGRESS";
    i.pfc_mode = "on";
    i.watchdog_interval = "on";
  }
  q.interfaces["Ethernet1/1"].watchdog_interval = "off";
  q.global_watchdog_interval = "on";
  return q;
}

TEST(RoceLeavesTest, SwitchDeviceWideView) {
  PollBatch b;
  appendSwitchQosLeaves(n93180(), kTs, b);
  const std::string& g = testing::kQosGroup;
  testing::LeafTable want = testing::n93180RoceLeaves();
  // What only this struct has: class-default's network-qos class, a queue
  // whose WRED thresholds are in packets (ECN known, no byte leaves), a port
  // with the watchdog off.
  for (const auto& [path, value] : testing::LeafTable{
           {g + "[id=0]/state/pause-cos", "0"},
           {g + "[id=0]/state/mtu", "1500"},
           {g + "[id=3]/state/egress-queue", "'c-out-8q-q3'"},
           {g + "[id=3]/state/bandwidth-percent", "0"},
           {g + "[id=3]/state/ecn", "1"},
           {"/interfaces/interface[name=Ethernet1/1]/ethernet/pfc/state/watchdog-interval", "'off'"},
       }) {
    EXPECT_TRUE(want.emplace(path, value).second) << path << " is in the shared table already";
  }
  EXPECT_EQ(leaves(b), want);
  expectSchemaRows(b);
}

TEST(RoceLeavesTest, InterfacesThatDisagreeGiveNoDeviceWideQueue) {
  SwitchQos q = n93180();
  PolicyClass other;
  other.name = "c-out-8q-q5";
  other.bandwidth_remaining_percent = 10;
  q.policy_maps["OTHER-EGRESS"] = PolicyMap{"queuing", {other}};
  q.interfaces["Ethernet1/52"].policies.queuing_output = "OTHER-EGRESS";
  PollBatch b;
  appendSwitchQosLeaves(q, kTs, b);
  const std::map<std::string, std::string> got = leaves(b);
  EXPECT_FALSE(got.contains("/qos/qos-groups/qos-group[id=5]/state/egress-queue"));
  EXPECT_FALSE(got.contains("/qos/qos-groups/qos-group[id=5]/state/bandwidth-percent"));
  EXPECT_EQ(got.at("/qos/qos-groups/qos-group[id=5]/state/pause-cos"), "32");  // system network-qos
}

}  // namespace
}  // namespace rdmagw::roce
