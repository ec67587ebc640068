#pragma once
// Sends the notifications the watcher finds (notification_watcher.h) to
// every configured destination as SNMPv2-Trap or InformRequest PDUs
// (varbinds: sysUpTime.0, snmpTrapOID.0, rdmagwNotifyTarget.0,
// rdmagwNotifyPort.0, then the verdict columns with their instance).
// Agent thread only: Net-SNMP is not thread-safe. Sessions are opened with
// the traditional API, so the agent's select loop (pollOnce) reads inform
// acknowledgements and runs their retries.
//
// Bounded: at most `queue_capacity` notifications wait; more are dropped
// and counted (dropped{type}). Per destination and type: sent (a trap
// handed to the socket, an inform acknowledged) and failed (session not
// open, send error, an inform not acknowledged after its retries). The
// counters are atomics, read from any thread for the self-metrics.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "northbound/snmp/notification_watcher.h"
#include "northbound/snmp/snmp_config.h"

namespace rdmagw::northbound::snmp {

// The subagent's SNMP engine ID as hex ("0x80001f88..."): SNMPv3 traps are
// sent with it, so a receiver names it (snmptrapd: createUser -e <id> ...).
// Agent thread only (Net-SNMP's state is that thread's); other threads ask
// SnmpAgent::engineIdHex().
std::string localEngineIdHex();

struct NotifyCounters {
  explicit NotifyCounters(size_t destinations);
  // [destination][type]; dropped is per type.
  std::vector<std::vector<std::atomic<uint64_t>>> sent, failed;
  std::vector<std::atomic<uint64_t>> dropped;
  std::atomic<uint64_t> in_flight{0};  // informs awaiting an answer, all destinations
};

class NotificationSender {
 public:
  NotificationSender(const SnmpConfig& config, NotifyCounters* counters);
  ~NotificationSender();  // closes the sessions (call on the agent thread)
  NotificationSender(const NotificationSender&) = delete;
  NotificationSender& operator=(const NotificationSender&) = delete;

  // Queues what the watcher found; beyond the capacity, dropped and counted.
  void enqueue(std::vector<PendingNotification> found);
  // Sends everything queued to every destination; opens (or reopens) the
  // sessions that are not open, at most once per reopen interval each.
  void pump();

  struct Slot;  // per (destination, type): the inform callback's magic

 private:
  struct Destination;
  void open(Destination& d);

  const SnmpConfig& config_;
  NotifyCounters* counters_;
  std::vector<std::unique_ptr<Destination>> destinations_;
  std::deque<PendingNotification> queue_;
};

}  // namespace rdmagw::northbound::snmp
