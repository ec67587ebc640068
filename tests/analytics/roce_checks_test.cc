// The RoCE check (analytics/roce_checks.h) on the small fabric, cabled by
// LLDP alone: host01 and host02 (ens1f0np0, RDMA CM ToS 106 = DSCP 26) on
// leaf01 Ethernet1/1 and 1/2. The good configuration is a RoCE fabric as
// NX-OS templates and mlx5 hosts set it up: DSCP 26 -> priority 3 on the
// hosts, DSCP 26 -> qos-group 3 pausing CoS 3 on the leaf, CNPs on DSCP 48
// -> qos-group 6, a strict queue. Each test breaks one thing, asserts which
// group fails on which target and port, then mends it and sees every
// finding go.

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "models/lldp.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

using testing::SmallFabric;
using Leaves = std::map<std::string, std::string>;

const std::string kNetdev = "ens1f0np0";
const char* const kHosts[] = {"host01", "host02"};

std::string host(const std::string& rest) { return "/interfaces/interface[name=" + kNetdev + "]/ethernet/" + rest; }
std::string dscpPriority(int dscp) {
  return host("dcb/dscp-priorities/dscp-priority[dscp=" + std::to_string(dscp) + "]/state/priority");
}
std::string priority(int p, const std::string& leaf) {
  return host("dcb/priorities/priority[id=" + std::to_string(p) + "]/state/" + leaf);
}
std::string tc(int t, const std::string& leaf) {
  return host("dcb/traffic-classes/traffic-class[id=" + std::to_string(t) + "]/state/" + leaf);
}
std::string group(int g, const std::string& leaf) {
  return "/qos/qos-groups/qos-group[id=" + std::to_string(g) + "]/state/" + leaf;
}
std::string dscpGroup(int dscp) { return "/qos/dscp-map/dscp[value=" + std::to_string(dscp) + "]/state/qos-group"; }
std::string switchPort(const std::string& iface, const std::string& leaf) {
  return "/interfaces/interface[name=" + iface + "]/" + leaf;
}

class RoceChecksTest : public ::testing::Test {
 protected:
  RoceChecksTest() : f_({}, true, /*static_links=*/false) {}
  // As one fleet member sees the fabric: `peers` are other members'
  // targets, whose leaves this member holds as a copy.
  explicit RoceChecksTest(std::set<std::string> peers) : f_(std::move(peers), true, /*static_links=*/false) {}
  // The RoCE priority and the qos-group carrying it on leaf01.
  RoceChecksTest(int priority, int qos_group) : RoceChecksTest() {
    prio_ = priority;
    group_ = qos_group;
  }

  void SetUp() override {
    int n = 0;
    for (const char* h : kHosts) configureHost(h, "leaf01", "Ethernet1/" + std::to_string(++n));
    configureLeaf("leaf01");
  }

  // A good RoCE host cabled (by LLDP) to `leaf` port `sw_port`, that port
  // configured as the leaf's host ports are.
  void configureHost(const std::string& h, const std::string& leaf, const std::string& sw_port) {
    f_.setText(h, lldp::neighborPath(kNetdev, "1", "system-name"), leaf);
    f_.setText(h, lldp::neighborPath(kNetdev, "1", "port-id"), sw_port);
    f_.set(h, "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/default-roce-tos", 106);
    f_.setText(h, host("dcb/state/trust"), "dscp");
    f_.set(h, SmallFabric::pfcState(kNetdev, "enabled-priorities"), uint64_t{1} << prio_);
    f_.set(h, host("dcqcn/state/np-enabled-priorities"), 0xff);
    f_.set(h, host("dcqcn/state/rp-enabled-priorities"), 0xff);
    f_.set(h, host("dcqcn/state/cnp-dscp"), 48);
    f_.set(h, host("dcqcn/state/cnp-802p-priority"), 6);
    f_.set(h, dscpPriority(26), prio_);
    f_.set(h, dscpPriority(48), 6);
    for (int p = 0; p < 8; ++p) {
      f_.set(h, priority(p, "traffic-class"), p);
      f_.setText(h, tc(p, "tsa"), "ets");
      f_.set(h, tc(p, "bandwidth-percent"), p == 0 || p == prio_ ? 50 : 0);
    }
    f_.set(h, priority(0, "receive-buffer-bytes"), 131072);
    f_.set(h, priority(prio_, "receive-buffer-bytes"), 262144);
    f_.set(h, "/interfaces/interface[name=" + kNetdev + "]/state/mtu", 9000);
    f_.set(leaf, switchPort(sw_port, "state/mtu"), 9216);
    f_.setText(leaf, switchPort(sw_port, "ethernet/pfc/state/admin-mode"), "on");
    f_.setText(leaf, switchPort(sw_port, "ethernet/pfc/state/watchdog-interval"), "on");
  }

