#include "sim/fabric.h"

#include <algorithm>
#include <cmath>

#include "sim/fabric_internal.h"
#include "sim/naming.h"
#include "sim/prng.h"

namespace rdmagw::sim {

using namespace internal;

Fabric::Fabric(FabricConfig config) : config_(config) {
  config_.hosts = std::clamp(config_.hosts, 1, 4096);
  config_.devices_per_host = std::clamp(config_.devices_per_host, 1, 16);
  config_.roce_priority = std::clamp(config_.roce_priority, 0, kPriorities - 1);
  if (!(config_.link_gbps >= 1 && config_.link_gbps <= 1600)) config_.link_gbps = 100;
  config_.switches = std::clamp(config_.switches, 1, 256);  // as FabricConfig::validate
  config_.esxi_hosts = std::clamp(config_.esxi_hosts, 0, 64);
  config_.mlnx_qos_hosts = std::clamp(config_.mlnx_qos_hosts, 0, config_.hosts);
  config_.internal_ports = std::clamp(config_.internal_ports, 1, 16);

  // The only floating-point step: the configured rate becomes integers once.
  const auto cap_bytes = static_cast<uint64_t>(std::llround(config_.link_gbps * 125'000'000.0));
  cap_pkts_ = cap_bytes / kPacketBytes;
  buffer_pkts_ = cap_pkts_ / 8;
  const uint64_t bits_per_us = std::max<uint64_t>(1, cap_bytes * 8 / kUsPerTick);
  // mlx5 refreshes a pause at about half its quanta so the peer never resumes.
  refresh_us_ = std::max<uint64_t>(1, kPauseQuantaBits / bits_per_us / 2);
  rate_ = rateString(config_.link_gbps);

  buildEndpoints();
  port(0).rx_write_requests = (1ULL << 32) - kWrapHeadroom;
  buildBackgroundFlows();
  rebuildHotFlows();
}

const Device& Fabric::device(int global) const {
  return hosts_[global / config_.devices_per_host].devices[global % config_.devices_per_host];
}

PortCounters& Fabric::port(int e) {
  if (e < device_count_) {
    return hosts_[e / config_.devices_per_host].devices[e % config_.devices_per_host].port;
  }
  const int v = e - device_count_;
  return esxi_[v / 2].nics[v % 2].port;
}

const PortCounters& Fabric::endpointPort(int e) const {
  return const_cast<Fabric*>(this)->port(e);
}

std::string Fabric::endpointName(int e) const {
  if (e < device_count_) {
    return hosts_[e / config_.devices_per_host].name + ":" + device(e).name;
  }
  const int v = e - device_count_;
  return esxi_[v / 2].name + ":" + esxi_[v / 2].nics[v % 2].name;
}

uint64_t Fabric::noise(int e, uint64_t salt, uint64_t modulo) const {
  return mix(config_.seed, uint64_t(tick_), uint64_t(e), salt) % modulo;
}

void Fabric::buildBackgroundFlows() {
  const int n = endpointCount();
  if (n < 2) return;
  // Every sender uses the same offsets, so every endpoint also receives
  // exactly kBackgroundFlows flows: no receiver is left idle by chance.
  std::vector<int> offsets;
  for (int k = 0; k < std::min(kBackgroundFlows, n - 1); ++k) {
    int off = 1 + int(mix(config_.seed, kBgOffset, k) % uint64_t(n - 1));
    while (std::find(offsets.begin(), offsets.end(), off) != offsets.end()) off = off % (n - 1) + 1;
    offsets.push_back(off);
  }
  for (int s = 0; s < n; ++s) {
    for (size_t k = 0; k < offsets.size(); ++k) {
      const uint64_t pct = 20 + mix(config_.seed, kBgDemand, s, k) % 26;  // 20..45% of line
      const uint64_t demand = cap_pkts_ * pct / 100;
      flows_.push_back({s, (s + offsets[k]) % n, demand, demand, false});
    }
  }
  background_flows_ = flows_.size();
}

void Fabric::rebuildHotFlows() {
  flows_.resize(background_flows_ + scenario_flows_);
  const int n = endpointCount();
  if (n < 2 || config_.calm) return;
  const uint64_t epoch = uint64_t(tick_ / kEpochTicks);
  const int spots = std::max(1, n / 8);
  std::vector<int> hot(spots);
  for (int j = 0; j < spots; ++j) hot[j] = int(mix(config_.seed, kHotReceiver, epoch, j) % n);
  for (int s = 0; s < n; ++s) {
    const int dst = hot[mix(config_.seed, kHotPick, epoch, s) % spots];
    if (dst == s || mix(config_.seed, kHotJoin, epoch, s) % 4 == 3) continue;  // ~3/4 join
    const uint64_t pct = 40 + mix(config_.seed, kHotDemand, epoch, s) % 41;  // 40..80%
    const uint64_t demand = cap_pkts_ * pct / 100;
    flows_.push_back({s, dst, demand, demand, true});
  }
}

void Fabric::sendRoce(std::vector<uint64_t>* sent) {
  // A sender's flows share its link, minus the time PFC held it last tick.
  std::vector<uint64_t> wanted(endpointCount(), 0);
  for (const Flow& f : flows_) wanted[f.src] += f.rate;
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& f = flows_[i];
    const uint64_t avail = cap_pkts_ - mulDiv(cap_pkts_, state_[f.src].paused_us, kUsPerTick);
    (*sent)[i] = wanted[f.src] > avail ? mulDiv(f.rate, avail, wanted[f.src]) : f.rate;
    if (linkDown(f.src) || linkDown(f.dst)) (*sent)[i] = 0;  // no link, no packet
  }
}

