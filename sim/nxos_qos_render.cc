// What a simulated Nexus leaf prints of its QoS configuration
// (sim/roce_qos.h): `show running-config ipqos` in the layout of NX-OS
// running configurations (unindented block statements, two spaces per
// level) with the statements of a recorded N93180FX2 RoCE configuration
// (tests/fixtures/roce-config/nxos_running-config_qos_snippet__zartbot-blog.txt:
// its policy and class names), and the show commands that print parts of it.

#include <cinttypes>
#include <cstdio>
#include <string>

#include "sim/nxos_render.h"
#include "sim/roce_qos.h"

namespace rdmagw::sim {
namespace {

constexpr const char* kMarking = "QOS_MARKING";
constexpr const char* kNetwork = "QOS-NETWORK";
constexpr const char* kEgress = "QOS-EGRESS-100G-PORT";
constexpr const char* kIngress = "QOS-INGRESS-100G-PORT";
constexpr const char* kDataClass = "RoCEv2-DATA";
constexpr const char* kCnpClass = "RoCEv2-CNP";

std::string n(uint64_t v) { return std::to_string(v); }

// NX-OS 8q system class names: qos-group 0 is the "-default" class.
std::string groupClass(const char* prefix, int group) {
  return std::string(prefix) + (group == 0 ? "-default" : std::to_string(group));
}

bool shownPort(const SwitchPort& p) { return p.kind != PortKind::kInternal; }

// The network-qos classes at `indent`: the RoCE one (pause pfc-cos, unless
// pause-cos-missing) and the default, both jumbo. `match` adds the `match
// qos-group` lines that `show policy-map` prints for system classes.
std::string networkQosClasses(const Switch& sw, const RoceQosPlan& plan, const std::string& indent, bool match) {
  std::string out;
  const int r = plan.roce_priority;
  out += indent + "class type network-qos " + groupClass("c-8q-nq", r) + "\n";
  if (match) out += indent + "  match qos-group " + n(uint64_t(r)) + "\n\n";
  if (!sw.pause_cos_missing) out += indent + "  pause pfc-cos " + n(uint64_t(r)) + "\n";
  out += indent + "  mtu " + n(kPortMtu) + "\n";
  if (r != 0) {
    out += indent + "class type network-qos c-8q-nq-default\n";
    if (match) out += indent + "  match qos-group 0\n\n";
    out += indent + "  mtu " + n(kPortMtu) + "\n";
  }
  return out;
}

}  // namespace

std::string nxosRunningConfigIpqos(const Switch& sw, const RoceQosPlan& plan) {
  const int r = plan.roce_priority, c = plan.cnp_priority, lossy = plan.lossy_priority;
  std::string out =
      "\n"
      "!Command: show running-config ipqos\n"
      "!No configuration change since last restart\n"
      "!Time: Thu Nov 26 09:00:00 2026\n"
      "\n"
      "version 10.3(4a) Bios:version 05.51\n"
      "priority-flow-control watch-dog-interval on\n"
      "congestion-control random-detect forward-nonecn\n";
  out += std::string("class-map type qos match-all ") + kCnpClass + "\n  match dscp " + n(kCnpDscp) + "\n";
  out += std::string("class-map type qos match-all ") + kDataClass + "\n  match dscp " + n(kRoceDscp) + "\n";
  out += std::string("policy-map type qos ") + kMarking + "\n";
  out += std::string("  class ") + kDataClass + "\n    set qos-group " + n(uint64_t(r)) + "\n";
  // cnp-lossy: the CNP class is defined but not in the policy, so DSCP 48
  // falls to class-default: qos-group 0, the lossy default queue.
  if (!sw.cnp_lossy) out += std::string("  class ") + kCnpClass + "\n    set qos-group " + n(uint64_t(c)) + "\n";
  out += std::string("policy-map type queuing ") + kEgress + "\n";
  for (int q = kQosGroups - 1; q >= 0; --q) {
    out += "  class type queuing " + groupClass("c-out-8q-q", q) + "\n";
    if (q == c) {
      out += "    priority level 1\n";
    } else if (q == r) {
      out += "    bandwidth remaining percent " + n(kRoceQueuePercent) + "\n";
      char wred[160];
      std::snprintf(wred, sizeof wred,
                    "    random-detect minimum-threshold %" PRIu64 " kbytes maximum-threshold %" PRIu64
                    " kbytes drop-probability 7 weight 0%s\n",
                    sw.ecn_late ? kLateWredMinKbytes : kWredMinKbytes,
                    sw.ecn_late ? kLateWredMaxKbytes : kWredMaxKbytes, sw.ecn_off ? "" : " ecn");
      out += wred;
    } else {
      out += "    bandwidth remaining percent " + n(q == lossy ? 100 - kRoceQueuePercent : 0) + "\n";
    }
  }
  out += std::string("policy-map type queuing ") + kIngress + "\n";
  out += "  class type queuing " + groupClass("c-in-q", r) + "\n";
  out += "    pause buffer-size " + n(kPauseBufferSize) + " pause-threshold " + n(kPauseThreshold) +
         " resume-threshold " + n(kResumeThreshold) + "\n";
  out += std::string("policy-map type network-qos ") + kNetwork + "\n";
  out += networkQosClasses(sw, plan, "  ", false);
  out += std::string("system qos\n  service-policy type network-qos ") + kNetwork +
         "\n  service-policy type queuing output " + kEgress + "\n";
  for (const SwitchPort& p : sw.ports) {
    if (!shownPort(p)) continue;
    out += "\ninterface " + p.name + "\n";
    out += std::string("  priority-flow-control mode ") + (p.pfc_roce ? "on" : "off") + "\n";
    out += std::string("  priority-flow-control watch-dog-interval ") + (p.pfc_watchdog ? "on" : "off") + "\n";
    out += std::string("  service-policy type qos input ") + kMarking + "\n";
    out += std::string("  service-policy type queuing input ") + kIngress + "\n";
  }
  out += "\n";
  return out;
}

std::string nxosShowNetworkQos(const Switch& sw, const RoceQosPlan& plan) {
  // The layout of NX-OS 9.x/10.x (the policy's configuration lines under a
  // "Type network-qos policy-maps" banner); reconstructed from Cisco's
  // configuration guides, not a capture (tests/fixtures/nxos/README.md).
  return std::string(
             "\n"
             "  Type network-qos policy-maps\n"
             "  ===============================\n"
             "\n"
             "  policy-map type network-qos ") +
         kNetwork + "\n" + networkQosClasses(sw, plan, "    ", true);
}

std::string nxosShowClassMapQos() {
  // The type-qos class-maps of the running configuration. The layout
  // ("Type qos class-maps" banner, indented class-map/match lines) is
  // reconstructed (tests/fixtures/nxos/SOURCES.md), not a capture.
  return std::string(
             "\n"
             "  Type qos class-maps\n"
             "  ====================\n"
             "\n"
             "    class-map type qos match-all ") +
         kCnpClass + "\n      match dscp " + n(kCnpDscp) + "\n\n    class-map type qos match-all " + kDataClass +
         "\n      match dscp " + n(kRoceDscp) +
         "\n\n    class-map type qos match-any class-default\n      match any\n";
}

std::string nxosShowPfcQueueDetail(const Switch& sw, const RoceQosPlan& plan) {
  const std::string rule = "+----------------------------------------------------+\n";
  const int r = plan.roce_priority;
  std::string out;
  for (const SwitchPort& p : sw.ports) {
    if (!shownPort(p)) continue;
    out += p.name + " Interface PFC watchdog: [" + (p.pfc_watchdog ? "Enabled" : "Disabled") + "]\n";
    out += "Disable-action                     : No\n";
    out += "PFC watch-dog interface-multiplier : 0\n";
    // The watchdog watches the no-drop group only; a leaf that pauses no
    // CoS (pause-cos-missing) has none.
    if (sw.pause_cos_missing) continue;
    out += rule;
    out += "| QOS GROUP " + n(uint64_t(r)) + (p.wd_shutdown ? " [Shutdown]" : " [Ok]") + " PFC [" +
           (p.pfc_roce ? "YES" : "NO") + "] PFC-COS [" + n(uint64_t(r)) + "]\n";
    out += rule;
    out += "|                               |  Stats             |\n";
    out += rule;
    // The watchdog drains what reaches its shut queue and drops nothing
    // else: the drop rows stay 0.
    const std::pair<const char*, uint64_t> stats[] = {
        {"Shutdown", p.wd_shutdown_events},
        {"Restored", p.wd_restored_events},
        {"Total pkts drained", p.wd_drained_pkts},
        {"Total pkts dropped", 0},
        {"Total pkts drained + dropped", p.wd_drained_pkts},
        {"Aggregate pkts dropped", 0},
        {"Total Ingress pkts dropped", 0},
        {"Aggregate Ingress pkts dropped", 0},
    };
    for (const auto& [stat, value] : stats) {
      char row[96];
      std::snprintf(row, sizeof row, "|%31s|%20" PRIu64 "|\n", stat, value);
      out += row;
    }
    out += rule;
  }
  return out;
}

}  // namespace rdmagw::sim