  // The leaf-wide QoS of a good RoCE leaf, ECN from 150 to 3000 KB.
  void configureLeaf(const std::string& leaf) {
    f_.set(leaf, dscpGroup(26), group_);
    f_.set(leaf, dscpGroup(48), 6);
    const std::map<int, std::string> queues = {
        {0, "c-out-8q-q-default"}, {group_, "c-out-8q-q" + std::to_string(group_)}, {6, "c-out-8q-q6"}};
    for (const auto& [g, queue] : queues) {
      f_.set(leaf, group(g, "pause-cos"), g == group_ ? uint64_t{1} << prio_ : 0);
      f_.set(leaf, group(g, "mtu"), 9216);
      f_.setText(leaf, group(g, "egress-queue"), queue);
      f_.set(leaf, group(g, "ecn"), g == group_ ? 1 : 0);
      if (g == 6) {
        f_.set(leaf, group(g, "priority-level"), 2);
      } else {
        f_.set(leaf, group(g, "bandwidth-percent"), 50);
      }
    }
    f_.set(leaf, group(group_, "wred-min-threshold"), 150000);
    f_.set(leaf, group(group_, "wred-max-threshold"), 3000000);
    f_.set(leaf, group(group_, "pause-buffer-size"), 300000);
    f_.set(leaf, group(group_, "pause-threshold"), 100000);
    f_.set(leaf, group(group_, "resume-threshold"), 90000);
    f_.setText(leaf, "/qos/pfc-watchdog/state/interval", "on");
  }

  // Findings of a severity, as "target:group/check/port".
  std::set<std::string> findings(const std::string& severity = "FAIL") const {
    std::set<std::string> out;
    for (const auto& [key, value] : f_.derived("severity")) {
      if (value == severity) out.insert(key);
    }
    return out;
  }
  // Groups not passing, as "target:group" -> status.
  Leaves notPassing() const {
    Leaves out;
    for (const auto& [key, value] : f_.derived("status")) {
      if (value != "PASS") out[key] = value;
    }
    return out;
  }
  // Ticks until the window holds only what the fault left behind.
  void settle() { f_.ticks(6); }
  void expectAllPass() {
    EXPECT_EQ(notPassing(), Leaves{});
    EXPECT_EQ(f_.derived("severity"), Leaves{}) << "no finding of either severity on a good fabric";
  }

  SmallFabric f_;
  int prio_ = 3;
  int group_ = 3;
};

TEST_F(RoceChecksTest, AGoodFabricPassesEveryGroupOnEveryDeviceWithItsItemsCounted) {
  settle();
  expectAllPass();
  const Leaves status = f_.derived("status");
  EXPECT_EQ(status.size(), 24u) << "six groups on each of host01, host02, leaf01 and esx01";
  for (const char* target : {"host01", "host02", "leaf01"}) {
    for (const char* g : {"lossless", "classification", "congestion-control", "flow-control", "ets", "live"}) {
      const std::string key = std::string(target) + ":" + g;
      EXPECT_EQ(status.count(key), 1u) << key;
      EXPECT_NE(f_.derived("checked")[key], "0") << key << ": something was checked";
      EXPECT_EQ(f_.derived("status-code")[key], "0") << key;
    }
  }
  // esx01's RoCE configuration is not collected: nothing of it is checked,
  // only its live verdicts (its place in the pause trees) count.
  EXPECT_EQ(f_.derived("checked")["esx01:lossless"], "0");
  EXPECT_EQ(f_.derived("checked")["esx01:ets"], "0");
  EXPECT_NE(f_.derived("checked")["esx01:live"], "0");
}

