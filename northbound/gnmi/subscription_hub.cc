#include "northbound/gnmi/subscription_hub.h"

#include <algorithm>

#include "northbound/gnmi/subscribe_session.h"
#include "models/thread_role.h"

namespace rdmagw::northbound::gnmi {
namespace {

// The dispatcher also wakes this often with nothing due, to notice a
// change of plan (a new stream's timers) without a signal.
constexpr auto kIdleWake = std::chrono::milliseconds(200);
// How often the dispatcher reads the fleet view to re-route forwarded
// subscriptions (the view changes within the lease TTL of a member's death).
constexpr auto kFleetRead = std::chrono::milliseconds(500);

bool sameFleet(const FleetSnapshot& a, const FleetSnapshot& b) {
  return a.enabled == b.enabled && a.self == b.self && a.members == b.members && a.owners == b.owners;
}

}  // namespace

SubscriptionHub::SubscriptionHub(Store& store, HubOptions options, ServerStats& stats)
    : store_(store), options_(options), stats_(stats) {}

SubscriptionHub::~SubscriptionHub() { stop(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server stopping")); }

void SubscriptionHub::start() {
  {
    std::lock_guard lock(inbox_mu_);
    if (thread_.joinable()) return;
    stop_ = false;
  }
  {
    std::lock_guard lock(reg_mu_);
    stopping_ = false;
  }
  listener_id_ = store_.addListener(this);
  thread_ = std::thread([this] {
    enterThreadRole("gnmi-hub", ThreadRole::kServe);
    loop();
  });
}

void SubscriptionHub::stop(const grpc::Status& status) {
  {
    std::lock_guard lock(inbox_mu_);
    if (!thread_.joinable()) return;
    stop_ = true;
  }
  inbox_cv_.notify_all();
  thread_.join();
  store_.removeListener(listener_id_);
  std::vector<SubscribeSession*> pinned;
  {
    std::lock_guard lock(reg_mu_);
    stopping_ = true;
  }
  pinned = pinAll();
  for (SubscribeSession* s : pinned) s->requestFinish(status);
  unpin(pinned);
}

grpc::Status SubscriptionHub::admit(SubscribeSession* session, const std::string& client) {
  std::lock_guard lock(reg_mu_);
  if (stopping_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "gNMI server is stopping");
  if (sessions_.size() >= options_.max_subscriptions) {
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        "this server already serves " + std::to_string(sessions_.size()) +
                            " Subscribe streams: limit northbound.gnmi.limits.max_subscriptions = " +
                            std::to_string(options_.max_subscriptions));
  }
  const size_t mine = std::count_if(sessions_.begin(), sessions_.end(),
                                    [&](SubscribeSession* s) { return s->client() == client; });
  if (mine >= options_.max_subscriptions_per_client) {
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        "client " + client + " already has " + std::to_string(mine) +
                            " Subscribe streams: limit northbound.gnmi.limits.max_subscriptions_per_client = " +
                            std::to_string(options_.max_subscriptions_per_client));
  }
  sessions_.push_back(session);
  return grpc::Status::OK;
}

void SubscriptionHub::unregister(SubscribeSession* session) {
  setInterest(session, {});
  std::unique_lock lock(reg_mu_);
  auto it = std::find(sessions_.begin(), sessions_.end(), session);
  if (it == sessions_.end()) return;  // refused before it registered
  sessions_.erase(it);
  reg_cv_.wait(lock, [session] { return session->pins == 0; });
}

void SubscriptionHub::setInterest(const SubscribeSession* session,
                                  std::vector<ChangeInterest::Pattern> patterns) {
  std::lock_guard lock(interest_mu_);
  if (patterns.empty()) {
    if (interests_.erase(session) == 0) return;
  } else {
    interests_[session] = std::move(patterns);
  }
  std::vector<ChangeInterest::Pattern> all;
  for (const auto& [s, mine] : interests_) all.insert(all.end(), mine.begin(), mine.end());
  interest_ = std::make_shared<const ChangeInterest>(std::move(all));
}

size_t SubscriptionHub::sessionCount() const {
  std::lock_guard lock(reg_mu_);
  return sessions_.size();
}

size_t SubscriptionHub::queuedLeaves() {
  std::vector<SubscribeSession*> pinned = pinAll();
  size_t n = 0;
  for (SubscribeSession* s : pinned) n += s->queuedForTest();
  unpin(pinned);
  return n;
}

std::vector<SubscribeSession*> SubscriptionHub::pinAll() {
  std::lock_guard lock(reg_mu_);
  for (SubscribeSession* s : sessions_) ++s->pins;
  return sessions_;
}

void SubscriptionHub::unpin(const std::vector<SubscribeSession*>& pinned) {
  {
    std::lock_guard lock(reg_mu_);
    for (SubscribeSession* s : pinned) --s->pins;
  }
  reg_cv_.notify_all();
}

void SubscriptionHub::wake() {
  {
    std::lock_guard lock(inbox_mu_);
    woken_ = true;
  }
  inbox_cv_.notify_one();
}

void SubscriptionHub::onChanges(std::string_view target, std::span<const Change> changes) {
  std::shared_ptr<const ChangeInterest> interest;
  {
    std::lock_guard lock(interest_mu_);
    interest = interest_;
  }
  if (interest->empty()) return;  // no stream listens to changes: no copies
  // Sorted out before taking the inbox lock, so the writers hold it only
  // for the changes someone asked for.
  std::vector<const Change*> wanted;
  for (const Change& c : changes) {
    if (interest->wants(target, c.path)) wanted.push_back(&c);
  }
  if (wanted.empty()) return;
  stats_.changes_taken.fetch_add(wanted.size(), std::memory_order_relaxed);
  const int64_t seen = steadyNowNs();
  {
    std::lock_guard lock(inbox_mu_);
    std::string key;
    for (const Change* change : wanted) {
      const Change& c = *change;
      key.assign(target).push_back('\0');
      key += c.path;
      auto [it, fresh] = inbox_.at.try_emplace(key, inbox_.changes.size());
      if (fresh) {
        inbox_.changes.push_back(c);
        inbox_.targets.emplace_back(target);
        inbox_.seen_ns.push_back(seen);
      } else {
        inbox_.changes[it->second] = c;  // the dispatcher is behind: keep the latest (and the first seen)
      }
    }
  }
  inbox_cv_.notify_one();
}

void SubscriptionHub::loop() {
  using Clock = SubscribeSession::Clock;
  Clock::time_point next_due = Clock::now() + kIdleWake;
  for (;;) {
    Inbox batch;
    {
      std::unique_lock lock(inbox_mu_);
      inbox_cv_.wait_until(lock, next_due, [this] {
        return stop_ || woken_ || !inbox_.changes.empty();
      });
      if (stop_) return;
      woken_ = false;
      std::swap(batch, inbox_);
    }
    std::vector<ChangedLeaf> changes;
    changes.reserve(batch.changes.size());
    for (size_t i = 0; i < batch.changes.size(); ++i) {
      Change& c = batch.changes[i];
      ParsedLeafPtr leaf = cache_.lookup(c.path);
      if (!leaf) continue;
      changes.push_back(ChangedLeaf{std::move(batch.targets[i]), std::move(c.path), std::move(leaf),
                                    std::move(c.value), c.timestamp_ns, c.deleted, batch.seen_ns[i]});
    }
    const Clock::time_point now = Clock::now();
    next_due = now + kIdleWake;
    if (options_.fleet != nullptr && options_.member_channels && now >= next_fleet_read_) {
      next_fleet_read_ = now + kFleetRead;
      const uint64_t version = options_.fleet->version();
      if (version != fleet_view_version_ || fleet_generation_ == 0) {
        fleet_view_version_ = version;
        FleetSnapshot fresh = options_.fleet->snapshot();
        if (!sameFleet(fresh, fleet_snapshot_) || fleet_generation_ == 0) {
          fleet_snapshot_ = std::move(fresh);
          ++fleet_generation_;
          fleet_enabled_ = fleet_snapshot_.enabled;
        }
      }
    }
    std::vector<SubscribeSession*> pinned = pinAll();
    for (SubscribeSession* s : pinned) {
      if (fleet_enabled_) s->routeCheck(fleet_snapshot_, fleet_generation_, now);
      s->serviceDue(now, cache_);
      if (!changes.empty()) s->offerChanges(changes);
      s->kick();
      next_due = std::min(next_due, s->nextDue());
    }
    unpin(pinned);
  }
}

}  // namespace rdmagw::northbound::gnmi
