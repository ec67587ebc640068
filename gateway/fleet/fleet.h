#pragma once
// This gateway as one member of a fleet: joins through etcd
// (cluster/membership.h), decides which configured targets it collects
// (cluster/placement.h: rendezvous hashing over the live members, so all
// members agree without talking) and asks for a re-placement whenever the
// member set changes. The Reloader applies it through the same live
// add/remove path as a reload: targets that stay are untouched.
//
// What it collects, by membership state:
//   joining (before the first member set): nothing
//   healthy, degraded: what placement over the last member set gives it
//     (degraded = etcd does not answer: the set, and so placement, freeze)
//   lost (etcd says our lease expired): nothing, until it joins again
// docs/fleet.md is the operator's account of each failure.

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cluster/membership.h"
#include "gateway/config/cluster_config.h"
#include "gateway/config/config.h"
#include "models/fleet_view.h"

namespace rdmagw::gateway {

class Fleet {
 public:
  // `replace` asks for a re-placement (Reloader::requestReplace); it is
  // called on the membership's threads and must not block.
  static Result<std::unique_ptr<Fleet>> create(const ClusterSettings& settings, FleetView* view,
                                               std::function<void(const std::string& why)> replace);
  ~Fleet();  // stop()
  Fleet(const Fleet&) = delete;
  Fleet& operator=(const Fleet&) = delete;

  // `addresses`: this member's northbounds as the others should dial them
  // (the settings' advertise entries win).
  void start(const std::map<std::string, std::string>& addresses);
  // Leaves the fleet (the lease is revoked: the others take over at once).
  // From its first instruction on, a member set delivered late asks for no
  // re-placement and owned() adds nothing: a member going down must not
  // start (and connect to) the targets of members leaving at the same moment.
  void stop();

  // Of the configured targets, those this member collects now. Also
  // records every target's owner for the servers (FleetView).
  std::vector<TargetConfig> owned(const std::vector<TargetConfig>& configured);

  // A configured target's kind as of the last owned() (the peers' mirror
  // needs it, and gNMI does not carry it); empty: not configured.
  std::string kindOf(const std::string& target) const;

  cluster::MembershipStats stats() const;
  const std::string& memberName() const { return settings_.membership.member; }

 private:
  Fleet(ClusterSettings settings, FleetView* view, std::function<void(const std::string&)> replace);
  void onMembers(const std::vector<cluster::MemberInfo>& members);
  void onLeaseLost();
  void publishView();  // mu_ held

  ClusterSettings settings_;
  FleetView* view_;
  std::function<void(const std::string&)> replace_;
  std::unique_ptr<cluster::Membership> membership_;
  uint64_t metrics_id_ = 0;

  mutable std::mutex mu_;
  std::vector<cluster::MemberInfo> members_;   // guarded by mu_: the last set delivered
  bool have_members_ = false;                  // guarded by mu_: a set was delivered since (re)joining
  std::map<std::string, std::string> owners_;  // guarded by mu_: target -> member, from the last owned()
  std::set<std::string> mine_;                 // guarded by mu_: what the last owned() gave this member
  std::map<std::string, std::string> kinds_;  // guarded by mu_: target -> kind, from the last owned()
  uint64_t placement_changes_ = 0;             // guarded by mu_
  bool stopping_ = false;                      // guarded by mu_: stop() began
};

}  // namespace rdmagw::gateway
