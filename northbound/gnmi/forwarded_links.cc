#include "northbound/gnmi/forwarded_links.h"

#include <algorithm>

#include "models/log.h"
#include "northbound/gnmi/fleet_routes.h"
#include "northbound/gnmi/server_stats.h"

namespace rdmagw::northbound::gnmi {
namespace {

// A link that ended is opened again after 0.5, 1, 2, 4 s (then every 4 s)
// while the view still names its member.
constexpr auto kRetryFirst = std::chrono::milliseconds(500);
constexpr int kRetryDoublings = 3;

}  // namespace

bool ForwardedLinks::due(uint64_t generation, Clock::time_point now) const {
  return !routed_ || generation != routed_generation_ || routes_dirty_ || now >= next_check_;
}

ForwardedLinks::Plan ForwardedLinks::route(const FleetSnapshot& fleet, uint64_t generation,
                                           const std::string& target, bool initial, Clock::time_point now) {
  Plan plan;
  routed_ = true;
  routed_generation_ = generation;
  routes_dirty_ = false;
  next_check_ = Clock::time_point::max();
  bool local = true;
  std::map<std::string, std::string> wanted;  // member -> address
  for (const MemberRoute& r : routesFor(fleet, target, &local)) wanted[r.member] = r.address;
  for (auto it = links_.begin(); it != links_.end();) {
    auto w = wanted.find(it->first);
    if (w != wanted.end() && w->second == it->second.address) {
      ++it;
      continue;
    }
    RDMAGW_LOG(kInfo, "gnmi") << "subscription of " << client_ << " to \"" << target
                              << "\": no longer forwarded to member " << it->first;
    if (it->second.call) plan.cancelled.push_back(std::move(it->second.call));
    stats_.forwarded_streams_rerouted.fetch_add(1);
    sync_links_.erase(it->second.id);
    it = links_.erase(it);
  }
  for (const auto& [member, address] : wanted) {
    auto [it, fresh] = links_.try_emplace(member);
    Link& l = it->second;
    if (!fresh && !l.ended) continue;
    if (!fresh && now < l.retry_at) {
      next_check_ = std::min(next_check_, l.retry_at);
      continue;
    }
    l.address = address;
    l.id = next_id_++;
    l.ended = false;
    l.call.reset();
    if (initial) sync_links_.insert(l.id);
    plan.opening.push_back({member, address, l.id});
    if (fresh) {
      RDMAGW_LOG(kInfo, "gnmi") << "subscription of " << client_ << " to \"" << target
                                << "\": forwarded to member " << member << " at " << address;
    }
  }
  return plan;
}

ForwardedLinks::Plan ForwardedLinks::pollRound(const FleetSnapshot& fleet, const std::string& target) {
  Plan plan;
  routed_ = true;
  for (auto& [member, link] : links_) {
    if (link.call) plan.cancelled.push_back(std::move(link.call));
  }
  links_.clear();
  sync_links_.clear();
  bool local = true;
  for (const MemberRoute& r : routesFor(fleet, target, &local)) {
    Link& l = links_[r.member];
    l.address = r.address;
    l.id = next_id_++;
    sync_links_.insert(l.id);
    plan.opening.push_back({r.member, r.address, l.id});
  }
  return plan;
}

bool ForwardedLinks::attach(const Opening& o, std::shared_ptr<UpstreamLink> call) {
  auto it = links_.find(o.member);
  if (it == links_.end() || it->second.id != o.id || it->second.ended) return false;
  it->second.call = std::move(call);
  return true;
}

bool ForwardedLinks::current(uint64_t id) const {
  for (const auto& [member, link] : links_) {
    if (link.id == id) return true;
  }
  return false;
}

bool ForwardedLinks::synced(uint64_t id) {
  for (auto& [member, link] : links_) {
    if (link.id == id) link.failures = 0;  // it answers: the next failure retries soon again
  }
  return sync_links_.erase(id) != 0;
}

void ForwardedLinks::ended(uint64_t id, const grpc::Status& status, bool finished, const std::string& target) {
  sync_links_.erase(id);
  for (auto& [member, link] : links_) {
    if (link.id != id || link.ended) continue;
    link.ended = true;
    link.call.reset();
    if (finished) continue;
    link.failures = std::min(link.failures + 1, kRetryDoublings + 1);
    link.retry_at = Clock::now() + kRetryFirst * (1 << (link.failures - 1));
    routes_dirty_ = true;
    RDMAGW_LOG(kWarn, "gnmi") << "subscription of " << client_ << " to \"" << target << "\": link to member "
                              << member << " ended: " << grpcCodeName(status.error_code()) << " "
                              << status.error_message();
  }
}

bool ForwardedLinks::deferSync(Clock::time_point now) {
  if (sync_links_.empty()) return false;
  sync_deferred_ = true;
  sync_wait_until_ = now + kSyncWait;
  return true;
}

bool ForwardedLinks::releaseSync(Clock::time_point now) {
  if (!sync_deferred_) return false;
  if (!sync_links_.empty() && now < sync_wait_until_) return false;
  sync_links_.clear();
  sync_deferred_ = false;
  return true;
}

std::vector<std::shared_ptr<UpstreamLink>> ForwardedLinks::takeAll() {
  std::vector<std::shared_ptr<UpstreamLink>> calls;
  for (auto& [member, link] : links_) {
    if (link.call) calls.push_back(std::move(link.call));
  }
  links_.clear();
  return calls;
}

size_t ForwardedLinks::live() const {
  size_t n = 0;
  for (const auto& [member, link] : links_) n += link.ended ? 0 : 1;
  return n;
}

}  // namespace rdmagw::northbound::gnmi
