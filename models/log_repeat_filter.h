#pragma once
// Holds back log lines that repeat: the first line of a kind is written at
// once; more of that kind within `every` of the last one written are only
// counted, and the first one after that is written with the count. A library
// that logs the same trouble on every reconnect (gRPC: a failed TLS
// handshake every backoff step) must not flood the journal.
//
// Two lines are of one kind when their keys are equal; sameness() folds the
// numbers out of a text, so "peer 10.0.0.1:50051" and "peer 10.0.0.2:50051"
// make one kind.
//
// Thread-safe. Keeps at most max_kinds kinds: past that, kinds quiet for
// `every` are forgotten first, and if all are recent it starts over (a few
// repeats then pass; nothing is ever lost silently except counts).

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rdmagw {

class LogRepeatFilter {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::duration kDefaultEvery = std::chrono::minutes(5);

  explicit LogRepeatFilter(Clock::duration every = kDefaultEvery, size_t max_kinds = 512);

  struct Verdict {
    bool write = false;
    uint64_t held_back = 0;  // lines of this kind not written since the last one that was
  };
  Verdict offer(std::string_view key, Clock::time_point now = Clock::now());

  Clock::duration every() const { return every_; }

  // The text with every run of digits folded into one '#'.
  static std::string sameness(std::string_view text);

 private:
  struct Kind {
    Clock::time_point last_written;
    uint64_t held_back = 0;
  };
  void makeRoom(Clock::time_point now);  // with mu_ held

  const Clock::duration every_;
  const size_t max_kinds_;
  std::mutex mu_;
  std::unordered_map<std::string, Kind> kinds_;  // guarded by mu_
};

}  // namespace rdmagw
