#pragma once
// One switch's streaming source: gNMI, with an optional SSH CLI fallback
// (transport `auto`). Without a fallback it is gNMI only (transport `gnmi`).
//
// One control thread per target does everything that may block: dialing,
// writing the stream's queued updates into the store, polling SSH while
// gNMI is down, timers. gRPC's callback threads only map and queue. That
// thread is also the only writer of the target's health, whichever
// transport is active, so there is no hand-over between writers: the SSH
// PollSource is polled here, never registered with a PollScheduler.
//
// Transport changes (each logged, and shown in TargetHealth.transport):
//   gnmi -> ssh : a fatal status (UNAUTHENTICATED, UNIMPLEMENTED, ...), or
//                 fallback_after_failures transient failures in a row.
//   ssh -> gnmi : gNMI is retried (backoff, or retry_gnmi_after after a fatal
//                 status) while SSH keeps polling; the first response on the
//                 new stream ends SSH polling. An SSH batch whose poll
//                 overlapped that response is discarded, so an older reading
//                 never lands after a newer one (the store would count a
//                 counter reset).
// Both transports write the same paths, so counters stay continuous.
//
// Longer than a header should be because its threads, lock order and transport
// switches are documented beside the state they guard.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/backoff.h"
#include "models/store.h"
#include "southbound/gnmi/gnmi_client.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/gnmi/update_queue.h"
#include "southbound/poll_source.h"
#include "southbound/failure_log.h"
#include "southbound/handshake_gate.h"
#include "southbound/stream_source.h"

namespace rdmagw::southbound::gnmi {

struct FallbackOptions {
  std::string target;
  GnmiConfig config;
  southbound::PollSourcePtr ssh;  // null: gNMI only
  std::chrono::milliseconds ssh_interval{10000};
  // Polled every ssh_interval while gNMI carries the target, for the leaves
  // NX-OS serves only through its CLI (PFC admin/oper mode, RxPPP/TxPPP
  // totals): it must write no leaf the gNMI stream writes. Null: none.
  southbound::PollSourcePtr cli_supplement;
  std::vector<std::pair<std::string, std::string>> labels;
  // Caps handshakes across targets; null: HandshakeGate::gnmi(), the process's.
  southbound::HandshakeGate* handshake_gate = nullptr;
};

struct GnmiSourceStats {
  uint64_t responses = 0, notifications = 0, updates = 0, deletes = 0, keepalives = 0;
  uint64_t sync_responses = 0, map_errors = 0, dials = 0;
  uint64_t queued = 0, coalesced = 0, dropped = 0;
  uint64_t applied = 0, rejected = 0, removed = 0;  // as the store saw them
  uint64_t ssh_polls = 0, transport_changes = 0, stalls = 0, handover_dropped = 0;
  uint64_t supplement_polls = 0;
  uint64_t sync_timeouts = 0;      // streams with no sync_response within sync_timeout
  uint64_t oversized_refusals = 0; // streams ended by a message above max_message_bytes
  uint64_t queue_high_water = 0;   // most leaves queued at once (never above queue_capacity)
  uint64_t retry_delay_ms = 0;     // the backoff delay chosen after the last failure
  uint64_t retry_attempt = 0;      // failures since the backoff last reset (a stream stayed up)
  std::string transport;  // "gnmi" or "ssh"
  bool up = false;
};

class FallbackSource : public southbound::StreamSource {
 public:
  FallbackSource(Store& store, FallbackOptions options);
  ~FallbackSource() override;

  Status start() override;
  void stop() override;
  GnmiSourceStats stats() const;

 private:
  enum class Transport { kGnmi, kSsh };
  using Clock = std::chrono::steady_clock;

  void run();
  void wake();
  void checkStream(Clock::time_point now);
  void attemptGnmi(Clock::time_point now);  // ticket_ granted
  void onGnmiFailure(const grpc::Status& status, bool had_data, bool from_stream, Clock::time_point now);
  void checkSync(Clock::time_point now);
  std::string upReason(const QueueStats& q);
  void pollSsh(Clock::time_point now);
  void pollSupplement(Clock::time_point now);
  void drainQueue();
  void switchTo(Transport t, const std::string& why);
  void publishHealth();
  std::string scrub(std::string text) const;

  Store& store_;
  FallbackOptions opts_;
  // effectiveIdleTimeout() builds and parses the default subscription list:
  // computed once, not on every turn of the loop (a turn per notification).
  const std::chrono::milliseconds idle_timeout_;
  UpdateQueue queue_;
  GnmiClient client_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;     // guarded by mu_
  bool wake_pending_ = false; // guarded by mu_
  GnmiSourceStats published_; // guarded by mu_: what stats() returns
  std::thread thread_;
  uint64_t self_metrics_id_ = 0;  // guarded by mu_: the per-target stream counters, 0 = none

  // Control thread only.
  Transport transport_ = Transport::kGnmi;
  bool ssh_polling_ = false;
  bool client_open_ = false;
  bool stalled_ = false;
  int gnmi_failures_ = 0;
  Clock::time_point next_gnmi_{};
  Clock::time_point next_ssh_{};
  Clock::time_point next_supplement_{};
  Clock::time_point next_health_{};
  common::Backoff backoff_;
  southbound::HandshakeGate* gate_;
  // In line for a handshake slot once a dial is due; moved into open().
  southbound::HandshakeGate::TicketPtr ticket_;
  FailureLog gnmi_log_;        // stream failures: once, reminders, recovery
  FailureLog ssh_log_;         // SSH fallback poll failures
  FailureLog supplement_log_;  // CLI supplement failures
  TargetHealth health_;
  GnmiSourceStats local_;
  bool expired_ = false;
  std::string gnmi_error_;  // why gNMI failed last (scrubbed)
  // The open stream: when it was opened, its sync_response count then, and
  // whether it is past sync_timeout without one.
  Clock::time_point opened_at_{};
  uint64_t syncs_at_open_ = 0;
  bool sync_overdue_ = false;
  // Set by an oversized-message refusal: until a stream has then stayed up a
  // sample interval, a stream coming up does not reset the backoff (a peer
  // that sends one good message and then the oversized one again must not
  // be redialed at the initial delay forever).
  bool oversized_streak_ = false;
  Clock::time_point up_since_{};
  uint64_t dropped_at_health_ = 0;  // queue drops at the last store publish
  QueuedBatch batch_;  // reused drain buffer
  // Hand-over ssh -> gnmi: the last SSH raw reading per counter path. Until
  // the stream's value reaches it (or handover_until_), an older gNMI
  // reading sampled before the SSH poll but delivered after it is dropped,
  // so the store never sees a counter go back (a false reset).
  std::vector<std::pair<std::string, uint64_t>> last_ssh_raw_;
  std::unordered_map<std::string, uint64_t> handover_;
  Clock::time_point handover_until_{};
  void filterHandover();
};

}  // namespace rdmagw::southbound::gnmi
