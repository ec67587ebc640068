#include "southbound/poll_scheduler.h"

#include <algorithm>
#include <map>
#include <set>

#include "models/log.h"
#include "models/thread_role.h"

namespace rdmagw::southbound {

using Clock = std::chrono::steady_clock;

namespace {

// Distinct partial-read errors tracked per target for logging; past this a
// target's new errors are logged at DEBUG only (still counted in health).
constexpr size_t kMaxTrackedPartErrors = 256;

}  // namespace

struct PollScheduler::Slot {
  explicit Slot(PollTarget t)
      : target(std::move(t)),
        retry(target.retry_initial, std::max(target.retry_initial, target.interval)),
        failure_log("poll", target.name + ": collection failed") {}
  PollTarget target;
  TargetHealth health;
  Clock::time_point due;
  bool busy = false;       // guarded by the scheduler's mu_
  bool removing = false;   // guarded by the scheduler's mu_: never picked again
  common::Backoff retry;   // the poller's only
  FailureLog failure_log;  // the poller's only
  FailureLog rejected_log{"poll", target.name + ": store rejected updates"};  // the poller's only
  std::map<std::string, FailureLog> part_errors;  // by FailureLog::sameness(); the poller's only
};

PollScheduler::PollScheduler(Store& store, size_t max_concurrent_polls)
    : store_(store), max_workers_(std::max<size_t>(1, max_concurrent_polls)) {}

PollScheduler::~PollScheduler() { stop(); }

void PollScheduler::add(PollTarget target) {
  if (target.stale_after.count() == 0) target.stale_after = target.interval * 3;
  auto slot = std::make_unique<Slot>(std::move(target));
  slot->health.kind = slot->target.kind;
  slot->health.transport = std::string(slot->target.source->transport());
  slot->health.labels = slot->target.labels;
  slot->health.last_error = "not polled yet";
  store_.setHealth(slot->target.name, slot->health);
  slot->due = Clock::now();
  {
    std::lock_guard lock(mu_);
    slots_.push_back(std::move(slot));
    if (started_) growWorkers();
  }
  cv_.notify_all();
}

bool PollScheduler::remove(const std::string& name) {
  std::unique_ptr<Slot> gone;
  {
    std::unique_lock lock(mu_);
    auto it = std::find_if(slots_.begin(), slots_.end(),
                           [&name](const std::unique_ptr<Slot>& s) { return s->target.name == name; });
    if (it == slots_.end()) return false;
    Slot* slot = it->get();
    slot->removing = true;
    // A worker polling it writes its batch and health before clearing busy.
    cv_.wait(lock, [slot] { return !slot->busy; });
    it = std::find_if(slots_.begin(), slots_.end(), [slot](const std::unique_ptr<Slot>& s) { return s.get() == slot; });
    gone = std::move(*it);
    slots_.erase(it);
  }
  // Outside mu_: closing an SSH session may take a round trip.
  gone.reset();
  return true;
}

size_t PollScheduler::targetCount() const {
  std::lock_guard lock(mu_);
  return slots_.size();
}

// One worker per target up to the limit; workers are not shrunk when targets
// go (an idle worker only waits).
void PollScheduler::growWorkers() {
  const size_t want = std::min(max_workers_, std::max<size_t>(1, slots_.size()));
  while (workers_.size() < want) {
    workers_.emplace_back([this] {
      enterThreadRole("poll-worker", ThreadRole::kIngest);
      workerLoop();
    });
  }
}

void PollScheduler::start() {
  std::lock_guard lock(mu_);
  stopping_ = false;
  started_ = true;
  growWorkers();
}

void PollScheduler::stop() {
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    started_ = false;
    workers.swap(workers_);
  }
  cv_.notify_all();
  for (auto& t : workers) t.join();
}

void PollScheduler::pollAllOnce() {
  for (auto& slot : slots_) pollOne(*slot);
}

void PollScheduler::workerLoop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    heartbeat_.fetch_add(1, std::memory_order_relaxed);
    Slot* next = nullptr;
    for (auto& s : slots_) {
      if (!s->busy && !s->removing && (next == nullptr || s->due < next->due)) next = s.get();
    }
    const Clock::time_point beat = Clock::now() + kHeartbeatPeriod;
    if (next == nullptr) {
      cv_.wait_until(lock, beat);
      continue;
    }
    if (next->due > Clock::now()) {
      // A copy: wait_until reads its deadline after waking, and by then
      // remove() may have freed the slot.
      const Clock::time_point due = std::min(next->due, beat);
      cv_.wait_until(lock, due);
      continue;  // re-pick: something else may be due first, or we are stopping
    }
    next->busy = true;
    lock.unlock();
    const Clock::time_point due = pollOne(*next);
    lock.lock();
    next->busy = false;
    next->due = due;
    cv_.notify_all();
  }
}

Clock::time_point PollScheduler::pollOne(Slot& slot) {
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

  Store::ApplyResult applied = store_.apply(t.name, batch);
  if (applied.rejected > 0) {
    slot.rejected_log.failed(std::to_string(applied.rejected) + " update(s); first: " + applied.first_error);
  } else {
    slot.rejected_log.recovered();
  }

  Clock::time_point next_due;
  if (!status.isOk()) {
    ++h.poll_errors;
    h.up = false;
    const auto retry = std::min<Clock::duration>(slot.retry.next(), t.interval);
    next_due = Clock::now() + retry;
    h.last_error = status.message();
    slot.failure_log.failed(status.message());
    // Stale data is expired rather than exported as if fresh; `up` stays at 0.
    if (nowNs() - h.last_success_ns > std::chrono::nanoseconds(t.stale_after).count()) {
      store_.expireData(t.name);
    }
  } else {
    slot.retry.reset();
    slot.failure_log.recovered();
    h.up = true;
    h.last_success_ns = nowNs();
    h.read_errors += batch.errors.size();
    h.last_error = batch.errors.empty() ? "" : batch.errors.front();
    logPartErrors(slot, batch.errors);
    // Skip missed slots rather than polling back-to-back to catch up.
    next_due = slot.due + t.interval;
    if (next_due < Clock::now()) next_due = Clock::now() + t.interval;
  }
  store_.setHealth(t.name, h);
  return next_due;
}

// One FailureLog per distinct broken part (a sysfs file, a device): logged
// when it breaks, reminded every few minutes, and logged when it reads again.
void PollScheduler::logPartErrors(Slot& slot, const std::vector<std::string>& errors) {
  std::set<std::string> seen;
  for (const std::string& err : errors) {
    std::string key = FailureLog::sameness(err);
    auto it = slot.part_errors.find(key);
    if (it == slot.part_errors.end()) {
      if (slot.part_errors.size() >= kMaxTrackedPartErrors) {
        RDMAGW_LOG(kDebug, "poll") << slot.target.name << ": partial read: " << err;
        continue;
      }
      it = slot.part_errors.try_emplace(key, "poll", slot.target.name + ": partial read").first;
    }
    it->second.failed(err);
    seen.insert(std::move(key));
  }
  for (auto it = slot.part_errors.begin(); it != slot.part_errors.end();) {
    if (seen.count(it->first) > 0) {
      ++it;
      continue;
    }
    it->second.recovered();
    it = slot.part_errors.erase(it);
  }
}

}  // namespace rdmagw::southbound
