#pragma once
// The gNMI server's own counters, read by tests, benchmarks and the
// self-metrics export. Atomics: the dispatcher, gRPC threads and readers
// touch them without a lock.

#include <atomic>
#include <cstdint>

namespace rdmagw::northbound::gnmi_server {

struct ServerStats {
  // Open Subscribe streams by SubscriptionList mode (after their request).
  std::atomic<int64_t> subscribers_once{0};
  std::atomic<int64_t> subscribers_poll{0};
  std::atomic<int64_t> subscribers_stream{0};
  std::atomic<uint64_t> notifications_sent{0};
  std::atomic<uint64_t> updates_sent{0};    // updates plus deletes
  std::atomic<uint64_t> updates_coalesced{0};
  std::atomic<uint64_t> updates_dropped{0};  // a new leaf at a full queue
  std::atomic<uint64_t> get_requests{0};
  // Errors by gRPC status code (index = code, 0..16), per RPC.
  std::atomic<uint64_t> get_errors[17] = {};
  std::atomic<uint64_t> subscribe_errors[17] = {};
};

}  // namespace rdmagw::northbound::gnmi_server