TEST_F(RoceChecksTest, AHostTrustingPcpFailsClassificationOnThatHostPortAlone) {
  f_.setText("host01", host("dcb/state/trust"), "pcp");
  f_.unset("host01", dscpPriority(26));
  f_.unset("host01", dscpPriority(48));
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"host01:classification/host-trust-not-dscp/ens1f0np0"}));
  EXPECT_EQ(notPassing(), (Leaves{{"host01:classification", "FAIL"}}));
  const std::string id = "host01:classification/host-trust-not-dscp/ens1f0np0";
  EXPECT_EQ(f_.derived("found")[id], "trust pcp");
  EXPECT_EQ(f_.derived("expected")[id], "trust dscp (leaf01:Ethernet1/1 classifies by DSCP)");
  EXPECT_EQ(f_.derived("port")[id], "ens1f0np0");
  EXPECT_EQ(f_.derived("group")[id], "classification");
  EXPECT_EQ(f_.derived("check")[id], "host-trust-not-dscp");
  EXPECT_EQ(f_.derived("failed")["host01:classification"], "1");
  EXPECT_EQ(f_.derived("status-code")["host01:classification"], "2");
  f_.setText("host01", host("dcb/state/trust"), "dscp");
  f_.set("host01", dscpPriority(26), 3);
  f_.set("host01", dscpPriority(48), 6);
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, CnpDscpInALossyDefaultQueueFailsClassificationOnTheSwitch) {
  f_.set("host02", host("dcqcn/state/cnp-dscp"), 46);  // no class of leaf01 matches 46: class-default
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:classification/cnp-dscp-not-strict/"}));
  EXPECT_EQ(notPassing(), (Leaves{{"leaf01:classification", "FAIL"}}));
  EXPECT_EQ(f_.derived("found")["leaf01:classification/cnp-dscp-not-strict/"],
            "DSCP 46 -> qos-group 0 (queue c-out-8q-q-default) bandwidth 50 %");
  f_.set("host02", host("dcqcn/state/cnp-dscp"), 48);
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, EcnOffOnTheRoceQueueFailsCongestionControlOnTheSwitch) {
  f_.set("leaf01", group(3, "ecn"), 0);
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:congestion-control/ecn-off-on-roce-queue/"}));
  EXPECT_EQ(notPassing(), (Leaves{{"leaf01:congestion-control", "FAIL"}}));
  f_.set("leaf01", group(3, "ecn"), 1);
  settle();
  expectAllPass();
}

// Three leaves, a host on each: the one marking ECN ten times later than the
// other two is the one flagged, device-wide, as a warning.
TEST_F(RoceChecksTest, TheLeafWhoseEcnThresholdsDifferFromTheMajorityWarnsCongestionControl) {
  f_.addTarget("leaf02", "nexus");
  f_.addTarget("leaf03", "nexus");
  f_.addTarget("host03", "rdma-host");
  configureHost("host02", "leaf02", "Ethernet1/1");
  configureLeaf("leaf02");
  configureHost("host03", "leaf03", "Ethernet1/1");
  configureLeaf("leaf03");
  settle();
  expectAllPass();
  f_.set("leaf02", group(3, "wred-min-threshold"), 1500000);
  f_.set("leaf02", group(3, "wred-max-threshold"), 6000000);
  settle();
  EXPECT_EQ(findings("WARN"), (std::set<std::string>{"leaf02:congestion-control/wred-thresholds-differ/"}));
  EXPECT_EQ(findings(), std::set<std::string>{}) << "a warning, not a failure";
  EXPECT_EQ(notPassing(), (Leaves{{"leaf02:congestion-control", "WARN"}}));
  const std::string id = "leaf02:congestion-control/wred-thresholds-differ/";
  EXPECT_EQ(f_.derived("expected")[id], "ECN thresholds 150000-3000000 bytes as on the other switches");
  EXPECT_EQ(f_.derived("found")[id], "1500000-6000000 bytes");
  f_.set("leaf02", group(3, "wred-max-threshold"), 3000000);
  f_.set("leaf02", group(3, "wred-min-threshold"), 150000);
  settle();
  expectAllPass();
}