void Fabric::step() {
  if (tick_ > 0 && tick_ % kEpochTicks == 0) rebuildHotFlows();
  report_ = TickReport();
  sendTcp();

  std::vector<uint64_t> sent(flows_.size(), 0);
  sendRoce(&sent);
  std::vector<std::vector<size_t>> by_dst(endpointCount());
  for (size_t i = 0; i < flows_.size(); ++i) by_dst[flows_[i].dst].push_back(i);

  std::vector<uint64_t> paused_next(endpointCount(), 0);
  std::vector<uint64_t> nic_paused_next(endpointCount(), 0);
  cut_.assign(flows_.size(), false);
  for (int r = 0; r < endpointCount(); ++r) {
    const uint64_t delivered = receive(r, by_dst[r], sent, &paused_next);
    nicPause(r, delivered, &nic_paused_next);
  }

  watchdogTick();
  for (int e = 0; e < endpointCount(); ++e) {
    state_[e].paused_us = paused_next[e];
    state_[e].egress_paused_us = nic_paused_next[e];
    port(e).rx_roce_prio_pause_duration += paused_next[e];
    port(e).port_xmit_wait += paused_next[e];  // had data, could not send
  }
  sendCnps();
  sendControl();
  // PFC on a priority no network-qos class pauses: the leaf counts the
  // frames per CoS and ignores them.
  if (scenario_.kind == ScenarioKind::kPfcLossyPrio && cast_.faulty >= 0) {
    topo_.nicPause(cast_.faulty, lossyPriority(), kLossyPauseFrames);
  }
  topo_.finishTick();
  // DCQCN: multiplicative decrease was applied in receive(); the rest recover.
  const uint64_t increase = std::max<uint64_t>(1, cap_pkts_ / 16);
  for (size_t i = 0; i < flows_.size(); ++i) {
    if (!cut_[i]) flows_[i].rate = std::min(flows_[i].demand, flows_[i].rate + increase);
  }
  ++tick_;
}

