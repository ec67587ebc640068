#include "southbound/poll_scheduler.h"

#include <algorithm>

#include "models/log.h"

namespace rdmagw::southbound {

using Clock = std::chrono::steady_clock;

PollScheduler::PollScheduler(Store& store, size_t max_concurrent_polls)
    : store_(store), max_workers_(std::max<size_t>(1, max_concurrent_polls)) {}

PollScheduler::~PollScheduler() { stop(); }

void PollScheduler::add(PollTarget target) {
  auto slot = std::make_unique<Slot>();
  if (target.stale_after.count() == 0) target.stale_after = target.interval * 3;
  slot->health.kind = target.kind;
  slot->health.transport = std::string(target.source->transport());
  slot->health.labels = target.labels;
  slot->health.last_error = "not polled yet";
  store_.setHealth(target.name, slot->health);
  slot->target = std::move(target);
  slot->due = Clock::now();
  std::lock_guard lock(mu_);
  slots_.push_back(std::move(slot));
}

void PollScheduler::start() {
  std::lock_guard lock(mu_);
  stopping_ = false;
  size_t n = std::min(max_workers_, std::max<size_t>(1, slots_.size()));
  for (size_t i = 0; i < n; ++i) workers_.emplace_back([this] { workerLoop(); });
}

void PollScheduler::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
  workers_.clear();
}

void PollScheduler::pollAllOnce() {
  for (auto& slot : slots_) pollOne(*slot);
}

void PollScheduler::workerLoop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    Slot* next = nullptr;
    for (auto& s : slots_) {
      if (!s->busy && (next == nullptr || s->due < next->due)) next = s.get();
    }
    if (next == nullptr) {
      cv_.wait(lock);
      continue;
    }
    if (next->due > Clock::now()) {
      cv_.wait_until(lock, next->due);
      continue;  // re-pick: something else may be due first, or we are stopping
    }
    next->busy = true;
    lock.unlock();
    pollOne(*next);
    lock.lock();
    next->busy = false;
    // Skip missed slots rather than polling back-to-back to catch up.
    auto now = Clock::now();
    next->due += next->target.interval;
    if (next->due < now) next->due = now + next->target.interval;
    cv_.notify_all();
  }
}

void PollScheduler::pollOne(Slot& slot) {
  const PollTarget& t = slot.target;
  TargetHealth& h = slot.health;
  PollBatch batch;
  const TimestampNs started_ns = nowNs();
  const auto t0 = Clock::now();
  Status status = t.source->poll(batch);
  h.poll_duration_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  h.last_attempt_ns = started_ns;
  h.transport = std::string(t.source->transport());
  ++h.polls;

  Store::ApplyResult applied = store_.apply(t.name, batch.updates);
  if (applied.rejected > 0) {
    RDMAGW_LOG(kWarn, "poll") << t.name << ": store rejected " << applied.rejected
                              << " update(s); first: " << applied.first_error;
  }

  if (!status.isOk()) {
    ++h.poll_errors;
    if (h.up || h.last_error != status.message()) {
      RDMAGW_LOG(kWarn, "poll") << t.name << ": collection failed: " << status.message();
    }
    h.up = false;
    h.last_error = status.message();
    // Stale data is expired rather than exported as if fresh; `up` stays at 0.
    if (nowNs() - h.last_success_ns > std::chrono::nanoseconds(t.stale_after).count()) {
      store_.expireData(t.name);
    }
  } else {
    if (!h.up && h.polls > 1) {
      RDMAGW_LOG(kInfo, "poll") << t.name << ": collection recovered";
    }
    h.up = true;
    h.last_success_ns = nowNs();
    h.read_errors += batch.errors.size();
    h.last_error = batch.errors.empty() ? "" : batch.errors.front();
    for (const std::string& err : batch.errors) {
      // A broken file stays broken: say so once at WARN, then at DEBUG.
      if (slot.logged_errors.size() < 256 && slot.logged_errors.insert(err).second) {
        RDMAGW_LOG(kWarn, "poll") << t.name << ": partial read: " << err;
      } else {
        RDMAGW_LOG(kDebug, "poll") << t.name << ": partial read: " << err;
      }
    }
  }
  store_.setHealth(t.name, h);
}

}  // namespace rdmagw::southbound
