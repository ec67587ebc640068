#pragma once
// The SNMP northbound: an AgentX subagent answering from an immutable
// snapshot of the store.
//
// Threads:
//   refresh thread  rebuilds the snapshot every refresh_period (store reads
//                   only; never touches Net-SNMP)
//   agent thread    the ONLY thread calling Net-SNMP (the library is not
//                   thread-safe): connects to snmpd, registers one handler per
//                   table and context, answers requests from the latest
//                   snapshot, picks up a new one between requests
// A request is answered from memory; no store lock is taken while answering.
//
// snmpd absent or restarted: the subagent keeps running and reconnects on
// the AgentX ping; the gateway never waits on it.
//
// Net-SNMP keeps process-wide state: one SnmpAgent may run at a time
// (start() refuses a second). Net-SNMP is initialised on the first start and
// kept for the process (its subagent cannot be initialised twice), so a
// later start() reuses the first AgentX socket; stop() unregisters every
// table, so snmpd stops routing requests to us.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "models/fleet_view.h"
#include "models/status.h"
#include "models/self_metrics.h"
#include "models/store.h"
#include "northbound/snmp/if_index_registry.h"
#include "northbound/snmp/mib_snapshot.h"
#include "northbound/snmp/snmp_config.h"

namespace rdmagw::northbound::snmp {

class AgentxSubagent;
struct NotifyCounters;

class SnmpAgent {
 public:
  // `fleet`: what this member knows of its fleet, for the default
  // context's fleet target table; null outside a fleet. It must outlive
  // the agent.
  SnmpAgent(const Store& store, SnmpConfig config, const FleetView* fleet = nullptr);
  ~SnmpAgent();
  SnmpAgent(const SnmpAgent&) = delete;
  SnmpAgent& operator=(const SnmpAgent&) = delete;

  // Validates the config, loads the ifIndex state, builds a first snapshot
  // and starts both threads. Succeeds while snmpd is down.
  Status start();
  void stop();

  // Asks for a rebuild now instead of at the next period (tests, demo).
  void refreshNow();
  // The snapshot most recently built (not necessarily served yet).
  snmp::MibSnapshotPtr latestSnapshot() const;
  // Snapshots the agent thread has taken into service.
  uint64_t snapshotsServed() const { return served_.load(); }
  // AgentX requests answered on the AgentX session (agentx_fast_path.h)
  // rather than through Net-SNMP's internal agent.
  uint64_t fastPathAnswered() const { return fast_answered_.load(); }
  // Whether the AgentX session with snmpd is open right now (false when
  // stopped): snmpd may come and go while the agent runs. Not to be called
  // while start() or stop() runs.
  bool agentxConnected() const;
  // Notifications per destination (config order) and type (notification
  // table order); null before start() or without destinations.
  const snmp::NotifyCounters* notifyCounters() const { return notify_counters_.get(); }
  // The engine ID SNMPv3 traps carry; "" before the agent thread set it.
  std::string engineIdHex() const;

 private:
  void refreshLoop();
  void appendNotifyMetrics(std::vector<SelfMetricSample>* out) const;
  void dropNotifyMetrics();
  snmp::MibSnapshotPtr takeIfNewer(uint64_t* generation);

  const Store& store_;
  const SnmpConfig config_;
  const FleetView* const fleet_;
  std::unique_ptr<snmp::IfIndexRegistry> registry_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;           // guarded by mu_
  bool refresh_requested_ = false;  // guarded by mu_
  snmp::MibSnapshotPtr latest_;     // guarded by mu_
  uint64_t latest_generation_ = 0;  // guarded by mu_

  TimestampNs agent_start_ns_ = 0;  // zero of ifCounterDiscontinuityTime
  std::atomic<uint64_t> served_{0};
  std::atomic<uint64_t> fast_answered_{0};
  std::thread refresh_thread_;
  std::unique_ptr<snmp::NotifyCounters> notify_counters_;  // read by the self-metrics
  uint64_t self_metrics_id_ = 0;
  std::unique_ptr<snmp::AgentxSubagent> agent_;
  bool running_ = false;
};

}  // namespace rdmagw::northbound::snmp