uint64_t Fabric::receive(int dst, const std::vector<size_t>& flows, std::vector<uint64_t>& sent,
                     std::vector<uint64_t>* paused_next) {
  const int prio = config_.roce_priority;
  DeviceState& st = state_[dst];
  uint64_t arrivals = 0;
  for (size_t i : flows) arrivals += sent[i];
  st.arrivals = arrivals;

  // The leaf's egress port drains at most its link, less the time the
  // receiver's NIC paused it; what does not fit waits in the queue, and what
  // does not fit under the queue's PFC threshold stays at the senders.
  const uint64_t drain = cap_pkts_ - mulDiv(cap_pkts_, st.egress_paused_us, kUsPerTick);
  const uint64_t backlog = st.buffer + arrivals;
  const uint64_t delivered = std::min(drain, backlog);
  const uint64_t queued = backlog - delivered;
  const uint64_t held = queued > buffer_pkts_ ? queued - buffer_pkts_ : 0;
  std::vector<uint64_t> dropped(flows.size(), 0);
  if (held > 0) {
    // Split `held` over the flows in proportion, then hand out the rounding
    // remainder one packet at a time so the parts sum exactly.
    std::vector<uint64_t> offered;
    for (size_t i : flows) offered.push_back(sent[i]);
    uint64_t left = held;
    for (size_t i : flows) {
      const uint64_t part = mulDiv(held, sent[i], arrivals);
      sent[i] -= part;
      left -= part;
    }
    for (size_t i : flows) {
      if (left == 0) break;
      if (sent[i] > 0) {
        --sent[i];
        --left;
      }
    }
    // A sender that ignores the pause sent its share anyway: the leaf drops it.
    for (size_t k = 0; k < flows.size(); ++k) {
      if (pfcOff(flows_[flows[k]].src)) dropped[k] = offered[k] - sent[flows[k]];
    }
  }
  const uint64_t admitted = arrivals - held;
  // Packets that arrive while the egress link is busy queue and get CE-marked.
  const uint64_t old_buffer = st.buffer;
  const uint64_t excess =
      old_buffer + admitted > drain ? std::min(admitted, old_buffer + admitted - drain) : 0;
  st.buffer = queued - held;
  if (excess > 0) report_.congested.push_back(dst);

  PortCounters& rx = port(dst);
  const uint64_t min_rate = std::max<uint64_t>(1, cap_pkts_ / 64);
  for (size_t k = 0; k < flows.size(); ++k) {
    const size_t i = flows[k];
    Flow& f = flows_[i];
    PortCounters& tx = port(f.src);
    // What left the sender: what the leaf admitted plus what it dropped.
    const uint64_t pkts = sent[i] + dropped[k];
    tx.port_xmit_packets += pkts;
    tx.unicast_xmit_packets += pkts;
    tx.port_xmit_data += pkts * kPacketBytes / 4;
    tx.tx_prio_packets[prio] += pkts;
    tx.tx_prio_bytes[prio] += pkts * kPacketBytes;
    tx.tx_packets += pkts;
    tx.tx_bytes += pkts * kPacketBytes;
    topo_.carryIn(f.src, dst, prio, pkts, pkts * kPacketBytes);
    if (dropped[k] > 0) {
      topo_.tailDrop(dst, prio, dropped[k], dropped[k] * kPacketBytes);
      totals_.lossless_drops += dropped[k];
    }

    const uint64_t marked = mulDiv(sent[i], excess, admitted);
    if (marked == 0) continue;
    // The leaf marks, the receiver counts the marks it sees: the same packets.
    topo_.markEcn(dst, prio, marked, marked * kPacketBytes);
    rx.np_ecn_marked_roce_packets += marked;
    totals_.ecn_marks += marked;
    // A notification point that is off counts the marks and answers none.
    if (npOff(dst)) continue;
    const uint64_t cnps = std::max<uint64_t>(1, marked / kMarksPerCnp);
    rx.np_cnp_sent += cnps;
    totals_.cnps += cnps;
    // A flow already at its floor cannot slow down further: the RP ignores
    // it; a reaction point that is off ignores every CNP.
    const bool handled = !rpOff(f.src) && f.rate > min_rate;
    if (handled) {
      tx.rp_cnp_handled += cnps;
      f.rate = std::max(min_rate, f.rate - f.rate / 4);
      cut_[i] = true;
    } else {
      tx.rp_cnp_ignored += cnps;
    }
    report_.cnps.push_back({dst, f.src, marked, cnps, handled});
  }

  topo_.carryOut(dst, prio, delivered, delivered * kPacketBytes);
  topo_.setQueueDepth(dst, prio, st.buffer * kPacketBytes);
  rx.port_rcv_packets += delivered;
  rx.unicast_rcv_packets += delivered;
  rx.port_rcv_data += delivered * kPacketBytes / 4;
  rx.rx_prio_packets[prio] += delivered;
  rx.rx_prio_bytes[prio] += delivered * kPacketBytes;
  rx.rx_packets += delivered;
  rx.rx_bytes += delivered * kPacketBytes;
  add32(rx.rx_write_requests, delivered / kPktsPerWrite);
  add32(rx.rx_read_requests, delivered / 4096);
  add32(rx.rx_atomic_requests, noise(dst, kAtomics, 3));
  add32(rx.out_of_buffer, noise(dst, kOutOfBuffer, 4) == 0 ? 1 : 0);
  if (held == 0) return delivered;

  // PFC: the leaf pauses every port feeding this queue for the share of the
  // tick it had to hold back, refreshing the pause while it lasts.
  const uint64_t pause_us = std::clamp<uint64_t>(mulDiv(held, kUsPerTick, arrivals), 1, kUsPerTick);
  const uint64_t frames = std::max<uint64_t>(1, pause_us / refresh_us_);
  std::vector<int> senders;
  for (size_t i : flows) {
    const int s = flows_[i].src;
    if (std::find(senders.begin(), senders.end(), s) != senders.end()) continue;
    senders.push_back(s);
    PortCounters& tx = port(s);
    if (switchPfcOff(s)) {
      // The leaf port does no PFC on the priority: it sends that NIC nothing.
      senders.pop_back();
      continue;
    }
    if (pfcOff(s)) {
      // The MAC sees the frames; the NIC, without PFC on the priority,
      // neither counts them per priority nor stops sending.
      tx.rx_pause_ctrl_phy += frames;
      totals_.ignored_pause_frames += frames;
      report_.pauses.push_back({dst, s, frames, 0});
      continue;
    }
    tx.rx_roce_prio_pause += frames;
    tx.rx_pause_ctrl_phy += frames;
    tx.rx_roce_prio_pause_transition += 1 + frames / kFramesPerEpisode;
    totals_.pause_frames += frames;
    (*paused_next)[s] = std::max((*paused_next)[s], pause_us);
    report_.pauses.push_back({dst, s, frames, pause_us});
  }
  topo_.pauseSenders(dst, senders, prio, frames);
  return delivered;
}

