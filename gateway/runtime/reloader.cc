#include "gateway/runtime/reloader.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "common/file_text.h"
#include "common/hash.h"
#include "gateway/runtime/config_watch.h"
#include "gateway/runtime/target_set_diff.h"
#include "models/log.h"
#include "models/self_metrics.h"
#include "models/thread_role.h"

namespace rdmagw::gateway {

namespace {

double unixSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void fnv1a(uint64_t* h, const std::string& bytes) {
  *h = common::fnv1a(bytes, *h);
  *h = common::fnv1aMix(*h, 0xff);  // a separator, so ("ab","c") and ("a","bc") differ
}

// An unreadable file hashes as empty: reporting it is the config reader's job.
std::string fileText(const std::string& path) { return common::readFileText(path).text; }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::string setting(const GatewayConfig& c, const std::string& key) {
  auto it = c.settings_text.find(key);
  return it == c.settings_text.end() ? std::string() : it->second;
}

}  // namespace

uint64_t configHash(const std::string& config_path, const GatewayConfig& config) {
  uint64_t h = common::kFnv1aOffset;
  fnv1a(&h, fileText(config_path));
  for (const std::string& f : config.target_files) {
    fnv1a(&h, f);
    fnv1a(&h, fileText(f));
  }
  return h;
}

std::string ReloadResult::summary() const {
  std::ostringstream s;
  if (!ok) {
    s << "refused (" << errors.size() << " error(s)); the running configuration stays";
    return s.str();
  }
  s << added << " added, " << removed << " removed, " << changed << " restarted, " << unchanged << " unchanged";
  if (!needs_restart.empty()) {
    s << "; needs restart to apply:";
    for (const std::string& k : needs_restart) s << " " << k;
  }
  s << " (" << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms)";
  return s.str();
}

Reloader::Reloader(Pipeline& pipeline, std::string config_path, GatewayConfig loaded, ReloaderOptions options)
    : pipeline_(pipeline),
      config_path_(std::move(config_path)),
      options_(std::move(options)),
      running_(std::move(loaded)) {
  if (!options_.place) placed_ = running_.targets;
  // The start-up load counts as the first successful one (as Prometheus's).
  last_success_s_ = unixSeconds();
  hash_ = configHash(config_path_, running_);
  last_.ok = true;
  last_.unchanged = running_.targets.size();
  metrics_id_ = SelfMetrics::instance().add([this](std::vector<SelfMetricSample>* out) {
    std::lock_guard lock(mu_);
    out->push_back({"config_last_reload_successful", {}, last_ok_ ? 1.0 : 0.0});
    out->push_back({"config_last_reload_success_timestamp", {}, last_success_s_});
    out->push_back({"config_reloads", {"success"}, double(succeeded_)});
    out->push_back({"config_reloads", {"failure"}, double(failed_)});
    // 53 bits: exact in a double sample.
    out->push_back({"config_hash", {}, double(hash_ & ((uint64_t{1} << 53) - 1))});
    for (const std::string& s : restart_pending_) out->push_back({"config_restart_pending", {s}, 1.0});
  });
}

Reloader::~Reloader() {
  stop();
  SelfMetrics::instance().remove(metrics_id_);
}

Status Reloader::start() {
  if (thread_.joinable()) return Status::ok();
  {
    std::lock_guard lock(mu_);
    stopping_ = false;
  }
  thread_ = std::thread([this] {
    enterThreadRole("reload", ThreadRole::kServe);
    loop();
  });
  if (options_.watch_files) {
    watch_ = std::make_unique<ConfigWatch>([this] { requestReload("a configuration file changed"); },
                                           options_.debounce);
    if (Status st = watch_->start(); !st.isOk()) {
      RDMAGW_LOG(kWarn, "reload") << "no file watch (" << st.message() << "): reload with SIGHUP";
      watch_.reset();
    } else {
      std::lock_guard lock(reload_mu_);
      watch_->watch(config_path_, running_.targets_dir);
    }
  }
  return Status::ok();
}

void Reloader::stop() {
  if (watch_) watch_->stop();  // first: it calls requestReload
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  watch_.reset();  // after the reloading thread: a reload re-arms it
}

void Reloader::requestReload(const std::string& why) {
  {
    std::lock_guard lock(mu_);
    if (!pending_) pending_why_ = why;
    pending_ = true;
  }
  cv_.notify_all();
}

void Reloader::requestReplace(const std::string& why) {
  {
    std::lock_guard lock(mu_);
    pending_replace_why_ = why;  // the latest reason: the set it names is the one that counts
    pending_replace_ = true;
  }
  cv_.notify_all();
}

void Reloader::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || pending_ || pending_replace_; });
    if (stopping_) return;
    if (pending_) {
      pending_ = false;
      pending_replace_ = false;  // a reload places too
      const std::string why = pending_why_;
      lock.unlock();
      reload(why);
    } else {
      pending_replace_ = false;
      const std::string why = pending_replace_why_;
      lock.unlock();
      replace(why);
    }
    lock.lock();
  }
}

std::vector<TargetConfig> Reloader::placedOf(const GatewayConfig& config) const {
  return options_.place ? options_.place(config.targets) : config.targets;
}

