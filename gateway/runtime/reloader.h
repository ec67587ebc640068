#pragma once
// Applies edits of the configuration to a running Pipeline, on SIGHUP
// (requestReload) and when the main file or a targets_dir file changes
// (gateway/runtime/config_watch.h). Every file is re-read and validated first: one
// error anywhere refuses the whole reload, every error is logged, and the
// running configuration stays. Otherwise only the difference is applied
// (gateway/runtime/target_set_diff.h): added targets start, removed ones stop and
// leave the store, a changed one restarts alone, the rest are untouched.
// log_level and analytics apply live; other changed settings (northbound
// listeners, limits sized at start) are reported as needing a restart and
// not applied at all. docs/reload.md is the operator's account.
//
// Self-metrics (models/schema.yaml), after Prometheus's own:
// config_last_reload_successful, config_last_reload_success_timestamp,
// config_reloads{result}, config_hash, config_restart_pending{setting}.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gateway/config/config.h"
#include "gateway/runtime/pipeline.h"

namespace rdmagw::gateway {

class ConfigWatch;

struct ReloadResult {
  bool ok = false;
  std::vector<std::string> errors;  // "file:line:col: key.path: message", each
  size_t added = 0, removed = 0, changed = 0, unchanged = 0;
  std::vector<std::string> needs_restart;  // settings changed on disk, not applied
  std::chrono::nanoseconds took{0};
  std::string summary() const;  // one line for logs and tests
};

struct ReloaderOptions {
  bool watch_files = true;  // inotify on the main file and targets_dir
  std::chrono::milliseconds debounce{1000};
  bool log_level_from_flag = false;  // --log-level given: the config's log_level is not applied
  // Called on the reloading thread around each reload, e.g. to tell systemd
  // RELOADING=1 and READY=1.
  std::function<void()> on_reload_start;
  std::function<void(const ReloadResult&)> on_reload_end;
  // In a fleet (gateway/fleet/fleet.h): which of the configured targets this
  // member collects. When set, the pipeline must have been started with no
  // targets: the first requestReplace() places them.
  std::function<std::vector<TargetConfig>(const std::vector<TargetConfig>&)> place;
};

class Reloader {
 public:
  // `loaded`: the configuration `pipeline` was started with, as read from
  // `config_path` (before the pipeline derived anything from it).
  Reloader(Pipeline& pipeline, std::string config_path, GatewayConfig loaded, ReloaderOptions options = {});
  ~Reloader();  // stop()
  Reloader(const Reloader&) = delete;
  Reloader& operator=(const Reloader&) = delete;

  // The reloading thread (and the file watch, when on).
  Status start();
  void stop();
  // Asks the reloading thread for a reload; requests made while one runs
  // make one more after it (never lost, never piled up). Async-signal-safe
  // it is not: call it from the thread that waits for signals.
  void requestReload(const std::string& why);
  // Asks for the configured targets to be placed again (the fleet's member
  // set changed): the same live add/remove as a reload, without re-reading
  // the files. A pending reload covers it.
  void requestReplace(const std::string& why);

  // Re-reads and applies now, on the caller's thread (serialized with the
  // reloading thread's reloads).
  ReloadResult reload(const std::string& why = "requested");
  // Places the running configuration's targets now, on the caller's thread.
  ReloadResult replace(const std::string& why);
  std::vector<std::string> placedTargets() const;  // what the pipeline runs, sorted

  uint64_t reloadsDone() const;  // successful and refused, since start
  ReloadResult lastResult() const;
  // Waits until reloadsDone() >= n or `limit` passes; false on timeout.
  bool waitForReloads(uint64_t n, std::chrono::milliseconds limit) const;

 private:
  void loop();

  Pipeline& pipeline_;
  const std::string config_path_;
  ReloaderOptions options_;
  std::unique_ptr<ConfigWatch> watch_;

  mutable std::mutex reload_mu_;  // one reload at a time; guards running_
  GatewayConfig running_;  // the configuration running, as read (targets unspread)
  std::vector<TargetConfig> placed_;  // guarded by reload_mu_: the targets the pipeline runs
  // The targets of `config` this gateway runs (all of them outside a fleet).
  std::vector<TargetConfig> placedOf(const GatewayConfig& config) const;

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool stopping_ = false;            // guarded by mu_
  bool pending_ = false;             // guarded by mu_
  bool pending_replace_ = false;     // guarded by mu_
  std::string pending_replace_why_;  // guarded by mu_
  std::string pending_why_;          // guarded by mu_
  uint64_t done_ = 0;                // guarded by mu_
  uint64_t succeeded_ = 0, failed_ = 0;  // guarded by mu_
  bool last_ok_ = true;              // guarded by mu_
  double last_success_s_ = 0;        // guarded by mu_
  uint64_t hash_ = 0;                // guarded by mu_
  std::vector<std::string> restart_pending_;  // guarded by mu_
  ReloadResult last_;                // guarded by mu_
  std::thread thread_;
  uint64_t metrics_id_ = 0;
};

// FNV-1a of the main file and every targets_dir file (names and bytes):
// equal on two gateways running the same files.
uint64_t configHash(const std::string& config_path, const GatewayConfig& config);

}  // namespace rdmagw::gateway