uint64_t Fabric::hostDrain(int e) const {
  if (config_.calm) return cap_pkts_;
  // Now and then a host's memory or PCIe cannot keep up with line rate; for
  // one epoch in 32 it is stuck at 40%, which ends in pause storms.
  if (mix(config_.seed, kHostStuck, uint64_t(tick_ / kEpochTicks), uint64_t(e)) % 32 == 0) {
    return cap_pkts_ * 2 / 5;
  }
  const uint64_t r = noise(e, kHostSlow, 100);
  return r < 30 ? cap_pkts_ - cap_pkts_ * (2 + r % 6) / 100 : cap_pkts_;
}

void Fabric::nicPause(int dst, uint64_t delivered, std::vector<uint64_t>* nic_paused_next) {
  PortCounters& rx = port(dst);
  DeviceState& st = state_[dst];
  // A storming NIC asserts pause all the time, whatever arrives.
  const bool storm = storming(dst);
  const uint64_t h = storm ? 0 : hostDrain(dst);
  if (!storm && delivered <= h) {
    st.pause_streak = 0;
    st.full_pause_streak = 0;
    return;
  }
  // The NIC pauses its leaf port long enough that next tick brings no more
  // than the host can take.
  const uint64_t pause_us = std::max<uint64_t>(1, kUsPerTick - mulDiv(h, kUsPerTick, cap_pkts_));
  const uint64_t frames = std::max<uint64_t>(1, pause_us / refresh_us_);
  const int prio = config_.roce_priority;
  rx.tx_roce_prio_pause += frames;
  rx.tx_pause_ctrl_phy += frames;
  rx.tx_roce_prio_pause_duration += pause_us;
  topo_.nicPause(dst, prio, frames);
  totals_.nic_pause_frames += frames;
  (*nic_paused_next)[dst] = pause_us;
  st.pause_streak = pause_us >= kStormUs ? st.pause_streak + 1 : 0;
  st.full_pause_streak = pause_us >= kUsPerTick ? st.full_pause_streak + 1 : 0;
  if (st.pause_streak == kStormWarnTicks) ++rx.tx_pause_storm_warning_events;
  if (st.pause_streak == kStormErrorTicks) ++rx.tx_pause_storm_error_events;
}

void Fabric::watchdogTick() {
  for (int e = 0; e < endpointCount(); ++e) {
    SwitchPort& p = topo_.portOf(e);
    // It watches a no-drop queue: a port without PFC on RoCE has none.
    const bool shut = p.pfc_watchdog && p.pfc_roce &&
                      (state_[e].full_pause_streak >= kWatchdogTicks || falseTrip(e));
    if (shut && !p.wd_shutdown) ++p.wd_shutdown_events;
    if (!shut && p.wd_shutdown) ++p.wd_restored_events;
    p.wd_shutdown = shut;
    // What reaches a shut queue is drained (counted, not modelled: the
    // pause it would have caused still propagates as before).
    if (shut) p.wd_drained_pkts += state_[e].arrivals;
  }
}

}  // namespace rdmagw::sim
