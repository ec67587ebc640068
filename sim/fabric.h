#pragma once
// A deterministic model of a congested RoCEv2 fabric, one tick = one second.
//
// Endpoints are the RDMA devices of Linux hosts plus the vmnics of ESXi
// hosts; each is cabled to a port of a Nexus leaf (sim/topology.h). Every
// endpoint sends RoCE traffic to a few fixed peers plus, per epoch, to a
// rotating "incast" hot spot. Congestion happens in the leaf: the egress
// queue toward a receiver whose offered load exceeds its link ECN-marks the
// excess, the receiver sends CNPs back to the senders (DCQCN notification
// point) and senders that get CNPs cut their flow rate multiplicatively and
// recover additively. When the queue fills past its threshold, the leaf
// sends PFC pause on the RoCE priority out of every ingress port feeding it
// (through ii ports and uplinks), and a paused sender slows every flow it
// has, so pauses ripple to receivers that were not congested. A receiver's
// NIC also pauses its leaf port when the host drains slower than line rate,
// which shrinks that egress queue's drain and congests it in turn.
//
// A calm fabric (FabricConfig::calm) has no hot spots and no slow hosts, so
// nothing congests until a scenario (sim/scenario.h: incast, DCQCN NP or RP
// off, PFC on one end of a cable only, a pause storm) is switched on.
//
// Counters are integer-only (uint64, 32-bit ones wrap at 2^32 like hardware),
// and randomness comes from sim/prng.h, so a seed gives bit-identical counters
// on every machine.
//
// Longer than a header should be because the model's rules are written out
// here, once, where a reader of its counters looks for them.

#include <cstdint>
#include <vector>

#include "sim/device.h"
#include "sim/fabric_config.h"
#include "sim/roce_qos.h"
#include "sim/scenario.h"
#include "sim/switch.h"
#include "sim/topology.h"

namespace rdmagw::sim {

// One receiver->sender CNP exchange in the last tick (endpoint indices).
struct CnpEvent {
  int receiver;
  int sender;
  uint64_t marked; // ECN-marked packets of this flow
  uint64_t cnps;
  bool handled;    // false: the sender was at its minimum rate and ignored them
};

// PFC pause frames the leaf sent one sender's port in the last tick because
// the egress queue toward `receiver` was full.
struct PauseEvent {
  int receiver;
  int sender;
  uint64_t frames;
  uint64_t duration_us;
};

struct TickReport {
  std::vector<int> congested;  // receivers whose offered load exceeded the link
  std::vector<CnpEvent> cnps;
  std::vector<PauseEvent> pauses;
};

// What the model itself produced since tick 0; tests hold the counters to it.
struct ModelTotals {
  uint64_t ecn_marks = 0;
  uint64_t cnps = 0;
  uint64_t pause_frames = 0;      // leaf -> sender NICs
  uint64_t nic_pause_frames = 0;  // receiver NICs -> leaf
  uint64_t ignored_pause_frames = 0;  // leaf -> a NIC without PFC on the priority (pfc-mismatch)
  uint64_t lossless_drops = 0;        // RoCE packets the leaf dropped (pfc-mismatch)
};

class Fabric {
 public:
  // The config must be valid (FabricConfig::validate); an invalid one is clamped.
  explicit Fabric(FabricConfig config);

  void step();  // advance one tick = 1 simulated second
  int tick() const { return tick_; }

  const FabricConfig& config() const { return config_; }
  const std::vector<Host>& hosts() const { return hosts_; }
  const std::vector<EsxiHost>& esxiHosts() const { return esxi_; }
  const std::vector<Switch>& switches() const { return topo_.switches(); }
  // RDMA devices only; global index = host * devices_per_host + device.
  int deviceCount() const { return device_count_; }
  const Device& device(int global) const;
  // Endpoints: the RDMA devices first (same indices), then every vmnic.
  int endpointCount() const { return static_cast<int>(state_.size()); }
  const PortCounters& endpointPort(int e) const;
  std::string endpointName(int e) const;  // host01:mlx5_0, esx02:vmnic1
  const Attachment& attachment(int e) const { return topo_.attachment(e); }
  const SwitchPort& switchPortOf(int e) const { return topo_.portOf(e); }
  // What endpoint e's host advertises over LLDP (sim/fabric_lldp.cc).
  LldpNeighbor lldpAdvertised(int e) const;
  // What Linux host h's lldpd prints for `lldpctl -f json0`: its leaf ports.
  std::string lldpctlJson(int h) const;
  const TickReport& lastTick() const { return report_; }
  // Switches the fabric into a scenario from the next tick on (kNone: back
  // to normal); the receiver is clamped to an endpoint. Flows the scenario
  // adds start at full demand; every other flow keeps its DCQCN rate.
  void setScenario(Scenario scenario);
  const Scenario& scenario() const { return scenario_; }
  const ScenarioCast& scenarioCast() const { return cast_; }
  const ModelTotals& totals() const { return totals_; }
  // Packets the leaf holds in the egress queue toward each endpoint.
  uint64_t bufferedPackets(int e) const { return state_[e].buffer; }
  // Traffic classes: RoCE uses roce_priority; CNPs and the lossy class below.
  int lossyPriority() const { return config_.roce_priority == 0 ? 1 : 0; }
  int cnpPriority() const {
    return config_.cnp_priority >= 0 ? config_.cnp_priority : config_.roce_priority == 6 ? 7 : 6;
  }
  RoceQosPlan roceQos() const { return {config_.roce_priority, cnpPriority(), lossyPriority()}; }
  // The device or port the running scenario misconfigures or stresses, as
  // an operator names it ("host01:mlx5_0 (ens1f0np0)", "leaf01",
  // "leaf01 Ethernet1/3"); "" for kNone.
  std::string scenarioTarget() const;

