#pragma once
// Runs a Fabric in real time for the demo: tick 0 is written before start()
// returns (so a collector started next finds a complete tree), then a thread
// steps the fabric and rewrites the tree (sysfs, ethtool and every device's
// CLI outputs) once per period. start() also links each ESXi host's
// bin/esxcli and bin/vsish to rdmagw-sim-shell.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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

  // The rdmagw-sim-shell binary the ESXi shims link to; call before start().
  // Default: defaultShellPath() (sim/device_shell.h).
  void setShellBinary(std::string path) { shell_binary_ = std::move(path); }

  // Called on the runner's thread after every tick is written (and for tick
  // 0 inside start()): how other faces of the fabric, such as the simulated
  // gNMI targets, see the same counters as the files. Set before start().
  using TickObserver = std::function<void(const Fabric&)>;
  void setTickObserver(TickObserver observer) { observer_ = std::move(observer); }

  // Switches the fabric into a scenario (sim/scenario.h) before its next
  // tick; safe from any thread, before or after start().
  void setScenario(Scenario scenario);

  // Hides (or shows again) an RDMA device's sysfs directory from the next
  // tick on (TreeWriter::setDeviceHidden); safe from any thread.
  void setDeviceHidden(const std::string& host, const std::string& device, bool hidden);

  Status start();  // invalid config or an unwritable dir fails here, synchronously
  void stop();     // idempotent; returns after the thread has finished its last write

  // Last tick fully written to disk (-1 before start); safe from any thread.
  int writtenTick() const { return written_tick_.load(); }
  // Wall time the last tick took to step the model and write the tree.
  std::chrono::microseconds lastTickCost() const {
    return std::chrono::microseconds(last_tick_us_.load());
  }

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
  std::optional<Scenario> pending_scenario_;  // guarded by mu_; applied by the next tick
  struct Visibility {
    std::string host, device;
    bool hidden;
  };
  std::vector<Visibility> pending_visibility_;  // guarded by mu_; applied by the next tick
  std::atomic<int> written_tick_{-1};
  std::atomic<int64_t> last_tick_us_{0};
  std::string shell_binary_;
  TickObserver observer_;
};

}  // namespace rdmagw::sim
