#include "models/roce_leaves.h"

#include <algorithm>
#include <set>

#include "models/path.h"
#include "models/roce_path.h"

namespace rdmagw::roce {
namespace {

Path ethernet(const std::string& ifname) {
  Path p;
  p.add("interfaces").add("interface", {{"name", ifname}}).add("ethernet");
  return p;
}

void addU(PollBatch& out, const Path& p, uint64_t v, TimestampNs ts) { out.add(p.toString(), Value{v}, ts); }
void addS(PollBatch& out, const Path& p, std::string v, TimestampNs ts) {
  out.add(p.toString(), Value{std::move(v)}, ts);
}

// The policy of one kind the device-wide view uses: the system's, else the
// one every interface that attaches such a policy agrees on (as switchHop).
const PolicyMap* deviceWidePolicy(const SwitchQos& qos, std::optional<std::string> ServicePolicies::*which) {
  std::optional<std::string> name = qos.system.*which;
  if (!name) {
    std::set<std::string> used;
    for (const auto& entry : qos.interfaces) {
      if (entry.second.policies.*which) used.insert(*(entry.second.policies.*which));
    }
    if (used.size() == 1) name = *used.begin();
  }
  if (!name) return nullptr;
  auto it = qos.policy_maps.find(*name);
  return it == qos.policy_maps.end() ? nullptr : &it->second;
}

// The class of `pm` serving qos-group `group`: a system class named for it
// (c-8q-nq5, c-out-8q-q5, c-in-q5) or a class-map that matches the group.
const PolicyClass* classForGroup(const SwitchQos& qos, const PolicyMap* pm, uint32_t group) {
  if (pm == nullptr) return nullptr;
  for (const PolicyClass& c : pm->classes) {
    if (nxosClassQosGroup(c.name) == group) return &c;
    auto cm = qos.class_maps.find(c.name);
    if (cm != qos.class_maps.end() &&
        std::find(cm->second.qos_group.begin(), cm->second.qos_group.end(), group) != cm->second.qos_group.end()) {
      return &c;
    }
  }
  return nullptr;
}

void appendPause(const Path& state, const PauseThresholds& pause, TimestampNs ts, PollBatch& out) {
  if (pause.buffer_size) addU(out, Path(state).add("pause-buffer-size"), *pause.buffer_size, ts);
  if (pause.pause_threshold) addU(out, Path(state).add("pause-threshold"), *pause.pause_threshold, ts);
  if (pause.resume_threshold) addU(out, Path(state).add("resume-threshold"), *pause.resume_threshold, ts);
}

void appendQosGroup(const SwitchQos& qos, uint32_t group, const PolicyMap* nq, const PolicyMap* out_q,
                    const PolicyMap* in_q, TimestampNs ts, PollBatch& out) {
  Path state;
  state.add("qos").add("qos-groups").add("qos-group", {{"id", std::to_string(group)}}).add("state");
  std::optional<PauseThresholds> pause;
  if (const PolicyClass* c = classForGroup(qos, nq, group)) {
    addU(out, Path(state).add("pause-cos"), c->pause_pfc_cos.value_or(0), ts);
    if (c->mtu) addU(out, Path(state).add("mtu"), *c->mtu, ts);
    if (c->pause) pause = c->pause;
  }
  if (const PolicyClass* c = classForGroup(qos, out_q, group)) {
    addS(out, Path(state).add("egress-queue"), c->name, ts);
    if (c->priority_level) addU(out, Path(state).add("priority-level"), *c->priority_level, ts);
    if (std::optional<uint32_t> bw = c->bandwidth_remaining_percent ? c->bandwidth_remaining_percent
                                                                    : c->bandwidth_percent) {
      addU(out, Path(state).add("bandwidth-percent"), *bw, ts);
    }
    // A queue without random-detect does not mark: ECN 0 is known, not absent.
    addU(out, Path(state).add("ecn"), c->wred && c->wred->ecn ? 1 : 0, ts);
    if (c->wred) {
      if (c->wred->min_threshold) {
        if (auto b = wredThresholdBytes(*c->wred->min_threshold, c->wred->unit)) {
          addU(out, Path(state).add("wred-min-threshold"), *b, ts);
        }
      }
      if (c->wred->max_threshold) {
        if (auto b = wredThresholdBytes(*c->wred->max_threshold, c->wred->unit)) {
          addU(out, Path(state).add("wred-max-threshold"), *b, ts);
        }
      }
    }
  }
  // Ingress queuing thresholds win over network-qos ones, as on the switch.
  if (const PolicyClass* c = classForGroup(qos, in_q, group); c != nullptr && c->pause) pause = c->pause;
  if (pause) appendPause(state, *pause, ts, out);
}

}  // namespace

std::optional<uint64_t> wredThresholdBytes(uint64_t value, const std::string& unit) {
  uint64_t scale = 0;
  if (unit == "bytes") scale = 1;
  else if (unit == "kbytes") scale = 1024;
  else if (unit == "mbytes") scale = 1024 * 1024;
  if (scale == 0 || value > UINT64_MAX / scale) return std::nullopt;
  return value * scale;
}

void appendHostPortLeaves(const HostPort& port, TimestampNs ts, PollBatch& out) {
  const Path eth = ethernet(port.name);
  // A table read whole replaces its rows: a DSCP rule deleted on the host,
  // or a class gone from ETS to strict (no bandwidth), must not stay behind.
  const Path dcb = Path(eth).add("dcb");
  if (port.read_dscp_map) out.replaceSubtree(Path(dcb).add("dscp-priorities").toString());
  if (port.read_ets) out.replaceSubtree(Path(dcb).add("traffic-classes").toString());
  if (port.read_ets && port.read_buffers) out.replaceSubtree(Path(dcb).add("priorities").toString());
  if (port.trust) addS(out, Path(eth).add("dcb").add("state").add("trust"), trustName(*port.trust), ts);
  if (port.pfc_enabled) addU(out, Path(eth).add("pfc").add("state").add("enabled-priorities"), *port.pfc_enabled, ts);
  const Path dcqcn = Path(eth).add("dcqcn").add("state");
  if (port.dcqcn.np_enabled) addU(out, Path(dcqcn).add("np-enabled-priorities"), *port.dcqcn.np_enabled, ts);
  if (port.dcqcn.rp_enabled) addU(out, Path(dcqcn).add("rp-enabled-priorities"), *port.dcqcn.rp_enabled, ts);
  if (port.dcqcn.cnp_dscp) addU(out, Path(dcqcn).add("cnp-dscp"), *port.dcqcn.cnp_dscp, ts);
  if (port.dcqcn.cnp_802p_prio) addU(out, Path(dcqcn).add("cnp-802p-priority"), *port.dcqcn.cnp_802p_prio, ts);
  for (const auto& [dscp, prio] : port.dscp_priority) {
    Path p = Path(eth).add("dcb").add("dscp-priorities").add("dscp-priority", {{"dscp", std::to_string(dscp)}});
    addU(out, p.add("state").add("priority"), prio, ts);
  }
  for (int i = 0; i < kPriorities; ++i) {
    const Path prio =
        Path(eth).add("dcb").add("priorities").add("priority", {{"id", std::to_string(i)}}).add("state");
    if (port.priority_tc[i]) addU(out, Path(prio).add("traffic-class"), *port.priority_tc[i], ts);
    if (std::optional<uint32_t> buf = port.priority_buffer[i]; buf && *buf < uint32_t(kPriorities)) {
      if (port.buffer_bytes[*buf]) addU(out, Path(prio).add("receive-buffer-bytes"), *port.buffer_bytes[*buf], ts);
    }
  }
  for (int i = 0; i < kPriorities; ++i) {
    const Path tc =
        Path(eth).add("dcb").add("traffic-classes").add("traffic-class", {{"id", std::to_string(i)}}).add("state");
    if (port.tc[i].tsa) addS(out, Path(tc).add("tsa"), tsaName(*port.tc[i].tsa), ts);
    if (port.tc[i].bandwidth_percent) addU(out, Path(tc).add("bandwidth-percent"), *port.tc[i].bandwidth_percent, ts);
  }
}

void appendRdmaCmLeaves(const std::vector<RdmaCmPort>& ports, TimestampNs ts, PollBatch& out) {
  for (const RdmaCmPort& cm : ports) {
    Path state;
    state.add("rdma").add("devices").add("device", {{"name", cm.device}});
    state.add("ports").add("port", {{"port-num", std::to_string(cm.port)}}).add("state");
    if (cm.default_roce_tos) addU(out, Path(state).add("default-roce-tos"), *cm.default_roce_tos, ts);
    if (cm.default_roce_mode) addS(out, Path(state).add("default-roce-mode"), *cm.default_roce_mode, ts);
  }
}

void appendSwitchQosLeaves(const SwitchQos& qos, TimestampNs ts, PollBatch& out) {
  // The running configuration is read whole: rows it no longer gives (a
  // class removed, a queue no longer strict) are deleted from the store.
  for (const char* table : {"dscp-map", "qos-groups", "pfc-watchdog"}) {
    Path p;
    p.add("qos").add(table);
    out.replaceSubtree(p.toString());
  }
  // class-default's DSCPs are listed too (qos-group 0) once some class
  // classifies, so a reader needs no rule for a DSCP without a row: that is
  // unknown. No class at all: classification unknown, no row.
  std::vector<RoceHop> hops;
  bool classified = false;
  for (uint32_t dscp = 0; dscp <= uint32_t(kMaxDscp); ++dscp) {
    hops.push_back(switchHop(qos, dscp, ""));
    const RoceHop& hop = hops.back();
    classified = classified || (!hop.classified_by.empty() && hop.classified_by != "class-default");
  }
  for (uint32_t dscp = 0; classified && dscp <= uint32_t(kMaxDscp); ++dscp) {
    const RoceHop& hop = hops[dscp];
    if (hop.classified_by.empty()) continue;
    const uint64_t group = hop.classified_by == "class-default" ? 0 : hop.qos_group.value_or(0);
    Path p;
    p.add("qos").add("dscp-map").add("dscp", {{"value", std::to_string(dscp)}}).add("state").add("qos-group");
    addU(out, p, group, ts);
  }
  const PolicyMap* nq = nullptr;
  if (qos.system.network_qos) {
    auto it = qos.policy_maps.find(*qos.system.network_qos);
    if (it != qos.policy_maps.end()) nq = &it->second;
  }
  const PolicyMap* out_q = deviceWidePolicy(qos, &ServicePolicies::queuing_output);
  const PolicyMap* in_q = deviceWidePolicy(qos, &ServicePolicies::queuing_input);
  for (uint32_t group = 0; group < uint32_t(kPriorities); ++group) {
    appendQosGroup(qos, group, nq, out_q, in_q, ts, out);
  }
  if (qos.global_watchdog_interval) {
    Path p;
    p.add("qos").add("pfc-watchdog").add("state").add("interval");
    addS(out, p, *qos.global_watchdog_interval, ts);
  }
  for (const auto& [name, intf] : qos.interfaces) {
    if (intf.watchdog_interval) {
      addS(out, ethernet(name).add("pfc").add("state").add("watchdog-interval"), *intf.watchdog_interval, ts);
    }
  }
}

}  // namespace rdmagw::roce