std::vector<std::string> Reloader::placedTargets() const {
  std::lock_guard lock(reload_mu_);
  std::vector<std::string> out;
  for (const TargetConfig& t : placed_) out.push_back(t.name);
  std::sort(out.begin(), out.end());
  return out;
}

ReloadResult Reloader::replace(const std::string& why) {
  std::lock_guard reload_lock(reload_mu_);
  const auto t0 = std::chrono::steady_clock::now();
  ReloadResult result;
  std::vector<TargetConfig> next = placedOf(running_);
  const TargetSetDiff diff = diffTargets(placed_, next);
  if (diff.empty()) {
    result.ok = true;
    result.unchanged = diff.unchanged;
    return result;
  }
  Status applied = pipeline_.applyTargets(diff);
  result.took = std::chrono::steady_clock::now() - t0;
  if (!applied.isOk()) {
    result.errors = lines(applied.message());
    for (const std::string& e : result.errors) RDMAGW_LOG(kError, "fleet") << e;
    return result;
  }
  placed_ = std::move(next);
  result.ok = true;
  result.added = diff.added.size();
  result.removed = diff.removed.size();
  result.changed = diff.changed.size();
  result.unchanged = diff.unchanged;
  std::string taken, given;
  for (const TargetConfig& t : diff.added) taken += " " + t.name;
  for (const std::string& n : diff.removed) given += " " + n;
  RDMAGW_LOG(kInfo, "fleet") << "placement (" << why << "): " << result.summary()
                             << (taken.empty() ? "" : "; now collecting:" + taken)
                             << (given.empty() ? "" : "; handed over:" + given);
  return result;
}

ReloadResult Reloader::reload(const std::string& why) {
  std::lock_guard reload_lock(reload_mu_);
  if (options_.on_reload_start) options_.on_reload_start();
  const auto t0 = std::chrono::steady_clock::now();
  RDMAGW_LOG(kInfo, "reload") << "reloading " << config_path_ << " (" << why << ")";
  ReloadResult result;
  Result<GatewayConfig> next = loadConfigFile(config_path_);
  Status applied = Status::ok();
  if (!next.isOk()) {
    result.errors = lines(next.status().message());
  } else {
    std::vector<TargetConfig> next_placed = placedOf(*next);
    const TargetSetDiff diff = diffTargets(placed_, next_placed);
    result.needs_restart = settingsNeedingRestart(running_, *next);
    applied = pipeline_.applyTargets(diff);
    if (!applied.isOk()) {
      result.errors = lines(applied.message());
    } else {
      result.ok = true;
      result.added = diff.added.size();
      result.removed = diff.removed.size();
      result.changed = diff.changed.size();
      result.unchanged = diff.unchanged;
      for (const TargetConfig& t : diff.added) RDMAGW_LOG(kInfo, "reload") << "target " << t.name << " added (" << t.defined_at << ")";
      for (const std::string& n : diff.removed) RDMAGW_LOG(kInfo, "reload") << "target " << n << " removed";
      for (const TargetConfig& t : diff.changed) RDMAGW_LOG(kInfo, "reload") << "target " << t.name << " restarted: its settings changed (" << t.defined_at << ")";
      if (analyticsChanged(running_, *next)) {
        pipeline_.setAnalytics(next->analytics_enabled, next->analytics);
        RDMAGW_LOG(kInfo, "reload") << "analytics restarted with the new settings";
      }
      if (setting(running_, "log_level") != setting(*next, "log_level") && !options_.log_level_from_flag) {
        setLogLevel(next->log_level);
      }
      for (const std::string& k : result.needs_restart) {
        RDMAGW_LOG(kWarn, "reload") << k << " changed: needs a restart to apply; it runs as before";
      }
      // What runs now: the new targets and live settings; the settings that
      // need a restart keep the values they run with, so they stay pending.
      GatewayConfig now = std::move(next).value();
      for (const std::string& k : result.needs_restart) now.settings_text[k] = setting(running_, k);
      running_ = std::move(now);
      placed_ = std::move(next_placed);
    }
  }
  result.took = std::chrono::steady_clock::now() - t0;
  for (const std::string& e : result.errors) RDMAGW_LOG(kError, "reload") << e;
  if (result.ok) RDMAGW_LOG(kInfo, "reload") << "done: " << result.summary();
  else RDMAGW_LOG(kError, "reload") << result.summary();
  if (watch_) watch_->watch(config_path_, running_.targets_dir);
  const uint64_t hash = result.ok ? configHash(config_path_, running_) : 0;
  {
    std::lock_guard lock(mu_);
    ++done_;
    last_ok_ = result.ok;
    if (result.ok) {
      ++succeeded_;
      last_success_s_ = unixSeconds();
      hash_ = hash;
      restart_pending_ = result.needs_restart;
    } else {
      ++failed_;
    }
    last_ = result;
  }
  cv_.notify_all();
  if (options_.on_reload_end) options_.on_reload_end(result);
  return result;
}

uint64_t Reloader::reloadsDone() const {
  std::lock_guard lock(mu_);
  return done_;
}

ReloadResult Reloader::lastResult() const {
  std::lock_guard lock(mu_);
  return last_;
}

bool Reloader::waitForReloads(uint64_t n, std::chrono::milliseconds limit) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, limit, [this, n] { return done_ >= n; });
}

}  // namespace rdmagw::gateway
