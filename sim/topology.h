#pragma once
// The leaves of the simulated fabric and the cabling of every endpoint (an
// RDMA device or an ESXi vmnic) to one of their ports. The traffic model in
// fabric.cc decides how many packets go where; this class books them on the
// switch ports they cross, so the switch counters always agree with the host
// counters at the other end of each cable.
//
// Leaves are L3 (routed leaf-spine, as RoCE fabrics are built): broadcasts
// stay on their leaf, and traffic between leaves crosses one of two uplinks
// into a spine that is not modelled (non-blocking). A leaf has two ASICs:
// host ports in the first half of the numbering sit on ASIC 0, the rest on
// ASIC 1; traffic and pause between ports on different ASICs cross one of
// the internal ii1/1/N ports.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/switch.h"

namespace rdmagw::sim {

class Topology {
 public:
  static constexpr int kUplinks = 2;  // per leaf, only when there are several leaves

  // `leaf_of[e]` is the leaf endpoint e is cabled to; ports are numbered in
  // endpoint order per leaf. `labels[e]` becomes the port description.
  Topology() = default;
  Topology(int switches, int internal_ports, const std::vector<int>& leaf_of,
           const std::vector<std::string>& labels);

  const std::vector<Switch>& switches() const { return switches_; }
  Switch& switchAt(int sw) { return switches_[sw]; }
  const Attachment& attachment(int endpoint) const { return att_[endpoint]; }
  const SwitchPort& portOf(int endpoint) const;
  // Every port's line rate, on every leaf.
  void setLinkSpeed(uint64_t bps) {
    for (Switch& sw : switches_) sw.speed_bps = bps;
  }
  // What the endpoint's host advertises over LLDP on its cable.
  void setNeighbor(int endpoint, LldpNeighbor n);
  SwitchPort& portOf(int endpoint);

  // Unicast from src enters its leaf (and crosses the uplinks to dst's leaf).
  void carryIn(int src, int dst, int qos, uint64_t pkts, uint64_t bytes);
  // Unicast leaves the egress port toward dst through queue `qos`.
  void carryOut(int dst, int qos, uint64_t pkts, uint64_t bytes);
  void markEcn(int dst, int qos, uint64_t pkts, uint64_t bytes);
  void tailDrop(int dst, int qos, uint64_t pkts, uint64_t bytes);
  void setQueueDepth(int dst, int qos, uint64_t bytes);

  // LLDP each way on the endpoint's cable (link-local multicast).
  void lldp(int endpoint, int qos, uint64_t bytes);
  // ARP broadcasts: sent[e] frames from each endpoint, flooded to every other
  // host port of the same leaf. Returns what each endpoint received.
  std::vector<uint64_t> floodBroadcasts(const std::vector<uint64_t>& sent, int qos,
                                        uint64_t bytes);

  // Turns this tick's counter deltas into the ports' rate gauges.
  void finishTick();

  // The endpoint's NIC paused its leaf port (the port counts RxPPP).
  void nicPause(int endpoint, int cos, uint64_t frames);
  // The egress queue toward dst is full: pause every ingress port feeding
  // it, hop by hop back to each sender's port (through ii ports and
  // uplinks). A link carries one pause stream however many senders share it.
  void pauseSenders(int dst, const std::vector<int>& senders, int cos, uint64_t frames);

 private:
  using Key = std::pair<int, int>;  // (leaf, port index)
  SwitchPort& port(const Key& k) { return switches_[k.first].ports[k.second]; }
  int uplinkFor(int src, int dst) const;
  // Pause from egress port `e` back to ingress port `i` of leaf `sw`.
  // Returns false when this event already paused that ingress port.
  bool pauseBack(int sw, int e, int i, int cos, uint64_t frames, std::vector<Key>* done);
  // Traffic from port `in` to port `out` of leaf `sw` crosses an ii port
  // when the two sit on different ASICs: it counts there too.
  void crossAsics(int sw, int in, int out, uint64_t pkts, uint64_t bytes);

  std::vector<Switch> switches_;
  std::vector<Attachment> att_;
  struct Snapshot {
    uint64_t in_octets, in_pkts, out_octets, out_pkts;
  };
  std::vector<std::vector<Snapshot>> prev_;  // per leaf, per port, at the last finishTick
};

}  // namespace rdmagw::sim
