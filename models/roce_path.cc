#include "models/roce_path.h"

#include <algorithm>
#include <set>

namespace rdmagw::roce {

namespace {

bool bit(std::optional<uint8_t> bits, uint32_t n) { return bits && n < 8 && ((*bits >> n) & 1u) != 0; }

void fillFromPriority(const HostPort& port, uint32_t prio, RoceHop& hop) {
  hop.priority = prio;
  if (prio >= uint32_t(kPriorities)) return;
  hop.lossless = bit(port.pfc_enabled, prio);
  if (port.dcqcn.np_enabled) hop.dcqcn_np = bit(port.dcqcn.np_enabled, prio);
  if (port.dcqcn.rp_enabled) hop.dcqcn_rp = bit(port.dcqcn.rp_enabled, prio);
  if (std::optional<uint32_t> tc = port.priority_tc[prio]; tc && *tc < uint32_t(kPriorities)) {
    hop.traffic_class = *tc;
    hop.tsa = port.tc[*tc].tsa;
    hop.bandwidth_percent = port.tc[*tc].bandwidth_percent;
  }
  if (std::optional<uint32_t> buf = port.priority_buffer[prio]; buf && *buf < uint32_t(kPriorities)) {
    hop.receive_buffer_bytes = port.buffer_bytes[*buf];
  }
}

// The policy of one kind that applies: the interface's, else the system's.
// The device-wide view (no interface) takes, without a system policy, the one
// every interface that attaches such a policy agrees on; a named port without
// one has none (the switch does not borrow a neighbour's).
std::optional<std::string> attached(const SwitchQos& qos, const std::string& interface,
                                    std::optional<std::string> ServicePolicies::*which) {
  if (!interface.empty()) {
    auto it = qos.interfaces.find(interface);
    if (it != qos.interfaces.end() && it->second.policies.*which) return it->second.policies.*which;
    return qos.system.*which;
  }
  if (qos.system.*which) return qos.system.*which;
  std::set<std::string> used;
  for (const auto& entry : qos.interfaces) {
    if (entry.second.policies.*which) used.insert(*(entry.second.policies.*which));
  }
  if (used.size() == 1) return *used.begin();
  return std::nullopt;
}

const PolicyMap* policy(const SwitchQos& qos, const std::optional<std::string>& name) {
  if (!name) return nullptr;
  auto it = qos.policy_maps.find(*name);
  return it == qos.policy_maps.end() ? nullptr : &it->second;
}

bool contains(const std::vector<uint32_t>& v, uint32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The class of `pm` that serves qos-group `group`: a system class named for
// it, or a user class-map that matches it.
const PolicyClass* classForGroup(const SwitchQos& qos, const PolicyMap* pm, uint32_t group) {
  if (pm == nullptr) return nullptr;
  for (const PolicyClass& c : pm->classes) {
    if (nxosClassQosGroup(c.name) == group) return &c;
    auto cm = qos.class_maps.find(c.name);
    if (cm != qos.class_maps.end() && contains(cm->second.qos_group, group)) return &c;
  }
  return nullptr;
}

bool pfcModeOff(const SwitchQos& qos, const std::string& interface) {
  if (interface.empty()) return false;
  auto it = qos.interfaces.find(interface);
  return it != qos.interfaces.end() && it->second.pfc_mode == "off";
}

}  // namespace

std::optional<uint32_t> nxosClassQosGroup(const std::string& name) {
  for (const char* prefix : {"c-8q-nq", "c-nq", "c-out-8q-q", "c-out-q", "c-in-8q-q", "c-in-q"}) {
    const std::string p(prefix);
    if (name.size() <= p.size() || name.compare(0, p.size(), p) != 0) continue;
    const std::string rest = name.substr(p.size());
    if (rest == "-default") return 0;
    if (rest.size() == 1 && rest[0] >= '0' && rest[0] <= '7') return uint32_t(rest[0] - '0');
  }
  return std::nullopt;
}

RoceHop hostHop(const HostPort& port, uint32_t dscp) {
  RoceHop hop;
  hop.dscp = dscp;
  if (port.trust != Trust::kDscp) return hop;
  auto it = port.dscp_priority.find(dscp);
  if (it == port.dscp_priority.end()) return hop;
  fillFromPriority(port, it->second, hop);
  return hop;
}

RocePath hostRocePath(const DeviceRoceConfig& device, const std::string& name,
                      std::optional<uint32_t> roce_dscp) {
  RocePath path;
  auto it = device.ports.find(name);
  if (it == device.ports.end()) return path;
  const HostPort& port = it->second;
  path.paused_priorities = port.pfc_enabled.value_or(0);
  if (!roce_dscp) {
    for (const RdmaCmPort& cm : device.rdma_cm) {
      if (cm.default_roce_tos) {
        roce_dscp = *cm.default_roce_tos >> 2;
        break;
      }
    }
  }
  if (roce_dscp) path.roce = hostHop(port, *roce_dscp);
  if (port.dcqcn.cnp_dscp) {
    RoceHop cnp = hostHop(port, *port.dcqcn.cnp_dscp);
    // The NIC tags its CNPs with this priority whatever the DSCP map says.
    if (port.dcqcn.cnp_802p_prio) {
      cnp = RoceHop{};
      cnp.dscp = *port.dcqcn.cnp_dscp;
      fillFromPriority(port, *port.dcqcn.cnp_802p_prio, cnp);
    }
    path.cnp = cnp;
  }
  return path;
}

uint8_t switchPausedPriorities(const SwitchQos& qos, const std::string& interface) {
  if (pfcModeOff(qos, interface)) return 0;
  const PolicyMap* nq = policy(qos, qos.system.network_qos);
  if (nq == nullptr) return 0;
  uint8_t bits = 0;
  for (const PolicyClass& c : nq->classes) bits |= c.pause_pfc_cos.value_or(0);
  return bits;
}

RoceHop switchHop(const SwitchQos& qos, uint32_t dscp, const std::string& interface) {
  RoceHop hop;
  hop.dscp = dscp;
  const PolicyMap* classify = policy(qos, attached(qos, interface, &ServicePolicies::qos_input));
  uint32_t group = 0;  // NX-OS: unclassified traffic is qos-group 0
  hop.classified_by = "class-default";
  if (classify != nullptr) {
    for (const PolicyClass& c : classify->classes) {
      auto cm = qos.class_maps.find(c.name);
      const bool matches = c.name == "class-default" ||
                           (cm != qos.class_maps.end() && contains(cm->second.dscp, dscp));
      if (!matches) continue;
      hop.classified_by = c.name;
      if (c.set_qos_group) group = *c.set_qos_group;
      break;
    }
  }
  hop.qos_group = group;
  if (const PolicyClass* nq = classForGroup(qos, policy(qos, qos.system.network_qos), group)) {
    hop.mtu = nq->mtu;
    if (nq->pause) hop.ingress_pause = nq->pause;
    if (nq->pause_pfc_cos && *nq->pause_pfc_cos != 0) {
      for (uint32_t c = 0; c < 8; ++c) {
        if (bit(nq->pause_pfc_cos, c)) {
          hop.priority = c;
          break;
        }
      }
      hop.lossless = !pfcModeOff(qos, interface);
    }
  }
  const PolicyMap* out = policy(qos, attached(qos, interface, &ServicePolicies::queuing_output));
  if (const PolicyClass* q = classForGroup(qos, out, group)) {
    hop.egress_queue = q->name;
    hop.priority_level = q->priority_level;
    hop.bandwidth_percent = q->bandwidth_remaining_percent ? q->bandwidth_remaining_percent : q->bandwidth_percent;
    if (q->priority_level) hop.tsa = Tsa::kStrict;
    else if (hop.bandwidth_percent) hop.tsa = Tsa::kEts;
    hop.wred = q->wred;
  }
  const PolicyMap* in = policy(qos, attached(qos, interface, &ServicePolicies::queuing_input));
  if (const PolicyClass* q = classForGroup(qos, in, group); q != nullptr && q->pause) hop.ingress_pause = q->pause;
  return hop;
}

RocePath switchRocePath(const SwitchQos& qos, uint32_t roce_dscp, std::optional<uint32_t> cnp_dscp,
                        const std::string& interface) {
  RocePath path;
  path.paused_priorities = switchPausedPriorities(qos, interface);
  path.roce = switchHop(qos, roce_dscp, interface);
  if (cnp_dscp) path.cnp = switchHop(qos, *cnp_dscp, interface);
  return path;
}

std::vector<uint32_t> switchLosslessDscps(const SwitchQos& qos, const std::string& interface) {
  std::vector<uint32_t> out;
  for (uint32_t d = 0; d <= uint32_t(kMaxDscp); ++d) {
    if (switchHop(qos, d, interface).lossless) out.push_back(d);
  }
  return out;
}

}  // namespace rdmagw::roce
