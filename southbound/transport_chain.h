#pragma once
// A device read by several poll transports in order of preference, such as
// a Nexus over NX-API with the SSH CLI behind it. One PollSource to the
// scheduler (or to the gNMI source as its fallback): it polls the transport
// in use; after `fail_after` polls in a row that could not reach the
// device (kUnavailable), it moves to the next one and polls it at once.
// While a less preferred transport carries the device, the preferred ones
// are tried again, first after `retry_preferred_after` and then with
// jittered backoff, before the poll: the first that answers takes the
// device back. Every transport writes the same paths and one poll writes
// one transport's batch, so a change of transport neither duplicates nor
// resets a counter.
//
// Not thread-safe: one poll at a time, like every PollSource.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common/backoff.h"
#include "southbound/poll_source.h"

namespace rdmagw::southbound {

struct TransportChainOptions {
  std::string target;  // for log lines
  int fail_after = 3;
  std::chrono::milliseconds retry_preferred_after{60000};
  std::function<std::chrono::steady_clock::time_point()> now = std::chrono::steady_clock::now;
};

struct TransportChainStats {
  uint64_t changes = 0;            // transport changes, either way
  uint64_t preferred_retries = 0;  // polls of a preferred transport while another carried
};

class TransportChain : public PollSource {
 public:
  // `chain` in order of preference; at least one.
  TransportChain(std::vector<PollSourcePtr> chain, TransportChainOptions options);

  std::string_view transport() const override { return chain_[active_]->transport(); }
  Status poll(PollBatch& batch) override;

  size_t active() const { return active_; }
  const TransportChainStats& stats() const { return stats_; }

 private:
  void moveTo(size_t index, const std::string& why);

  std::vector<PollSourcePtr> chain_;
  TransportChainOptions opts_;
  size_t active_ = 0;
  int failures_ = 0;  // unreachable polls in a row on the active transport
  std::chrono::steady_clock::time_point next_retry_{};
  common::Backoff retry_backoff_;
  TransportChainStats stats_;
};

}  // namespace rdmagw::southbound
