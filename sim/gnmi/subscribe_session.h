#pragma once
// One gNMI Subscribe stream on the simulated target (gRPC callback API).
// Responses wait in a per-stream queue; only one write is outstanding at a
// time, and a full queue makes the scheduler skip samples instead of
// growing, so a slow client never holds up the others.
//
// Lifetime: gRPC owns the reactor; OnDone unregisters it from the target and
// deletes it. The target's scheduler calls pump() on registered sessions.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "sim/gnmi/gnmi_target_impl.h"
#include "sim/gnmi/nxos_tree.h"

namespace rdmagw::sim {

class SubscribeSession
    : public grpc::ServerBidiReactor<gnmi::SubscribeRequest, gnmi::SubscribeResponse> {
 public:
  using Clock = std::chrono::steady_clock;

  SubscribeSession(GnmiTarget::Impl* target, grpc::CallbackServerContext* ctx);

  // Generates whatever is due at `now` (initial set, polls, samples,
  // changes, keepalives) and starts writing.
  void pump(Clock::time_point now);
  // Finishes the stream with `status`, dropping responses not yet written.
  void requestFinish(const grpc::Status& status);

  int pins = 0;  // guarded by the target's reg_mu_

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  struct Sub {
    gnmi::Path path;
    gnmi::SubscriptionMode mode = gnmi::SAMPLE;
    Clock::duration interval{};
    Clock::time_point next{};
    bool suppress_redundant = false;
    Clock::duration heartbeat{};
    Clock::time_point next_heartbeat{};
    uint64_t seen_version = 0;
    std::map<gnmi_tree::Selection, uint64_t> last;  // fingerprints sent
  };

  grpc::Status setupLocked(const gnmi::SubscribeRequest& req);
  void pumpLocked(Clock::time_point now);
  // Queues the subscription's values: all of them, or only the changed ones.
  void emitLocked(Sub& sub, const gnmi_tree::Snapshot& snap, bool changed_only);
  void syncLocked();
  void pushUpdateLocked(gnmi::Notification n);
  void finishLocked(const grpc::Status& status, bool drop_queue);
  void kick();  // starts the next write or the Finish; never under mu_
  void startRead();

  GnmiTarget::Impl* const target_;
  grpc::CallbackServerContext* const ctx_;

  std::mutex ops_mu_;  // serializes StartRead with Finish; taken before mu_, never after

  std::mutex mu_;  // guards everything below
  enum class Phase { kAwaitRequest, kActive } phase_ = Phase::kAwaitRequest;
  gnmi::SubscriptionList::Mode mode_ = gnmi::SubscriptionList::STREAM;
  bool proto_ = true;
  bool updates_only_ = false;
  GnmiQuirks quirks_;
  std::vector<Sub> subs_;
  bool initial_pending_ = false;
  int polls_pending_ = 0;
  Clock::time_point next_keepalive_{};
  uint64_t updates_queued_ = 0;
  std::deque<gnmi::SubscribeResponse> out_;  // front is in flight while writing_
  bool writing_ = false;
  bool finish_pending_ = false;
  bool finish_decided_ = false;
  grpc::Status finish_status_;
  gnmi::SubscribeRequest req_;  // the read buffer
};

}  // namespace rdmagw::sim
