// The parts of the fabric model around the RoCE core: building the
// endpoints and the leaves they are cabled to, the lossy (TCP) class, CNPs
// on the wire, and link-local control traffic (LLDP, ARP).

#include <algorithm>
#include <cstdio>

#include "sim/fabric.h"
#include <cmath>

#include "sim/fabric_internal.h"
#include "sim/naming.h"
#include "sim/prng.h"

namespace rdmagw::sim {

using namespace internal;

namespace {

std::string macString(uint64_t v) {
  char buf[24];
  // Mellanox OUI b8:59:9f, as on ConnectX-6 Dx ports.
  std::snprintf(buf, sizeof buf, "b8:59:9f:%02x:%02x:%02x", unsigned(v >> 16) & 0xff,
                unsigned(v >> 8) & 0xff, unsigned(v) & 0xff);
  return buf;
}

}  // namespace

void Fabric::buildEndpoints() {
  hosts_.resize(config_.hosts);
  std::vector<int> leaf_of;
  std::vector<std::string> labels;
  for (int h = 0; h < config_.hosts; ++h) {
    Host& host = hosts_[h];
    host.name = hostName(h, config_.hosts);
    host.mlnx_qos = h >= config_.hosts - config_.mlnx_qos_hosts;
    for (int d = 0; d < config_.devices_per_host; ++d) {
      Device dev;
      dev.name = deviceName(d);
      dev.netdev = netdevName(d);
      const uint64_t g = uint64_t(h) * config_.devices_per_host + d;
      // Mellanox OUI 24:8a:07 in the top bytes, as on real ConnectX GUIDs.
      dev.node_guid = guidString((0x248a0703ULL << 32) | (mix(config_.seed, kGuid, g) >> 32));
      dev.fw_ver = "22.39.1002";
      dev.hca_type = "MT4125";
      dev.board_id = "MT_0000000359";
      // Rail-optimised cabling: device d of every host goes to leaf d % switches
      // (in pods of hosts_per_leaf hosts when set, see fabric_config.h).
      const int pod = config_.hosts_per_leaf > 0 ? h / config_.hosts_per_leaf : 0;
      leaf_of.push_back((pod * config_.devices_per_host + d) % config_.switches);
      labels.push_back(host.name + ":" + dev.name);
      host.devices.push_back(std::move(dev));
    }
  }
  device_count_ = config_.hosts * config_.devices_per_host;
  esxi_.resize(config_.esxi_hosts);
  for (int x = 0; x < config_.esxi_hosts; ++x) {
    EsxiHost& esx = esxi_[x];
    esx.name = esxiName(x, config_.esxi_hosts);
    for (int k = 0; k < 2; ++k) {
      Vmnic nic;
      nic.name = "vmnic" + std::to_string(k);
      nic.driver = "nmlx5_core";
      char pci[24];
      std::snprintf(pci, sizeof pci, "0000:3b:00.%d", k);
      nic.pci = pci;
      nic.mac = macString(mix(config_.seed, kMac, uint64_t(x), uint64_t(k)));
      nic.description = "Mellanox Technologies MT2892 Family [ConnectX-6 Dx]";
      leaf_of.push_back(k % config_.switches);
      labels.push_back(esx.name + ":" + nic.name);
      esx.nics.push_back(std::move(nic));
    }
  }
  topo_ = Topology(config_.switches, config_.internal_ports, leaf_of, labels);
  topo_.setLinkSpeed(uint64_t(std::llround(config_.link_gbps * 1e9)));
  state_.resize(leaf_of.size());
  for (int e = 0; e < int(leaf_of.size()); ++e) topo_.setNeighbor(e, lldpAdvertised(e));
}

void Fabric::sendTcp() {
  // A little ordinary traffic on the lossy class, so ethtool totals differ
  // from the RoCE-only PMA counters as they do on real hosts. The leaf
  // tail-drops some of it toward receivers whose queues are backing up.
  const int n = endpointCount();
  if (n < 2) return;
  const int prio = lossyPriority();
  for (int s = 0; s < n; ++s) {
    const int r = (s + 1) % n;
    if (linkDown(s) || linkDown(r)) continue;
    const uint64_t pkts = 2000 + noise(s, kTcp, 6000);
    PortCounters& tx = port(s);
    tx.tx_prio_packets[prio] += pkts;
    tx.tx_prio_bytes[prio] += pkts * kTcpPacketBytes;
    tx.tx_packets += pkts;
    tx.tx_bytes += pkts * kTcpPacketBytes;
    topo_.carryIn(s, r, prio, pkts, pkts * kTcpPacketBytes);

    const uint64_t drops = state_[r].buffer > 0 ? noise(r, kTailDrop, pkts / 64 + 1) : 0;
    topo_.tailDrop(r, prio, drops, drops * kTcpPacketBytes);
    const uint64_t out = pkts - drops;
    topo_.carryOut(r, prio, out, out * kTcpPacketBytes);
    // The NIC drops a few for lack of receive buffers (rx_discards_phy):
    // they left the leaf but never reach the host's counters.
    const uint64_t discards = std::min(out, noise(r, kDiscards, 3));
    const uint64_t got = out - discards;
    PortCounters& rx = port(r);
    rx.rx_discards_phy += discards;
    rx.rx_prio_discards[prio] += discards;
    rx.rx_prio_packets[prio] += got;
    rx.rx_prio_bytes[prio] += got * kTcpPacketBytes;
    rx.rx_packets += got;
    rx.rx_bytes += got * kTcpPacketBytes;
  }
}

void Fabric::sendCnps() {
  // CNPs go back from the notification point to the sender as ordinary
  // high-priority unicast through the leaf (they are never paused or marked).
  const int prio = cnpPriority();
  for (const CnpEvent& e : report_.cnps) {
    const uint64_t bytes = e.cnps * kCnpBytes;
    PortCounters& tx = port(e.receiver);
    tx.tx_prio_packets[prio] += e.cnps;
    tx.tx_prio_bytes[prio] += bytes;
    tx.tx_packets += e.cnps;
    tx.tx_bytes += bytes;
    // A leaf without a class for the CNP DSCP (cnp-lossy) queues them in the
    // default queue: the ingress leaf toward its uplink, the egress leaf
    // toward the sender (each classifies on its own ingress).
    auto queue = [&](int endpoint) { return switches()[topo_.attachment(endpoint).sw].cnp_lossy ? 0 : prio; };
    topo_.carryIn(e.receiver, e.sender, queue(e.receiver), e.cnps, bytes);
    topo_.carryOut(e.sender, queue(e.sender), e.cnps, bytes);
    PortCounters& rx = port(e.sender);
    rx.rx_prio_packets[prio] += e.cnps;
    rx.rx_prio_bytes[prio] += bytes;
    rx.rx_packets += e.cnps;
    rx.rx_bytes += bytes;
  }
}

void Fabric::sendControl() {
  const int prio = lossyPriority();
  const int n = endpointCount();
  // LLDP both ways on every cable, staggered so not all fire in one tick.
  for (int e = 0; e < n; ++e) {
    if ((tick_ + e) % kLldpPeriodTicks != 0) continue;
    PortCounters& p = port(e);
    p.tx_multicast_packets += 1;
    p.rx_multicast_packets += 1;
    p.tx_packets += 1;
    p.rx_packets += 1;
    p.tx_bytes += kLldpBytes;
    p.rx_bytes += kLldpBytes;
    p.tx_prio_packets[prio] += 1;
    p.rx_prio_packets[prio] += 1;
    p.tx_prio_bytes[prio] += kLldpBytes;
    p.rx_prio_bytes[prio] += kLldpBytes;
    topo_.lldp(e, prio, kLldpBytes);
  }
  // ARP: a few broadcasts per endpoint, flooded to the rest of the leaf.
  std::vector<uint64_t> arp(n);
  for (int e = 0; e < n; ++e) arp[e] = noise(e, kArp, 3);
  const std::vector<uint64_t> got = topo_.floodBroadcasts(arp, prio, kArpBytes);
  for (int e = 0; e < n; ++e) {
    PortCounters& p = port(e);
    p.tx_broadcast_packets += arp[e];
    p.tx_packets += arp[e];
    p.tx_bytes += arp[e] * kArpBytes;
    p.tx_prio_packets[prio] += arp[e];
    p.tx_prio_bytes[prio] += arp[e] * kArpBytes;
    p.rx_broadcast_packets += got[e];
    p.rx_packets += got[e];
    p.rx_bytes += got[e] * kArpBytes;
    p.rx_prio_packets[prio] += got[e];
    p.rx_prio_bytes[prio] += got[e] * kArpBytes;
  }
}

}  // namespace rdmagw::sim