// Two leaves that differ: no majority says which is wrong, so both warn,
// each naming the other's thresholds.
TEST_F(RoceChecksTest, TwoLeavesWithDifferentEcnThresholdsBothWarn) {
  f_.addTarget("leaf02", "nexus");
  configureHost("host02", "leaf02", "Ethernet1/1");
  configureLeaf("leaf02");
  f_.set("leaf02", group(3, "wred-min-threshold"), 1500000);
  settle();
  EXPECT_EQ(findings("WARN"), (std::set<std::string>{"leaf01:congestion-control/wred-thresholds-differ/",
                                                     "leaf02:congestion-control/wred-thresholds-differ/"}));
  EXPECT_EQ(notPassing(),
            (Leaves{{"leaf01:congestion-control", "WARN"}, {"leaf02:congestion-control", "WARN"}}));
  EXPECT_EQ(f_.derived("expected")["leaf01:congestion-control/wred-thresholds-differ/"],
            "the same ECN thresholds on every switch (no majority: leaf02 1500000-3000000 bytes)");
  EXPECT_EQ(f_.derived("found")["leaf02:congestion-control/wred-thresholds-differ/"], "1500000-3000000 bytes");
  f_.set("leaf02", group(3, "wred-min-threshold"), 150000);
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, PauseCosMissingOnTheRoceClassFailsLosslessOnTheSwitch) {
  f_.set("leaf01", group(3, "pause-cos"), 0);
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:lossless/pfc-not-on-roce-priority/"}));
  EXPECT_EQ(notPassing(), (Leaves{{"leaf01:lossless", "FAIL"}}));
  EXPECT_EQ(f_.derived("found")["leaf01:lossless/pfc-not-on-roce-priority/"], "pause pfc-cos none");
  f_.set("leaf01", group(3, "pause-cos"), 0x08);
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, RoceTrafficClassAtZeroPercentFailsEtsOnThatHost) {
  f_.set("host02", tc(3, "bandwidth-percent"), 0);
  f_.set("host02", tc(0, "bandwidth-percent"), 100);
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"host02:ets/roce-tc-zero-bandwidth/ens1f0np0"}));
  EXPECT_EQ(findings("WARN"), (std::set<std::string>{"host02:ets/ets-bandwidth-differs-from-switch/ens1f0np0"}));
  EXPECT_EQ(notPassing(), (Leaves{{"host02:ets", "FAIL"}}));
  f_.set("host02", tc(3, "bandwidth-percent"), 50);
  f_.set("host02", tc(0, "bandwidth-percent"), 50);
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, AHostWhoseRoceDscpIsUnknownIsNotComparedWithTheDefaultQueue) {
  // As an ESXi vmnic reads: PFC and ETS, but no RDMA CM ToS, trust or
  // dscp-prio rules, so which qos-group its RoCE takes on leaf01 is unknown,
  // not class-default's.
  f_.unset("host02", "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/default-roce-tos");
  f_.unset("host02", host("dcb/state/trust"));
  f_.unset("host02", dscpPriority(26));
  f_.unset("host02", dscpPriority(48));
  f_.set("leaf01", group(0, "bandwidth-percent"), 40);
  settle();
  expectAllPass();
  EXPECT_NE(f_.derived("checked")["host02:ets"], "0") << "its own ETS is still judged";
}

