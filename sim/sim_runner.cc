#include "sim/sim_runner.h"

#include <utility>

#include "models/log.h"
#include "sim/device_shell.h"

namespace rdmagw::sim {

SimRunner::SimRunner(FabricConfig config, std::string dir, std::chrono::milliseconds period)
    : config_(config), dir_(std::move(dir)), period_(period), fabric_(config), writer_(dir_) {}

SimRunner::~SimRunner() { stop(); }

void SimRunner::setScenario(Scenario scenario) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_scenario_ = scenario;
}

void SimRunner::setDeviceHidden(const std::string& host, const std::string& device, bool hidden) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_visibility_.push_back({host, device, hidden});
}

Status SimRunner::start() {
  if (thread_.joinable()) return Status::invalidArgument("sim: already started");
  if (Status s = config_.validate(); !s.isOk()) return s;
  if (period_.count() <= 0) return Status::invalidArgument("sim.period: must be positive");
  {
    // A scenario chosen before start shapes tick 0's flows already.
    std::lock_guard<std::mutex> lock(mu_);
    if (pending_scenario_) fabric_.setScenario(*std::exchange(pending_scenario_, std::nullopt));
    for (const Visibility& v : std::exchange(pending_visibility_, {})) writer_.setDeviceHidden(v.host, v.device, v.hidden);
  }
  if (Status s = writer_.write(fabric_); !s.isOk()) return s;
  written_tick_ = fabric_.tick();
  if (observer_) observer_(fabric_);
  if (!fabric_.esxiHosts().empty()) {
    const std::string shell = shell_binary_.empty() ? defaultShellPath() : shell_binary_;
    for (const EsxiHost& esx : fabric_.esxiHosts()) {
      if (Status s = installEsxiShims(dir_ + "/" + esx.name, shell); !s.isOk()) {
        // The files are still there to read; only the ESXi shell is missing.
        RDMAGW_LOG(kWarn, "sim") << esx.name << ": esxcli/vsish not installed: " << s.message();
        break;
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = false;
  }
  thread_ = std::thread([this] { run(); });
  return Status::ok();
}

void SimRunner::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SimRunner::run() {
  auto next = std::chrono::steady_clock::now() + period_;
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_until(lock, next, [this] { return stopping_; })) {
    const std::optional<Scenario> scenario = std::exchange(pending_scenario_, std::nullopt);
    const std::vector<Visibility> visibility = std::exchange(pending_visibility_, {});
    lock.unlock();
    if (scenario) fabric_.setScenario(*scenario);
    for (const Visibility& v : visibility) writer_.setDeviceHidden(v.host, v.device, v.hidden);
    const auto began = std::chrono::steady_clock::now();
    fabric_.step();
    const Status s = writer_.write(fabric_);
    last_tick_us_ = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - began)
                        .count();
    if (!s.isOk()) {
      // Keep ticking: a transient full disk should not end the demo.
      RDMAGW_LOG(kWarn, "sim") << "tick " << fabric_.tick() << ": " << s.toString();
    } else {
      written_tick_ = fabric_.tick();
    }
    if (observer_) observer_(fabric_);
    // A fixed schedule, not "period after the write", so ticks do not drift.
    next += period_;
    // If writing fell behind by more than a period, skip ahead rather than burst.
    if (auto now = std::chrono::steady_clock::now(); next < now) next = now + period_;
    lock.lock();
  }
}

}  // namespace rdmagw::sim
