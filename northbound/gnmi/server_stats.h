#pragma once
// The gNMI server's own counters, read by tests, benchmarks and the
// self-metrics export. Atomics: the dispatcher, gRPC threads and readers
// touch them without a lock.

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "models/lag_histogram.h"

namespace rdmagw::northbound::gnmi {

// Upper bounds (seconds) of the change -> send lag buckets: fine around the
// millisecond a subscriber of a changed leaf should wait at most.
inline constexpr std::array<double, 14> kChangeSendLagBounds = {
    0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 1, 5};

// gRPC status code names, by code (0..16), for metrics labels and logs.
inline constexpr const char* kGrpcCodeNames[17] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
    "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
inline const char* grpcCodeName(int code) { return code >= 0 && code < 17 ? kGrpcCodeNames[code] : "UNKNOWN"; }

// What this member's forwarded calls to one other member carry: kept per
// destination so an operator sees which member a fleet's forwarding leans
// on. Held by each UpstreamLink and fleet Get part while it runs.
struct MemberForwardStats {
  std::atomic<int64_t> streams{0};         // forwarded Subscribe streams open now
  std::atomic<uint64_t> notifications{0};  // received on forwarded Subscribes and Gets
  std::atomic<uint64_t> bytes{0};          // their serialized size

  struct Values {
    int64_t streams = 0;
    uint64_t notifications = 0, bytes = 0;
  };
  Values values() const { return {streams.load(), notifications.load(), bytes.load()}; }
};

struct ServerStats {
  // Open Subscribe streams by SubscriptionList mode (after their request).
  std::atomic<int64_t> subscribers_once{0};
  std::atomic<int64_t> subscribers_poll{0};
  std::atomic<int64_t> subscribers_stream{0};
  std::atomic<uint64_t> notifications_sent{0};
  std::atomic<uint64_t> updates_sent{0};    // updates plus deletes
  std::atomic<uint64_t> updates_coalesced{0};
  std::atomic<uint64_t> updates_dropped{0};  // a new leaf at a full queue
  // Store changes some stream listens for, copied into the hub's inbox (the
  // rest are passed over on the writer's thread: change_interest.h).
  std::atomic<uint64_t> changes_taken{0};
  std::atomic<uint64_t> get_requests{0};
  // Errors by gRPC status code (index = code, 0..16), per RPC.
  std::atomic<uint64_t> get_errors[17] = {};
  std::atomic<uint64_t> subscribe_errors[17] = {};
  // ON_CHANGE updates and deletes by how long after the store applied the
  // change their notification was written to the stream (handed to gRPC's
  // transport, OnWriteDone): the gateway's own part of a subscriber's wait.
  LagHistogram change_send_lag{kChangeSendLagBounds};
  // In a fleet: requests this member forwarded to the members that own
  // their targets, for its own clients.
  std::atomic<uint64_t> forwarded_get_calls{0};       // one per member asked
  std::atomic<uint64_t> forwarded_streams_opened{0};  // first forward, re-route, retry
  std::atomic<uint64_t> forwarded_streams_rerouted{0};  // dropped: the target's owner changed
  std::atomic<uint64_t> forwarded_updates_received{0};

  // The counters for `member`, made on first use and kept (members are a
  // few names; a gone member's totals stay as counters should).
  std::shared_ptr<MemberForwardStats> forwardingTo(const std::string& member) {
    std::lock_guard lock(members_mu_);
    std::shared_ptr<MemberForwardStats>& s = by_member_[member];
    if (!s) s = std::make_shared<MemberForwardStats>();
    return s;
  }
  // Every member's counters, by name.
  std::map<std::string, std::shared_ptr<MemberForwardStats>> forwarding() const {
    std::lock_guard lock(members_mu_);
    return by_member_;
  }

 private:
  mutable std::mutex members_mu_;
  std::map<std::string, std::shared_ptr<MemberForwardStats>> by_member_;  // guarded by members_mu_
};

}  // namespace rdmagw::northbound::gnmi
