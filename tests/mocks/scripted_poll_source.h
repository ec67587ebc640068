#pragma once
// A PollSource whose polls follow a script the test sets: succeed with some
// updates, fail partly, fail whole, or hang for a while.

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "southbound/poll_source.h"

namespace rdmagw::testing {

class ScriptedPollSource : public southbound::PollSource {
 public:
  using Script = std::function<Status(int poll_number, PollBatch& batch)>;
  explicit ScriptedPollSource(Script script) : script_(std::move(script)) {}

  std::string_view transport() const override { return "scripted"; }
  Status poll(PollBatch& batch) override {
    int n = polls_.fetch_add(1);
    return script_(n, batch);
  }
  int polls() const { return polls_.load(); }

 private:
  Script script_;
  std::atomic<int> polls_{0};
};

}  // namespace rdmagw::testing
