#pragma once
// A small fabric written straight into a Store, counter by counter, and an
// AnalyticsEngine run on it at simulated times (no clock, no threads):
//
//   host01 mlx5_0/1 (ens1f0np0) ---- leaf01 Ethernet1/1
//   host02 mlx5_0/1 (ens1f0np0) ---- leaf01 Ethernet1/2    (leaf01: nexus)
//   esx01 vmnic4                ---- leaf01 Ethernet1/3
//
// Every port counts PFC on priorities 0 and 3 (3 is the lossless one); the
// leaf's queues 0 and 3 count ECN marks and drops; the hosts' NICs count the
// time they pause the leaf and their pause storm events. Tests bump counters,
// tick, and read the derived leaves back out of the store.
//
// As one member of a fleet sees it: the targets named `peer_targets` are
// written into a separate peer store (another member collects them), which
// the engine reads beside its own when `read_peers`.

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "analytics/analytics_config.h"
#include "analytics/analytics_engine.h"
#include "models/store.h"

namespace rdmagw::testing {
using namespace rdmagw::analytics;  // the helpers speak the vocabulary of the code they test

// The roles the gateway registers for the kinds these tests' targets have
// (gateway/runtime/builtin_components.cc; GatewayRolesTest holds the two equal).
inline const TargetRoles& fabricRoles() {
  static const TargetRoles roles = {
      {"nexus", TargetRole::kSwitch}, {"rdma-host", TargetRole::kHost}, {"esxi", TargetRole::kHypervisor}};
  return roles;
}

class SmallFabric {
 public:
  static constexpr int64_t kTickNs = 1'000'000'000;  // one poll a second
  // static_links false: the config cables nothing, so the links are what
  // the LLDP neighbour leaves a test writes say.
  explicit SmallFabric(std::set<std::string> peer_targets = {}, bool read_peers = true, bool static_links = true);

  static AnalyticsConfig config(bool static_links = true);  // period 1s, window 4s, the three links

  // Raw leaf paths.
  static std::string hw(const std::string& counter);  // mlx5_0 port 1 hw-counters/<counter>
  static std::string pfc(const std::string& iface, int prio, const std::string& counter);
  static std::string queue(const std::string& iface, int q, const std::string& counter);
  static std::string nicPfc(const std::string& nic, int prio, const std::string& counter);
  // A host netdev's interface-wide PFC counter (pause storm events).
  static std::string portPfc(const std::string& iface, const std::string& counter);

  // An interface's PFC state leaf (enabled-priorities).
  static std::string pfcState(const std::string& iface, const std::string& leaf);

  // One more target up beside the fabric above (kind "rdma-host", "nexus"),
  // with no leaves until a test sets some.
  void addTarget(const std::string& target, const std::string& kind);
  void bump(const std::string& target, const std::string& path, uint64_t by);
  // A configuration leaf written every tick from now on (set), or no more (unset).
  void set(const std::string& target, const std::string& path, uint64_t value);
  void setText(const std::string& target, const std::string& path, const std::string& value);
  void unset(const std::string& target, const std::string& path);
  // Advances one tick: the per-tick bumps, then every live target's leaves
  // written at the new time, then one analytics run.
  void tick(const std::function<void()>& bumps = {});
  void ticks(int n, const std::function<void()>& bumps = {});
  // The target stops answering: its leaves keep their last timestamps.
  void silence(const std::string& target) { silent_[target] = true; }

  // Every derived leaf named `leaf` in the store, as "target:key1:key2" -> value text.
  std::map<std::string, std::string> derived(const std::string& leaf) const;

  Store& store() { return store_; }
  Store& peers() { return peers_; }
  // What the last run said the peer copy must hold (empty without peers).
  MirrorNeeds needs() const { return board_.read(); }

 private:
  Store& storeOf(const std::string& target) { return peer_targets_.count(target) ? peers_ : store_; }

  const std::set<std::string> peer_targets_;
  Store store_;
  Store peers_;
  MirrorNeedsBoard board_;
  AnalyticsEngine engine_;
  TimestampNs now_ = 1'700'000'000'000'000'000;
  std::map<std::string, std::map<std::string, uint64_t>> counters_;  // target -> path -> value
  std::map<std::string, std::map<std::string, std::string>> texts_;  // string configuration leaves
  std::map<std::string, bool> silent_;
};

}  // namespace rdmagw::testing
