#pragma once
// Runs a Fabric in real time for the demo: tick 0 is written before start()
// returns (so a collector started next finds a complete tree), then a thread
// steps the fabric and rewrites the tree once per period.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "models/status.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"

namespace rdmagw::sim {

class SimRunner {
 public:
  SimRunner(FabricConfig config, std::string dir, std::chrono::milliseconds period);
  ~SimRunner();  // stops the thread
  SimRunner(const SimRunner&) = delete;
  SimRunner& operator=(const SimRunner&) = delete;

  Status start();  // invalid config or an unwritable dir fails here, synchronously
  void stop();     // idempotent; returns after the thread has finished its last write

  // Last tick fully written to disk (-1 before start); safe from any thread.
  int writtenTick() const { return written_tick_.load(); }

 private:
  void run();

  FabricConfig config_;
  std::string dir_;
  std::chrono::milliseconds period_;
  Fabric fabric_;      // touched by start() and then only by the thread
  TreeWriter writer_;  // likewise
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // guarded by mu_
  std::atomic<int> written_tick_{-1};
};

}  // namespace rdmagw::sim
