#pragma once
// The agent thread: everything that calls Net-SNMP. Connects to snmpd over
// AgentX, registers one handler per (context, table) as contexts appear in
// the snapshots, answers GET/GETNEXT (GETBULK arrives as repeated GETNEXT)
// from the snapshot in service, and reconnects on the AgentX ping. Requests
// are answered on the AgentX session (agentx_fast_path.h); the Net-SNMP
// handlers registered per table answer whatever that path hands on.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "models/status.h"
#include "northbound/snmp/agentx_fast_path.h"
#include "northbound/snmp/mib_snapshot.h"
#include "northbound/snmp/notification_sender.h"
#include "northbound/snmp/notification_watcher.h"
#include "northbound/snmp/snmp_config.h"

namespace rdmagw::northbound::snmp {

class AgentxSubagent {
 public:
  // Returns a snapshot newer than *generation (and updates it), or null.
  using SnapshotSource = std::function<MibSnapshotPtr(uint64_t* generation)>;

  // `served` counts snapshots taken into service, `fast_answered` the
  // requests answered on the AgentX session (agentx_fast_path.h);
  // `notify_counters` the notifications (null: none are sent).
  AgentxSubagent(SnmpConfig config, SnapshotSource source, std::atomic<uint64_t>* served,
                 std::atomic<uint64_t>* fast_answered, NotifyCounters* notify_counters = nullptr);
  ~AgentxSubagent();

  // Starts the thread and returns once Net-SNMP is initialised (connected
  // or not). Fails only when Net-SNMP itself cannot start.
  Status start();
  void stop();

  // Whether the AgentX session with snmpd is open, as of the agent thread's
  // last poll round (read from any thread: `rdmagw status`).
  bool connected() const { return connected_.load(std::memory_order_relaxed); }
  // The engine ID SNMPv3 traps carry ("0x80..."), "" until the agent
  // thread has set it up. Net-SNMP's own copy is the agent thread's alone.
  std::string engineIdHex() const;

  // Called by the request handler, on the agent thread only.
  struct Binding;
  const TableData* tableFor(const Binding& b) const;

 private:
  void run();
  void adopt(MibSnapshotPtr snap);
  void registerContext(const std::string& context);
  void unregisterContext(const std::string& context);
  void rebuildServed();

  const SnmpConfig config_;
  const SnapshotSource source_;
  std::atomic<uint64_t>* served_;
  std::atomic<uint64_t>* fast_answered_;
  std::atomic<bool> stop_{false};
  std::thread thread_;

  // Agent thread only.
  MibSnapshotPtr current_;
  uint64_t generation_ = 0;
  struct Registered;
  std::map<std::string, std::unique_ptr<Registered>> registered_;  // by context
  ServedContexts served_tables_;  // what the fast path answers from
  std::unique_ptr<AgentxFastPath> fast_path_;
  NotifyCounters* notify_counters_;
  NotificationWatcher watcher_;                // verdict changes between snapshots
  std::unique_ptr<NotificationSender> sender_;  // null without destinations

  std::atomic<bool> connected_{false};
  std::atomic<int> init_state_{0};  // 0 starting, 1 up, -1 failed
  mutable std::mutex engine_id_mu_;
  std::string engine_id_hex_;  // guarded by engine_id_mu_
};

}  // namespace rdmagw::northbound::snmp
