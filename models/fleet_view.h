#pragma once
// What this gateway knows of its fleet, for the servers to show: the live
// members with their northbound addresses, and which member owns each
// configured target. The fleet layer (gateway/fleet/fleet.h) writes it when the
// member set or the targets change; the northbounds only read it (the
// Prometheus service-discovery endpoint, `rdmagw status`). Outside a fleet
// it stays disabled and empty.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace rdmagw {

struct FleetMemberView {
  std::string name;
  std::map<std::string, std::string> addresses;  // "prometheus", "gnmi", "snmp" -> host:port
  std::string version;
  int64_t start_time = 0;  // unix seconds
  bool operator==(const FleetMemberView&) const = default;
};

struct FleetSnapshot {
  bool enabled = false;
  std::string cluster;
  std::string self;
  std::string state;  // joining, healthy, degraded, lost, stopped
  std::vector<FleetMemberView> members;  // sorted by name
  std::map<std::string, std::string> owners;  // every configured target -> its member
  uint64_t placement_changes = 0;  // times this member's owned set changed
};

class FleetView {
 public:
  void set(FleetSnapshot snapshot) {
    std::lock_guard lock(mu_);
    snapshot_ = std::move(snapshot);
    version_.fetch_add(1, std::memory_order_release);
  }
  // Grows with every set(): a reader that polls the view copies the
  // snapshot (every target's owner) only when this moved. The state from
  // the state source is not counted.
  uint64_t version() const { return version_.load(std::memory_order_acquire); }
  // The membership state changes without the member set changing (etcd
  // stops answering): snapshot() asks `source` for it each time. Cleared
  // (nullptr) before whatever it reads goes away; clearing waits for a
  // snapshot() in progress.
  void setStateSource(std::function<std::string()> source) {
    std::lock_guard lock(mu_);
    state_source_ = std::move(source);
  }
  FleetSnapshot snapshot() const {
    std::lock_guard lock(mu_);
    FleetSnapshot s = snapshot_;
    if (state_source_) s.state = state_source_();
    return s;
  }

 private:
  mutable std::mutex mu_;
  FleetSnapshot snapshot_;                    // guarded by mu_
  std::function<std::string()> state_source_;  // guarded by mu_
  std::atomic<uint64_t> version_{0};
};

}  // namespace rdmagw
