// NX-OS `show running-config ipqos` into the switch model: the recorded
// N93180FX2 RoCE configuration (its line breaks lost) field by field, the
// same configuration as NX-OS indents it, and broken input.

#include "southbound/nxos/nxos_ipqos.h"
#include "southbound/nxos/nxos_ipqos_statements.h"

#include <gtest/gtest.h>

#include "tests/southbound/roce_test_util.h"

namespace rdmagw::southbound::nxos {
namespace {

using rdmagw::roce::PolicyClass;
using rdmagw::roce::SwitchQos;
using testing::roceFixture;

const PolicyClass& cls(const SwitchQos& q, const std::string& policy, const std::string& name) {
  static const PolicyClass kNone;
  auto pm = q.policy_maps.find(policy);
  if (pm == q.policy_maps.end()) {
    ADD_FAILURE() << "no policy-map " << policy;
    return kNone;
  }
  const PolicyClass* c = pm->second.find(name);
  if (c == nullptr) {
    ADD_FAILURE() << "no class " << name << " in " << policy;
    return kNone;
  }
  return *c;
}

void expectZartbot(const SwitchQos& q) {
  EXPECT_TRUE(q.forward_nonecn);
  EXPECT_EQ(q.global_watchdog_interval, "on");
  // Classification: DSCP 26 is RoCE data, DSCP 48 the CNPs.
  ASSERT_EQ(q.class_maps.count("RoCEv2-DATA"), 1u);
  EXPECT_EQ(q.class_maps.at("RoCEv2-DATA").type, "qos");
  EXPECT_EQ(q.class_maps.at("RoCEv2-DATA").match_mode, "match-all");
  EXPECT_EQ(q.class_maps.at("RoCEv2-DATA").dscp, std::vector<uint32_t>{26});
  EXPECT_EQ(q.class_maps.at("RoCEv2-CNP").dscp, std::vector<uint32_t>{48});
  EXPECT_EQ(q.policy_maps.at("QOS_MARKING").type, "qos");
  EXPECT_EQ(cls(q, "QOS_MARKING", "RoCEv2-DATA").set_qos_group, 5u);
  EXPECT_EQ(cls(q, "QOS_MARKING", "RoCEv2-CNP").set_qos_group, 6u);
  // No-drop: qos-group 5 pauses CoS 5, with a 2240-byte MTU.
  EXPECT_EQ(q.system.network_qos, "QOS-NETWORK");
  EXPECT_EQ(q.policy_maps.at("QOS-NETWORK").type, "network-qos");
  EXPECT_EQ(cls(q, "QOS-NETWORK", "c-8q-nq5").pause_pfc_cos, uint8_t(1u << 5));
  EXPECT_EQ(cls(q, "QOS-NETWORK", "c-8q-nq5").mtu, 2240u);
  EXPECT_EQ(q.policy_maps.at("QOS-NETWORK").classes.size(), 1u);
  // Egress: the RoCE queue with WRED/ECN, the CNP queue strict.
  const PolicyClass& q5 = cls(q, "QOS-EGRESS-100G-PORT", "c-out-8q-q5");
  EXPECT_EQ(q5.bandwidth_remaining_percent, 70u);
  ASSERT_TRUE(q5.wred.has_value());
  EXPECT_EQ(q5.wred->min_threshold, 400u);
  EXPECT_EQ(q5.wred->max_threshold, 800u);
  EXPECT_EQ(q5.wred->unit, "kbytes");
  EXPECT_EQ(q5.wred->drop_probability, 5u);
  EXPECT_EQ(q5.wred->weight, 7u);
  EXPECT_TRUE(q5.wred->ecn);
  EXPECT_FALSE(q5.priority_level);
  EXPECT_EQ(cls(q, "QOS-EGRESS-100G-PORT", "c-out-8q-q6").priority_level, 2u);
  EXPECT_FALSE(cls(q, "QOS-EGRESS-100G-PORT", "c-out-8q-q6").wred);
  EXPECT_EQ(cls(q, "QOS-EGRESS-100G-PORT", "c-out-8q-q7").priority_level, 1u);
  for (const char* zero : {"c-out-8q-q1", "c-out-8q-q2", "c-out-8q-q3", "c-out-8q-q4"}) {
    EXPECT_EQ(cls(q, "QOS-EGRESS-100G-PORT", zero).bandwidth_remaining_percent, 0u) << zero;
  }
  // Ingress no-drop thresholds of qos-group 5.
  const PolicyClass& in5 = cls(q, "QOS-INGRESS-100G-PORT", "c-in-q5");
  ASSERT_TRUE(in5.pause.has_value());
  EXPECT_EQ(in5.pause->buffer_size, 147456u);
  EXPECT_EQ(in5.pause->pause_threshold, 114688u);
  EXPECT_EQ(in5.pause->resume_threshold, 107688u);
  // interface eth1/51-54: four ports, PFC on, watchdog on, the three policies.
  ASSERT_EQ(q.interfaces.size(), 4u);
  for (const char* ifn : {"Ethernet1/51", "Ethernet1/52", "Ethernet1/53", "Ethernet1/54"}) {
    ASSERT_EQ(q.interfaces.count(ifn), 1u) << ifn;
    const auto& i = q.interfaces.at(ifn);
    EXPECT_EQ(i.pfc_mode, "on") << ifn;
    EXPECT_EQ(i.watchdog_interval, "on") << ifn;
    EXPECT_EQ(i.policies.qos_input, "QOS_MARKING") << ifn;
    EXPECT_EQ(i.policies.queuing_input, "QOS-INGRESS-100G-PORT") << ifn;
    EXPECT_EQ(i.policies.queuing_output, "QOS-EGRESS-100G-PORT") << ifn;
  }
}

TEST(NxosIpqosTest, ZartbotN93180Fx2CollapsedFieldByField) {
  SwitchQos q;
  Status s = parseNxosIpqos(roceFixture("nxos_running-config_qos_snippet__zartbot-blog.txt"), q);
  ASSERT_TRUE(s.isOk()) << s.message();
  expectZartbot(q);
  // The paste names c-out-8q-q-default twice in the egress policy (20, then
  // 15): applied in order, as the switch would, the later value stands.
  EXPECT_EQ(cls(q, "QOS-EGRESS-100G-PORT", "c-out-8q-q-default").bandwidth_remaining_percent, 15u);
  EXPECT_EQ(q.policy_maps.at("QOS-EGRESS-100G-PORT").classes.size(), 8u);
}

// The same configuration as `show running-config ipqos` prints it (indented,
// one statement a line), plus what a real capture carries around it.
constexpr std::string_view kIndented = R"(N93180# show running-config ipqos

!Command: show running-config ipqos
!Running configuration last done at: Tue Aug 24 10:00:00 2021
!Time: Tue Aug 24 10:00:01 2021

version 9.3(5) Bios:version 05.40
congestion-control random-detect forward-nonecn
hardware qos nodrop-queue-thresholds queue-green 1000
priority-flow-control watch-dog-interval on
class-map type qos match-all RoCEv2-CNP
  match dscp 48
class-map type qos match-all RoCEv2-DATA
  match dscp 26
policy-map type qos QOS_MARKING
  class RoCEv2-DATA
    set qos-group 5
  class RoCEv2-CNP
    set qos-group 6
policy-map type network-qos QOS-NETWORK
  class type network-qos c-8q-nq5
    pause pfc-cos 5
    mtu 2240
system qos
  service-policy type network-qos QOS-NETWORK
policy-map type queuing QOS-EGRESS-100G-PORT
  class type queuing c-out-8q-q5
    bandwidth remaining percent 70
    random-detect minimum-threshold 400 kbytes maximum-threshold 800 kbytes drop-probability 5 weight 7 ecn
  class type queuing c-out-8q-q6
    priority level 2
    shape min 0 mbps max 50000 mbps
  class type queuing c-out-8q-q3
    bandwidth remaining percent 0
  class type queuing c-out-8q-q4
    bandwidth remaining percent 0
  class type queuing c-out-8q-q2
    bandwidth remaining percent 0
  class type queuing c-out-8q-q1
    bandwidth remaining percent 0
  class type queuing c-out-8q-q-default
    bandwidth remaining percent 20
  class type queuing c-out-8q-q7
    priority level 1
policy-map type queuing QOS-INGRESS-100G-PORT
  class type queuing c-in-q5
    pause buffer-size 147456 pause-threshold 114688 resume-threshold 107688
interface Ethernet1/51-54
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  service-policy type qos input QOS_MARKING
  service-policy type queuing input QOS-INGRESS-100G-PORT
  service-policy type queuing output QOS-EGRESS-100G-PORT
)";

TEST(NxosIpqosTest, IndentedFormGivesTheSameModel) {
  SwitchQos q;
  Status s = parseNxosIpqos(kIndented, q);
  ASSERT_TRUE(s.isOk()) << s.message();
  expectZartbot(q);
  EXPECT_EQ(cls(q, "QOS-EGRESS-100G-PORT", "c-out-8q-q-default").bandwidth_remaining_percent, 20u);
}

TEST(NxosIpqosTest, UnindentedStatementClosesTheInterfaceBlock) {
  SwitchQos q;
  ASSERT_TRUE(parseNxosIpqos("interface Ethernet1/1\n"
                             "  priority-flow-control mode auto\n"
                             "priority-flow-control watch-dog-interval off\n",
                             q)
                  .isOk());
  EXPECT_EQ(q.interfaces.at("Ethernet1/1").pfc_mode, "auto");
  EXPECT_FALSE(q.interfaces.at("Ethernet1/1").watchdog_interval);
  EXPECT_EQ(q.global_watchdog_interval, "off");
}

TEST(NxosIpqosTest, DscpListsRangesNamesAndNoDropForms) {
  SwitchQos q;
  Status s = parseNxosIpqos("class-map type qos match-any ROCE\n"
                            "  match dscp 24-27,af41\n"
                            "  match cos 3\n"
                            "class-map type network-qos NQ3\n"
                            "  match qos-group 3\n"
                            "policy-map type network-qos NQ\n"
                            "  class type network-qos NQ3\n"
                            "    pause buffer-size 100 pause-threshold 50 resume-threshold 40 pfc-cos 3-4\n"
                            "policy-map type queuing OUT\n"
                            "  class type queuing c-out-q3\n"
                            "    bandwidth percent 50\n"
                            "    random-detect threshold burst-optimized ecn\n"
                            "  class type queuing c-out-q7\n"
                            "    priority\n",
                            q);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(q.class_maps.at("ROCE").dscp, (std::vector<uint32_t>{24, 25, 26, 27, 34}));
  EXPECT_EQ(q.class_maps.at("ROCE").cos, std::vector<uint32_t>{3});
  EXPECT_EQ(q.class_maps.at("NQ3").qos_group, std::vector<uint32_t>{3});
  const PolicyClass& nq = cls(q, "NQ", "NQ3");
  EXPECT_EQ(nq.pause_pfc_cos, uint8_t(0x18));
  ASSERT_TRUE(nq.pause);
  EXPECT_EQ(nq.pause->buffer_size, 100u);
  EXPECT_EQ(nq.pause->resume_threshold, 40u);
  EXPECT_EQ(cls(q, "OUT", "c-out-q3").bandwidth_percent, 50u);
  ASSERT_TRUE(cls(q, "OUT", "c-out-q3").wred);
  EXPECT_EQ(cls(q, "OUT", "c-out-q3").wred->profile, "threshold burst-optimized");
  EXPECT_TRUE(cls(q, "OUT", "c-out-q3").wred->ecn);
  EXPECT_FALSE(cls(q, "OUT", "c-out-q3").wred->min_threshold);
  EXPECT_EQ(cls(q, "OUT", "c-out-q7").priority_level, 1u);
}

TEST(NxosIpqosTest, OutOfRangeValuesAreNamedAndTheRestIsKept) {
  SwitchQos q;
  Status s = parseNxosIpqos("class-map type qos match-all BAD\n"
                            "  match dscp 64\n"
                            "class-map type qos match-all GOOD\n"
                            "  match dscp 26\n"
                            "policy-map type qos MARK\n"
                            "  class GOOD\n"
                            "    set qos-group 9\n"
                            "policy-map type network-qos NQ\n"
                            "  class type network-qos c-8q-nq3\n"
                            "    pause pfc-cos 8\n"
                            "    mtu lots\n"
                            "policy-map type queuing OUT\n"
                            "  class type queuing c-out-8q-q3\n"
                            "    bandwidth remaining percent 101\n"
                            "    random-detect minimum-threshold 10 kbytes maximum-threshold 99999999999 kbytes ecn\n"
                            "    priority level 0\n",
                            q);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument) << s.message();
  for (const char* part : {"'match dscp 64'", "within 0..63", "set qos-group 9", "9 is out of range 0..7",
                           "pause pfc-cos 8", "bad mtu", "'lots' is not a number", "101 is out of range 0..100",
                           "maximum-threshold", "priority level: 0"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  EXPECT_TRUE(q.class_maps.at("BAD").dscp.empty());
  EXPECT_EQ(q.class_maps.at("GOOD").dscp, std::vector<uint32_t>{26});
  EXPECT_FALSE(cls(q, "MARK", "GOOD").set_qos_group);
  EXPECT_FALSE(cls(q, "NQ", "c-8q-nq3").pause_pfc_cos);
  EXPECT_FALSE(cls(q, "OUT", "c-out-8q-q3").wred);
}

TEST(NxosIpqosTest, TruncatedGarbageAndDeviceErrorsAreClearErrors) {
  // Cut in the middle of a statement: what came before stands, the cut one is named.
  const std::string full(kIndented);
  const std::string cut = full.substr(0, full.find("resume-threshold 107688") + 16);
  SwitchQos q;
  Status s = parseNxosIpqos(cut, q);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find("resume-threshold: a number is missing"), std::string::npos) << s.message();
  EXPECT_EQ(cls(q, "QOS-NETWORK", "c-8q-nq5").pause_pfc_cos, uint8_t(1u << 5));

  for (std::string_view junk : {std::string_view(""), std::string_view("\x01\x02\xff garbage\n\n"),
                                std::string_view("{\"TABLE_qos\": 3}")}) {
    SwitchQos g;
    Status e = parseNxosIpqos(junk, g);
    EXPECT_EQ(e.code(), Status::Code::kCorrupt) << junk;
    EXPECT_NE(e.message().find("no class-map, policy-map"), std::string::npos) << e.message();
  }
  SwitchQos d;
  Status e = parseNxosIpqos("switch# show running-config ipqos\n% Invalid command at '^' marker.\n", d);
  EXPECT_EQ(e.code(), Status::Code::kUnavailable);
  EXPECT_NE(e.message().find("device error"), std::string::npos) << e.message();
}

TEST(NxosIpqosTest, InterfaceListsAndRanges) {
  Result<std::vector<std::string>> r = expandNxosInterfaces(" eth1/51-54, Ethernet1/3 ,port-channel10-11");
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(*r, (std::vector<std::string>{"Ethernet1/51", "Ethernet1/52", "Ethernet1/53", "Ethernet1/54",
                                          "Ethernet1/3", "port-channel10", "port-channel11"}));
  EXPECT_FALSE(expandNxosInterfaces("eth1/5-2").isOk());
  EXPECT_FALSE(expandNxosInterfaces("eth1/1-999999999").isOk());
  EXPECT_FALSE(expandNxosInterfaces("1/1").isOk());
  SwitchQos q;
  Status s = parseNxosIpqos("interface eth1/1-99999\n  priority-flow-control mode on\n", q);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(q.interfaces.empty());
}

}  // namespace
}  // namespace rdmagw::southbound::nxos
