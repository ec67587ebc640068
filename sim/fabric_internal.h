#pragma once
// Constants and salts shared by the fabric's translation units (fabric.cc:
// RoCE and congestion; fabric_background.cc: endpoints, lossy and control
// traffic). Not part of the simulator's interface.

#include <cstdint>

namespace rdmagw::sim::internal {

inline constexpr int kEpochTicks = 8;            // incast hot spots move every 8 s
inline constexpr int kBackgroundFlows = 2;       // fixed peers per sender
inline constexpr uint64_t kMarksPerCnp = 16;     // NP coalesces CE marks into CNPs
inline constexpr uint64_t kPktsPerWrite = 16;    // 64 KiB RDMA WRITE messages
inline constexpr uint64_t kFramesPerEpisode = 64;
inline constexpr uint64_t kUsPerTick = 1'000'000;
inline constexpr uint64_t kStormUs = 500'000;    // paused for over half a second
inline constexpr int kStormWarnTicks = 5;
inline constexpr int kStormErrorTicks = 20;
// Ticks a leaf port's PFC watchdog lets its queue stay paused throughout
// before it shuts it. A real one acts within a second; the simulated one
// acts with the NIC's own storm warning, so that the gateway's storm
// verdict (which the warning raises) and the watchdog agree from the start.
inline constexpr int kWatchdogTicks = kStormWarnTicks;
inline constexpr uint64_t kPauseQuantaBits = 65535ULL * 512;  // one full PFC pause, in bit times
inline constexpr int kLldpPeriodTicks = 30;
inline constexpr int kScenarioSenders = 3;         // an incast scenario's senders
inline constexpr uint64_t kScenarioDemandPct = 60; // each pushes 60% of line at the receiver
// PFC frames per tick a pfc-lossy-prio leaf port receives on the lossy CoS.
inline constexpr uint64_t kLossyPauseFrames = 1200;
// Device 0's rx_write_requests starts this far below 2^32 so the wrap that a
// collector must handle happens within the first few dozen ticks.
inline constexpr uint64_t kWrapHeadroom = 1'500'000;

// Distinct salts keep the hash streams of different decisions independent.
enum Salt : uint64_t {
  kGuid = 0x6a1d, kBgOffset, kBgDemand, kHotReceiver, kHotPick, kHotJoin, kHotDemand,
  kTcp, kDiscards, kOutOfBuffer, kAtomics, kTailDrop, kHostSlow, kHostStuck, kArp, kMac,
};

inline void add32(uint64_t& counter, uint64_t delta) {
  counter = (counter + delta) & 0xffffffffULL;
}

}  // namespace rdmagw::sim::internal