TEST_F(RoceChecksTest, StrictClassesAboveRoceFailEtsOnThatHost) {
  // The recorded ConnectX-7 host: priorities 4-7 strict. The CNPs' class (6) may be.
  for (int t = 4; t < 8; ++t) f_.setText("host01", tc(t, "tsa"), "strict");
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"host01:ets/roce-starved-by-strict/ens1f0np0"}));
  EXPECT_EQ(notPassing(), (Leaves{{"host01:ets", "FAIL"}}));
  EXPECT_EQ(f_.derived("found")["host01:ets/roce-starved-by-strict/ens1f0np0"],
            "priority 4 in strict TC 4, priority 5 in strict TC 5, priority 7 in strict TC 7");
  for (int t = 4; t < 8; ++t) f_.setText("host01", tc(t, "tsa"), "ets");
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, WatchdogOffOnASwitchPortFailsFlowControlOnThatPort) {
  f_.setText("leaf01", switchPort("Ethernet1/2", "ethernet/pfc/state/watchdog-interval"), "off");
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:flow-control/pfc-watchdog-off/Ethernet1/2"}));
  EXPECT_EQ(notPassing(), (Leaves{{"leaf01:flow-control", "FAIL"}}));
  f_.setText("leaf01", switchPort("Ethernet1/2", "ethernet/pfc/state/watchdog-interval"), "on");
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, SwitchWideWatchdogOffFailsFlowControlDeviceWide) {
  f_.setText("leaf01", "/qos/pfc-watchdog/state/interval", "off");
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:flow-control/pfc-watchdog-off/"}));
  f_.setText("leaf01", "/qos/pfc-watchdog/state/interval", "on");
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, AnMtuTooSmallOnOneHopFailsFlowControlOnThatSwitchPort) {
  f_.set("leaf01", switchPort("Ethernet1/2", "state/mtu"), 1500);
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:flow-control/mtu-smaller-than-host/Ethernet1/2"}));
  EXPECT_EQ(notPassing(), (Leaves{{"leaf01:flow-control", "FAIL"}}));
  EXPECT_EQ(f_.derived("found")["leaf01:flow-control/mtu-smaller-than-host/Ethernet1/2"], "MTU 1500");
  f_.set("leaf01", switchPort("Ethernet1/2", "state/mtu"), 9216);
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, PfcFramesOnALossyPriorityFailLosslessAtBothEndsWithTheCounters) {
  f_.ticks(6, [&] {
    f_.bump("host01", SmallFabric::pfc(kNetdev, 0, "out-pause-frames"), 10);
    f_.bump("leaf01", SmallFabric::pfc("Ethernet1/1", 0, "in-pause-frames"), 10);
  });
  EXPECT_EQ(findings(), (std::set<std::string>{"host01:lossless/pfc-frames-on-lossy-priority/ens1f0np0",
                                                "leaf01:lossless/pfc-frames-on-lossy-priority/Ethernet1/1"}));
  EXPECT_EQ(f_.derived("found")["host01:lossless/pfc-frames-on-lossy-priority/ens1f0np0"],
            "priority 0: 40 sent, 0 received in the window");
  EXPECT_EQ(f_.derived("found")["leaf01:lossless/pfc-frames-on-lossy-priority/Ethernet1/1"],
            "priority 0: 0 sent, 40 received in the window");
  EXPECT_EQ(notPassing()["host01:lossless"], "FAIL");
  EXPECT_EQ(notPassing()["leaf01:lossless"], "FAIL");
  settle();
  expectAllPass();
}

TEST_F(RoceChecksTest, LiveVerdictsOfTheOtherSignalsAreAttachedToTheLiveGroup) {
  // Drops on the lossless priority at host02: the drop alarm the engine derived.
  f_.ticks(6, [&] { f_.bump("host02", SmallFabric::pfc(kNetdev, 3, "in-discards"), 5); });
  EXPECT_EQ(findings(), (std::set<std::string>{"host02:live/lossless-drops/ens1f0np0"}));
  EXPECT_EQ(notPassing(), (Leaves{{"host02:live", "FAIL"}}));
  // CE marks received and no CNP sent: the DCQCN chain's marks-no-cnp.
  f_.ticks(6, [&] { f_.bump("host01", SmallFabric::hw("np-ecn-marked-roce-packets"), 100); });
  EXPECT_EQ(findings(), (std::set<std::string>{"host01:live/dcqcn-chain/ens1f0np0"}));
  EXPECT_EQ(f_.derived("found")["host01:live/dcqcn-chain/ens1f0np0"], "marks-no-cnp on mlx5_0/1");
  settle();
  expectAllPass();
}

// The PFC watchdog as it runs on leaf01 Ethernet1/2 (host02's port),
// watching the RoCE qos-group, cross-checked with our pause-storm verdict
// on host02's NIC.
class RoceWatchdogTest : public RoceChecksTest {
 protected:
  RoceWatchdogTest() = default;
  explicit RoceWatchdogTest(std::set<std::string> peers) : RoceChecksTest(std::move(peers)) {}
  void SetUp() override {
    RoceChecksTest::SetUp();
    f_.set("leaf01", switchPort("Ethernet1/2", "ethernet/pfc/watchdog/state/enabled"), 1);
    f_.set("leaf01", queue("pfc-cos"), uint64_t(prio_));
    f_.set("leaf01", queue("shutdown-events"), 0);
    f_.set("leaf01", queue("restored-events"), 0);
    state("Ok");
  }
  static std::string queue(const std::string& leaf) {
    return switchPort("Ethernet1/2", "ethernet/pfc/watchdog/qos-groups/qos-group[id=3]/state/" + leaf);
  }
  void state(const std::string& s) { f_.setText("leaf01", queue("state"), s); }
  // host02's NIC holds the leaf port paused for the whole of every tick.
  std::function<void()> storm() {
    return [this] { f_.bump("host02", SmallFabric::pfc(kNetdev, prio_, "out-pause-duration"), 1'000'000); };
  }
  std::set<std::string> watchdogFindings() const {
    std::set<std::string> out;
    for (const auto& [key, severity] : f_.derived("severity")) {
      if (key.find("/watchdog-") != std::string::npos) out.insert(key + " " + severity);
    }
    return out;
  }
};

