#pragma once
// A deterministic model of a congested RoCEv2 fabric, one tick = one second.
//
// Every device sends RoCE traffic to a few fixed peers plus, per epoch, to a
// rotating "incast" hot spot. A receiver whose offered load exceeds its link
// ECN-marks the excess and sends CNPs (DCQCN notification point); senders that
// get CNPs cut their flow rate multiplicatively and recover additively. When
// the receiver's buffer fills, it sends PFC pause on the RoCE priority to the
// senders feeding it; a paused sender slows every flow it has, so pauses
// ripple to receivers that were not congested. There are no switches yet:
// CNPs and pauses go straight from receiver to sender.
//
// Counters are integer-only (uint64, 32-bit ones wrap at 2^32 like hardware),
// and randomness comes from sim/prng.h, so a seed gives bit-identical counters
// on every machine.

#include <cstdint>
#include <vector>

#include "sim/device.h"
#include "sim/fabric_config.h"

namespace rdmagw::sim {

// One receiver->sender CNP exchange in the last tick.
struct CnpEvent {
  int receiver;    // global device index
  int sender;
  uint64_t marked; // ECN-marked packets of this flow
  uint64_t cnps;
  bool handled;    // false: the sender was at its minimum rate and ignored them
};

// PFC pause frames one receiver sent one sender in the last tick.
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
  uint64_t pause_frames = 0;
};

class Fabric {
 public:
  // The config must be valid (FabricConfig::validate); an invalid one is clamped.
  explicit Fabric(FabricConfig config);

  void step();  // advance one tick = 1 simulated second
  int tick() const { return tick_; }

  const FabricConfig& config() const { return config_; }
  const std::vector<Host>& hosts() const { return hosts_; }
  int deviceCount() const { return static_cast<int>(state_.size()); }
  // Global index = host * devices_per_host + device.
  const Device& device(int global) const;
  const TickReport& lastTick() const { return report_; }
  const ModelTotals& totals() const { return totals_; }
  // Packets each receiver holds in its buffer model (for byte conservation).
  uint64_t bufferedPackets(int global) const { return state_[global].buffer; }

  // Port strings, the same for every port of the fabric.
  const char* portState() const { return "4: ACTIVE"; }
  const char* physState() const { return "5: LinkUp"; }
  const char* linkLayer() const { return "Ethernet"; }
  const std::string& rate() const { return rate_; }

  // RoCE wire bytes per packet: a 4096-byte MTU payload plus headers.
  static constexpr uint64_t kPacketBytes = 4160;
  // Non-RoCE (TCP) traffic on priority 0 uses full-size Ethernet frames.
  static constexpr uint64_t kTcpPacketBytes = 1514;

 private:
  struct Flow {
    int src;
    int dst;
    uint64_t demand;  // packets per tick the application wants
    uint64_t rate;    // DCQCN current rate, packets per tick
    bool hot;         // part of this epoch's incast
  };
  struct DeviceState {
    uint64_t buffer = 0;         // packets queued toward this receiver
    uint64_t paused_us = 0;      // time this sender was paused in the last tick
    int pause_streak = 0;        // consecutive ticks this receiver paused hard
  };

  void buildBackgroundFlows();
  void rebuildHotFlows();
  void sendTcp();
  void sendRoce(std::vector<uint64_t>* sent);
  void receive(int dst, const std::vector<size_t>& flows, std::vector<uint64_t>& sent,
               std::vector<uint64_t>* paused_next);
  PortCounters& port(int global);
  uint64_t noise(int global, uint64_t salt, uint64_t modulo) const;

  FabricConfig config_;
  std::vector<Host> hosts_;
  std::vector<DeviceState> state_;
  std::vector<Flow> flows_;    // background flows first, then this epoch's hot ones
  size_t background_flows_ = 0;
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
