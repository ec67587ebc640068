#include "sim/topology.h"

#include <algorithm>
#include <cstdio>

#include "sim/naming.h"

namespace rdmagw::sim {
namespace {

constexpr uint64_t kMaxStdFrame = 1518;

bool seen(std::vector<std::pair<int, int>>* done, std::pair<int, int> key) {
  if (std::find(done->begin(), done->end(), key) != done->end()) return true;
  done->push_back(key);
  return false;
}

}  // namespace

Topology::Topology(int switches, int internal_ports, const std::vector<int>& leaf_of,
                   const std::vector<std::string>& labels) {
  switches_.resize(switches);
  att_.resize(leaf_of.size());
  std::vector<int> count(switches, 0);
  for (int leaf : leaf_of) ++count[leaf];
  for (int s = 0; s < switches; ++s) {
    Switch& sw = switches_[s];
    sw.name = switchName(s, switches);
    char mac[32];
    std::snprintf(mac, sizeof mac, "00de.fb%02x.0000", unsigned(s + 1) & 0xff);
    sw.mac = mac;
    sw.host_ports = count[s];
    sw.uplinks = switches > 1 ? kUplinks : 0;
    sw.ports.resize(size_t(sw.host_ports + sw.uplinks + internal_ports));
    for (int u = 0; u < sw.uplinks; ++u) {
      SwitchPort& p = sw.ports[sw.uplinkIndex(u)];
      p.name = "Ethernet1/" + std::to_string(sw.host_ports + u + 1);
      p.kind = PortKind::kUplink;
      p.description = "spine" + std::to_string(u + 1);
      p.asic = u % 2;
    }
    for (int k = 0; k < internal_ports; ++k) {
      SwitchPort& p = sw.ports[sw.internalIndex(k)];
      p.name = "ii1/1/" + std::to_string(k + 1);
      p.kind = PortKind::kInternal;
      p.description = "ASIC fabric link";
      p.asic = k % 2;
    }
  }
  std::fill(count.begin(), count.end(), 0);
  for (size_t e = 0; e < leaf_of.size(); ++e) {
    const int s = leaf_of[e];
    Switch& sw = switches_[s];
    const int idx = count[s]++;
    SwitchPort& p = sw.ports[idx];
    p.name = "Ethernet1/" + std::to_string(idx + 1);
    p.kind = PortKind::kHost;
    p.description = labels[e];
    p.asic = idx < (sw.host_ports + 1) / 2 ? 0 : 1;
    p.endpoint = int(e);
    att_[e] = {s, idx};
  }
}

const SwitchPort& Topology::portOf(int endpoint) const {
  const Attachment& a = att_[endpoint];
  return switches_[a.sw].ports[a.port];
}

SwitchPort& Topology::portOf(int endpoint) {
  const Attachment& a = att_[endpoint];
  return switches_[a.sw].ports[a.port];
}

int Topology::uplinkFor(int src, int dst) const {
  // Per pair, not per flow: ECMP hashes the 5-tuple, and all of a pair's
  // flows here share one queue pair, so they take one path.
  return int((unsigned(src) * 31u + unsigned(dst)) % Topology::kUplinks);
}

void Topology::crossAsics(int sw, int in, int out, uint64_t pkts, uint64_t bytes) {
  Switch& x = switches_[sw];
  const int k = x.internalPorts();
  if (k == 0 || x.ports[in].asic == x.ports[out].asic) return;
  // The same ii port pauseBack() picks for this pair of ports; one row shows
  // both ends of the internal link, as for its PFC frames.
  SwitchPort& ii = x.ports[x.internalIndex((out + in) % k)];
  ii.in_ucast += pkts;
  ii.in_octets += bytes;
  ii.out_ucast += pkts;
  ii.out_octets += bytes;
  if (bytes > pkts * kMaxStdFrame) {
    ii.in_jumbo += pkts;
    ii.out_jumbo += pkts;
  }
}

void Topology::carryIn(int src, int dst, int qos, uint64_t pkts, uint64_t bytes) {
  const Attachment& a = att_[src];
  SwitchPort& in = switches_[a.sw].ports[a.port];
  in.in_ucast += pkts;
  in.in_octets += bytes;
  if (bytes > pkts * kMaxStdFrame) in.in_jumbo += pkts;
  const Attachment& b = att_[dst];
  if (a.sw == b.sw) {
    crossAsics(a.sw, a.port, b.port, pkts, bytes);
    return;
  }
  const int u = uplinkFor(src, dst);
  crossAsics(a.sw, a.port, switches_[a.sw].uplinkIndex(u), pkts, bytes);
  crossAsics(b.sw, switches_[b.sw].uplinkIndex(u), b.port, pkts, bytes);
  SwitchPort& up = switches_[a.sw].ports[switches_[a.sw].uplinkIndex(u)];
  up.out_ucast += pkts;
  up.out_octets += bytes;
  if (bytes > pkts * kMaxStdFrame) up.out_jumbo += pkts;
  up.queues[qos].uc_tx_pkts += pkts;
  up.queues[qos].uc_tx_bytes += bytes;
  SwitchPort& down = switches_[b.sw].ports[switches_[b.sw].uplinkIndex(u)];
  down.in_ucast += pkts;
  down.in_octets += bytes;
  if (bytes > pkts * kMaxStdFrame) down.in_jumbo += pkts;
}

void Topology::carryOut(int dst, int qos, uint64_t pkts, uint64_t bytes) {
  SwitchPort& out = port({att_[dst].sw, att_[dst].port});
  out.out_ucast += pkts;
  out.out_octets += bytes;
  if (bytes > pkts * kMaxStdFrame) out.out_jumbo += pkts;
  out.queues[qos].uc_tx_pkts += pkts;
  out.queues[qos].uc_tx_bytes += bytes;
}

void Topology::markEcn(int dst, int qos, uint64_t pkts, uint64_t bytes) {
  QueueCounters& q = port({att_[dst].sw, att_[dst].port}).queues[qos];
  q.ecn_pkts += pkts;
  q.ecn_bytes += bytes;
}

void Topology::tailDrop(int dst, int qos, uint64_t pkts, uint64_t bytes) {
  SwitchPort& out = port({att_[dst].sw, att_[dst].port});
  out.queues[qos].drop_pkts += pkts;
  out.queues[qos].drop_bytes += bytes;
  out.out_discard += pkts;
}

void Topology::setQueueDepth(int dst, int qos, uint64_t bytes) {
  port({att_[dst].sw, att_[dst].port}).queues[qos].depth_bytes = bytes;
}

void Topology::lldp(int endpoint, int qos, uint64_t bytes) {
  SwitchPort& p = port({att_[endpoint].sw, att_[endpoint].port});
  p.in_mcast += 1;
  p.in_octets += bytes;
  p.out_mcast += 1;
  p.out_octets += bytes;
  p.queues[qos].mc_tx_pkts += 1;
  p.queues[qos].mc_tx_bytes += bytes;
}

std::vector<uint64_t> Topology::floodBroadcasts(const std::vector<uint64_t>& sent, int qos,
                                                uint64_t bytes) {
  std::vector<uint64_t> total(switches_.size(), 0);
  for (size_t e = 0; e < sent.size(); ++e) {
    SwitchPort& p = port({att_[e].sw, att_[e].port});
    p.in_bcast += sent[e];
    p.in_octets += sent[e] * bytes;
    total[att_[e].sw] += sent[e];
  }
  // Every other host port of the leaf gets a copy: O(ports), not O(ports^2).
  std::vector<uint64_t> got(sent.size(), 0);
  for (size_t e = 0; e < sent.size(); ++e) {
    const uint64_t n = total[att_[e].sw] - sent[e];
    got[e] = n;
    SwitchPort& p = port({att_[e].sw, att_[e].port});
    p.out_bcast += n;
    p.out_octets += n * bytes;
    p.queues[qos].mc_tx_pkts += n;
    p.queues[qos].mc_tx_bytes += n * bytes;
  }
  return got;
}

void Topology::finishTick() {
  prev_.resize(switches_.size());
  for (size_t s = 0; s < switches_.size(); ++s) {
    std::vector<SwitchPort>& ports = switches_[s].ports;
    prev_[s].resize(ports.size(), Snapshot{0, 0, 0, 0});
    for (size_t i = 0; i < ports.size(); ++i) {
      SwitchPort& p = ports[i];
      Snapshot& before = prev_[s][i];
      const Snapshot now{p.in_octets, p.inPackets(), p.out_octets, p.outPackets()};
      p.in_bps = (now.in_octets - before.in_octets) * 8;
      p.in_pps = now.in_pkts - before.in_pkts;
      p.out_bps = (now.out_octets - before.out_octets) * 8;
      p.out_pps = now.out_pkts - before.out_pkts;
      before = now;
    }
  }
}

void Topology::nicPause(int endpoint, int cos, uint64_t frames) {
  port({att_[endpoint].sw, att_[endpoint].port}).rx_ppp[cos] += frames;
}

bool Topology::pauseBack(int sw, int e, int i, int cos, uint64_t frames,
                         std::vector<Key>* done) {
  if (seen(done, {sw, i})) return false;
  Switch& x = switches_[sw];
  const int k = x.internalPorts();
  if (k > 0 && x.ports[e].asic != x.ports[i].asic) {
    // The egress ASIC pauses the ii link; the ingress ASIC, on receiving it,
    // pauses its own ingress port. One row shows both ends of the link.
    const int ii = x.internalIndex((e + i) % k);
    if (!seen(done, {sw, ii})) {
      x.ports[ii].tx_ppp[cos] += frames;
      x.ports[ii].rx_ppp[cos] += frames;
    }
  }
  x.ports[i].tx_ppp[cos] += frames;
  return true;
}

void Topology::pauseSenders(int dst, const std::vector<int>& senders, int cos, uint64_t frames) {
  std::vector<Key> done;
  const Attachment& r = att_[dst];
  for (int s : senders) {
    const Attachment& a = att_[s];
    if (a.sw == r.sw) {
      pauseBack(r.sw, r.port, a.port, cos, frames, &done);
      continue;
    }
    // Across leaves: the receiver's leaf pauses its uplink, the spine passes
    // the pause on, and the sender's leaf pauses the sender's port.
    const int u = uplinkFor(s, dst);
    const int ru = switches_[r.sw].uplinkIndex(u);
    const int su = switches_[a.sw].uplinkIndex(u);
    pauseBack(r.sw, r.port, ru, cos, frames, &done);
    // Negative keys mark "received from the spine", once per leaf uplink.
    if (!seen(&done, {a.sw, -1 - su})) switches_[a.sw].ports[su].rx_ppp[cos] += frames;
    pauseBack(a.sw, su, a.port, cos, frames, &done);
  }
}

void Topology::setNeighbor(int endpoint, LldpNeighbor n) {
  port({att_[endpoint].sw, att_[endpoint].port}).lldp = std::move(n);
}

}  // namespace rdmagw::sim