  // Port strings, the same for every port of the fabric but the one the
  // nic-down scenario takes down.
  const char* portState() const { return "4: ACTIVE"; }
  const char* physState() const { return "5: LinkUp"; }
  const char* portState(const Device& d) const { return linkDown(d) ? "1: DOWN" : portState(); }
  const char* physState(const Device& d) const { return linkDown(d) ? "3: Disabled" : physState(); }
  const char* linkLayer() const { return "Ethernet"; }
  const std::string& rate() const { return rate_; }

  // RoCE wire bytes per packet: a 4096-byte MTU payload plus headers.
  static constexpr uint64_t kPacketBytes = 4160;
  // Non-RoCE (TCP) traffic on priority 0 uses full-size Ethernet frames.
  static constexpr uint64_t kTcpPacketBytes = 1514;
  // RoCEv2 CNP: Ethernet, IPv4, UDP, BTH, 16 reserved bytes, ICRC, FCS.
  static constexpr uint64_t kCnpBytes = 78;
  static constexpr uint64_t kLldpBytes = 298;
  static constexpr uint64_t kArpBytes = 64;

 private:
  struct Flow {
    int src;
    int dst;
    uint64_t demand;  // packets per tick the application wants
    uint64_t rate;    // DCQCN current rate, packets per tick
    bool hot;         // part of this epoch's incast
  };
  struct DeviceState {
    uint64_t buffer = 0;          // packets the leaf queues toward this receiver
    uint64_t paused_us = 0;       // time the leaf paused this sender in the last tick
    uint64_t egress_paused_us = 0;  // time this NIC paused its leaf port in the last tick
    int pause_streak = 0;         // consecutive ticks this NIC paused hard
    int full_pause_streak = 0;    // consecutive ticks this NIC paused its leaf port throughout
    uint64_t arrivals = 0;        // packets that reached the leaf's queue toward it last tick
  };

  void buildEndpoints();
  void buildBackgroundFlows();
  void rebuildHotFlows();
  ScenarioCast castFor(const Scenario& s) const;
  std::vector<int> incastSenders(int receiver) const;
  bool npOff(int e) const { return scenario_.kind == ScenarioKind::kNpOff && e == cast_.faulty; }
  bool rpOff(int e) const { return scenario_.kind == ScenarioKind::kRpOff && e == cast_.faulty; }
  // PFC not honoured between e and its leaf port on the RoCE priority, at
  // either end (pfc-mismatch: the NIC's; pfc-mismatch-switch: the leaf's).
  bool pfcOff(int e) const {
    return (scenario_.kind == ScenarioKind::kPfcMismatch || scenario_.kind == ScenarioKind::kPfcMismatchSwitch) &&
           e == cast_.faulty;
  }
  bool switchPfcOff(int e) const { return scenario_.kind == ScenarioKind::kPfcMismatchSwitch && e == cast_.faulty; }
  bool trustPcp(int e) const { return scenario_.kind == ScenarioKind::kTrustMismatch && e == cast_.faulty; }
  // The receiver of a configuration scenario of this kind (no senders).
  bool configFault(ScenarioKind k, int e) const { return scenario_.kind == k && e == cast_.faulty; }
  bool linkDown(int e) const { return configFault(ScenarioKind::kNicDown, e); }
  bool linkDown(const Device& d) const {
    return scenario_.kind == ScenarioKind::kNicDown && cast_.faulty >= 0 && cast_.faulty < device_count_ &&
           &device(cast_.faulty) == &d;
  }
  bool storming(int e) const { return scenario_.kind == ScenarioKind::kPauseStorm && e == cast_.faulty; }
  bool falseTrip(int e) const { return scenario_.kind == ScenarioKind::kWatchdogFalseTrip && e == cast_.faulty; }
  // The leaf ports' PFC watchdogs, once the tick's pause is known.
  void watchdogTick();
  void sendTcp();
  void sendRoce(std::vector<uint64_t>* sent);
  // Returns the RoCE packets the leaf delivered to dst this tick.
  uint64_t receive(int dst, const std::vector<size_t>& flows, std::vector<uint64_t>& sent,
                   std::vector<uint64_t>* paused_next);
  void nicPause(int dst, uint64_t delivered, std::vector<uint64_t>* nic_paused_next);
  void sendCnps();
  void sendControl();
  uint64_t hostDrain(int e) const;
  PortCounters& port(int e);  // any endpoint
  uint64_t noise(int e, uint64_t salt, uint64_t modulo) const;

  FabricConfig config_;
  std::vector<Host> hosts_;
  std::vector<EsxiHost> esxi_;
  int device_count_ = 0;
  Topology topo_;
  std::vector<DeviceState> state_;
  // Background flows first, then the scenario's, then this epoch's hot ones.
  std::vector<Flow> flows_;
  size_t background_flows_ = 0;
  size_t scenario_flows_ = 0;
  Scenario scenario_;
  ScenarioCast cast_;
  std::vector<bool> cut_;      // flows whose sender handled CNPs this tick
  std::string rate_;
  uint64_t cap_pkts_ = 0;      // link capacity, packets per tick
  uint64_t buffer_pkts_ = 0;   // receive buffer before PFC kicks in
  uint64_t refresh_us_ = 1;    // pause frame refresh interval
  int tick_ = 0;
  TickReport report_;
  ModelTotals totals_;
};

}  // namespace rdmagw::sim