TEST_F(RoceWatchdogTest, AQuietWatchdogOnAQuietPortPassesAndEachOfItsItemsCounts) {
  settle();
  expectAllPass();
  const uint64_t both = std::stoull(f_.derived("checked")["leaf01:flow-control"]);
  // Disabled: "did it miss a storm" is no longer asked; "did it shut
  // without one" still is.
  f_.set("leaf01", switchPort("Ethernet1/2", "ethernet/pfc/watchdog/state/enabled"), 0);
  f_.tick();
  EXPECT_EQ(std::stoull(f_.derived("checked")["leaf01:flow-control"]), both - 1);
  expectAllPass();
}

TEST_F(RoceWatchdogTest, AShutdownWithoutAStormWarnsFlowControlOnThatPort) {
  settle();
  state("Shutdown");
  f_.bump("leaf01", queue("shutdown-events"), 1);
  settle();
  EXPECT_EQ(watchdogFindings(),
            (std::set<std::string>{"leaf01:flow-control/watchdog-shutdown-without-storm/Ethernet1/2 WARN"}));
  EXPECT_EQ(notPassing(), (Leaves{{"leaf01:flow-control", "WARN"}}));
  const std::string found = f_.derived("found")["leaf01:flow-control/watchdog-shutdown-without-storm/Ethernet1/2"];
  EXPECT_EQ(found,
            "qos-group 3 (CoS 3): Shutdown; host02 ens1f0np0: no pause storm, held the port paused 0 % of the window (0 "
            "ms)");
  state("Ok");
  settle();
  expectAllPass();
  // Shut and restored between two polls: the state never showed it, the
  // shutdown counter did, and it counts while in the window.
  f_.bump("leaf01", queue("shutdown-events"), 1);
  f_.bump("leaf01", queue("restored-events"), 1);
  f_.tick();
  EXPECT_EQ(watchdogFindings(),
            (std::set<std::string>{"leaf01:flow-control/watchdog-shutdown-without-storm/Ethernet1/2 WARN"}));
  EXPECT_EQ(f_.derived("found")["leaf01:flow-control/watchdog-shutdown-without-storm/Ethernet1/2"],
            "qos-group 3 (CoS 3): 1 shutdown(s) in the window, 1 restore(s) in the window; host02 ens1f0np0: no pause "
            "storm, held the port paused 0 % of the window (0 ms)");
  settle();
  expectAllPass();
}

TEST_F(RoceWatchdogTest, AShutdownDuringAStormPasses) {
  settle();
  f_.ticks(2, storm());
  state("Shutdown");
  f_.bump("leaf01", queue("shutdown-events"), 1);
  for (int t = 0; t < 8; ++t) {
    f_.tick(storm());
    EXPECT_EQ(watchdogFindings(), std::set<std::string>{}) << "tick " << t;
  }
  EXPECT_EQ(f_.derived("pause-storm")["host02:ens1f0np0:" + std::to_string(prio_)], "1");
}

