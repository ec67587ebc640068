#pragma once
// GnmiTarget's insides, shared with the Subscribe stream reactor
// (sim/gnmi/subscribe_session.h). Not part of the public API.

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "sim/gnmi/connection_ledger.h"
#include "sim/gnmi/gnmi_target.h"
#include "sim/gnmi/nxos_tree.h"

namespace rdmagw::sim {

class SubscribeSession;

class GnmiTarget::Impl {
 public:
  using Clock = std::chrono::steady_clock;

  Impl(std::string name, GnmiTargetOptions options);

  // --- for sessions ---
  enum class Rpc { kCapabilities, kSubscribe };
  // Fault switches and credentials, in that order.
  grpc::Status checkCall(const grpc::CallbackServerContext& ctx, Rpc rpc);
  std::shared_ptr<const gnmi_tree::Snapshot> snapshot() const;
  GnmiQuirks quirks() const;
  std::chrono::milliseconds minSampleInterval() const;
  std::chrono::milliseconds targetDefinedInterval() const {
    return options_.target_defined_interval;
  }
  size_t maxQueuedResponses() const { return options_.max_queued_responses; }
  bool stalled() const { return stall_.load(); }
  uint64_t resetAfterUpdates() const { return reset_after_.load(); }
  void countCoalesced() { coalesced_.fetch_add(1); }
  void countSent(uint64_t updates) {
    notifications_sent_.fetch_add(1, std::memory_order_relaxed);
    updates_sent_.fetch_add(updates, std::memory_order_relaxed);
  }
  bool stampAtSend() const { return options_.stamp_at_send; }
  // A new stream: false when the target is stopping (the caller finishes it).
  bool registerSession(SubscribeSession* s);
  // From OnDone: returns once no other thread uses `s`.
  void unregisterSession(SubscribeSession* s);
  void forEachSession(const std::function<void(SubscribeSession&)>& fn);

  // --- GnmiTarget's API ---
  Status start();
  void stop();

  const std::string name_;
  GnmiTargetOptions options_;  // immutable fields only after construction; see mu_
  GnmiTlsFiles tls_files_;

  mutable std::mutex mu_;  // guards the mutable option fields below
  GnmiQuirks quirks_;
  std::chrono::milliseconds min_sample_;
  std::string username_;
  std::string password_;

  std::atomic<bool> stall_{false};
  std::atomic<uint64_t> reset_after_{0};
  std::atomic<bool> subscribe_unimplemented_{false};
  std::atomic<bool> capabilities_unimplemented_{false};
  std::atomic<uint64_t> subscribe_calls_{0};
  std::atomic<uint64_t> coalesced_{0};
  std::atomic<uint64_t> notifications_sent_{0};
  std::atomic<uint64_t> updates_sent_{0};

  ConnectionLedger ledger_;
  std::atomic<int64_t> starting_until_ns_{0};  // steady clock; RPCs before it: UNAVAILABLE
  std::atomic<bool> starting_owes_refusal_{false};  // the first RPC after setStartingFor is refused however late

  // Capabilities answers held back by capabilities_delay, finished by the
  // scheduler thread (or by stop()).
  struct HeldAnswer {
    Clock::time_point due;
    grpc::ServerUnaryReactor* reactor;
    grpc::Status status;
  };
  void holdAnswer(grpc::ServerUnaryReactor* reactor, grpc::Status status);
  void finishHeldAnswers(bool all);
  std::mutex held_mu_;
  std::vector<HeldAnswer> held_;  // guarded by held_mu_

  mutable std::mutex snap_mu_;
  std::shared_ptr<const gnmi_tree::Snapshot> snap_;  // guarded by snap_mu_
  std::atomic<uint64_t> version_{0};

  mutable std::mutex server_mu_;  // serializes start/stop; guards the fields below
  std::unique_ptr<gnmi::gNMI::CallbackService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::atomic<int> port_{0};

  mutable std::mutex reg_mu_;
  std::condition_variable reg_cv_;
  std::vector<SubscribeSession*> sessions_;  // guarded by reg_mu_
  bool stopping_ = false;                    // guarded by reg_mu_

  std::mutex sched_mu_;
  std::condition_variable sched_cv_;
  bool sched_stop_ = false;  // guarded by sched_mu_
  std::thread sched_;

 private:
  void schedulerLoop();
};

}  // namespace rdmagw::sim