// The watchdog shuts a stuck queue within a few hundred milliseconds, long
// before our storm verdict (which wants the port paused for
// pause_storm_for): a shutdown after a real stall is not suspect, one after
// a stall shorter than the watchdog's shortest interval is.
TEST_F(RoceWatchdogTest, AShutdownAtTheStartOfAStormPassesButNotOneWithoutAStall) {
  settle();
  const std::string pause = SmallFabric::pfc(kNetdev, prio_, "out-pause-duration");
  f_.bump("host02", pause, 300'000);  // 300 ms paused in one tick
  state("Shutdown");
  f_.bump("leaf01", queue("shutdown-events"), 1);
  f_.tick();
  EXPECT_EQ(f_.derived("pause-storm")["host02:ens1f0np0:" + std::to_string(prio_)], "0") << "no storm verdict yet";
  EXPECT_EQ(watchdogFindings(), std::set<std::string>{});
  state("Ok");
  f_.bump("leaf01", queue("restored-events"), 1);
  settle();
  expectAllPass();
  // 50 ms of pause cannot have stalled the queue for a watchdog interval.
  f_.bump("host02", pause, 50'000);
  state("Shutdown");
  f_.bump("leaf01", queue("shutdown-events"), 1);
  f_.tick();
  EXPECT_EQ(watchdogFindings(),
            (std::set<std::string>{"leaf01:flow-control/watchdog-shutdown-without-storm/Ethernet1/2 WARN"}));
  const std::string found = f_.derived("found")["leaf01:flow-control/watchdog-shutdown-without-storm/Ethernet1/2"];
  EXPECT_NE(found.find("(50 ms)"), std::string::npos) << found;
}

TEST_F(RoceWatchdogTest, AStormTheWatchdogNeverActsOnWarnsFlowControlOnThatPort) {
  settle();
  f_.ticks(8, storm());
  EXPECT_EQ(f_.derived("pause-storm")["host02:ens1f0np0:" + std::to_string(prio_)], "1");
  EXPECT_EQ(watchdogFindings(), (std::set<std::string>{"leaf01:flow-control/watchdog-missed-storm/Ethernet1/2 WARN"}));
  // A disabled watchdog is not expected to act (its own item says it is off).
  f_.set("leaf01", switchPort("Ethernet1/2", "ethernet/pfc/watchdog/state/enabled"), 0);
  f_.tick(storm());
  EXPECT_EQ(watchdogFindings(), std::set<std::string>{});
  f_.set("leaf01", switchPort("Ethernet1/2", "ethernet/pfc/watchdog/state/enabled"), 1);
  // It acts: Shutdown, and the event in the window.
  state("Shutdown");
  f_.bump("leaf01", queue("shutdown-events"), 1);
  f_.tick(storm());
  EXPECT_EQ(watchdogFindings(), std::set<std::string>{});
}

// In a fleet: this member owns leaf01, another owns host02. The storm
// verdict on host02 is computed here from the copy of its counters (its
// owner writes it), so the watchdog on leaf01 is still judged against it.
class RoceWatchdogFleetTest : public RoceWatchdogTest {
 protected:
  RoceWatchdogFleetTest() : RoceWatchdogTest(std::set<std::string>{"host02"}) {}
};

TEST_F(RoceWatchdogFleetTest, AStormOnAnotherMembersHostIsHeldAgainstThisMembersWatchdog) {
  settle();
  expectAllPass();
  f_.ticks(8, storm());
  EXPECT_EQ(f_.derived("pause-storm").count("host02:ens1f0np0:" + std::to_string(prio_)), 0u)
      << "host02's verdicts are its owner's to write";
  EXPECT_EQ(watchdogFindings(), (std::set<std::string>{"leaf01:flow-control/watchdog-missed-storm/Ethernet1/2 WARN"}));
  state("Shutdown");
  f_.bump("leaf01", queue("shutdown-events"), 1);
  f_.tick(storm());
  EXPECT_EQ(watchdogFindings(), std::set<std::string>{});
}

// The recorded N93180FX2 layout: RoCE DSCP 26 -> qos-group 5 -> pause
// pfc-cos 5, CNPs DSCP 48 -> qos-group 6 at priority level 2; hosts on 5.
class RoceChecksPriority5Test : public RoceChecksTest {
 protected:
  RoceChecksPriority5Test() : RoceChecksTest(5, 5) {}
};

TEST_F(RoceChecksPriority5Test, TheRecordedLayoutPassesAndItsPauseCosIsFollowedNotGuessed) {
  settle();
  expectAllPass();
  f_.set("leaf01", group(5, "pause-cos"), 0x08);  // pauses CoS 3: not the hosts' RoCE priority
  settle();
  EXPECT_EQ(findings(), (std::set<std::string>{"leaf01:lossless/pfc-not-on-roce-priority/",
                                                "host01:classification/dscp-priority-mismatch/ens1f0np0",
                                                "host02:classification/dscp-priority-mismatch/ens1f0np0"}));
  EXPECT_EQ(f_.derived("expected")["host01:classification/dscp-priority-mismatch/ens1f0np0"],
            "DSCP 26 -> priority 3 (leaf01 pauses CoS 3 for qos-group 5)");
  f_.set("leaf01", group(5, "pause-cos"), 0x20);
  settle();
  expectAllPass();
}

}  // namespace
}  // namespace rdmagw::analytics
