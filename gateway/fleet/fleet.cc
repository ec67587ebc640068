#include "gateway/fleet/fleet.h"

#include "cluster/placement.h"
#include "models/log.h"
#include "models/self_metrics.h"

namespace rdmagw::gateway {

Result<std::unique_ptr<Fleet>> Fleet::create(const ClusterSettings& settings, FleetView* view,
                                             std::function<void(const std::string& why)> replace) {
  std::unique_ptr<Fleet> fleet(new Fleet(settings, view, std::move(replace)));
  cluster::MembershipCallbacks callbacks;
  // Checks the settings now (and reads the password file); the membership
  // that runs is made by start(), once the northbounds listen and their
  // addresses are known.
  Result<std::unique_ptr<cluster::Membership>> m = cluster::Membership::create(settings.membership, callbacks);
  if (!m.isOk()) return Status::invalidArgument("cluster: " + m.status().message());
  return fleet;
}

Fleet::Fleet(ClusterSettings settings, FleetView* view, std::function<void(const std::string&)> replace)
    : settings_(std::move(settings)), view_(view), replace_(std::move(replace)) {
  metrics_id_ = SelfMetrics::instance().add([this](std::vector<SelfMetricSample>* out) {
    const cluster::MembershipStats st = stats();
    const cluster::MembershipConfig& c = settings_.membership;
    out->push_back({"cluster_member_info", {c.cluster, c.member, cluster::membershipStateName(st.state)}, 1.0});
    out->push_back({"cluster_leases_lost", {}, double(st.leases_lost)});
    for (size_t i = 0; i < cluster::kEtcdRequestKinds; ++i) {
      out->push_back({"cluster_etcd_requests",
                      {cluster::etcdRequestKindName(static_cast<cluster::EtcdRequestKind>(i))},
                      double(st.requests[i])});
    }
    std::lock_guard lock(mu_);
    out->push_back({"cluster_members", {}, double(members_.size())});
    out->push_back({"cluster_owned_targets", {}, double(mine_.size())});
    out->push_back({"cluster_placement_changes", {}, double(placement_changes_)});
  });
}

Fleet::~Fleet() {
  stop();
  if (view_ != nullptr) view_->setStateSource(nullptr);
  SelfMetrics::instance().remove(metrics_id_);
}

void Fleet::start(const std::map<std::string, std::string>& addresses) {
  // Membership copies its config at create(); the addresses go in by a
  // fresh create, before any thread runs.
  cluster::MembershipConfig config = settings_.membership;
  for (const auto& [k, v] : addresses) config.addresses.emplace(k, v);  // advertise entries win
  settings_.membership.addresses = config.addresses;
  cluster::MembershipCallbacks callbacks;
  callbacks.on_members = [this](const std::vector<cluster::MemberInfo>& m) { onMembers(m); };
  callbacks.on_lease_lost = [this] { onLeaseLost(); };
  Result<std::unique_ptr<cluster::Membership>> m = cluster::Membership::create(config, callbacks);
  if (!m.isOk()) {  // create() checked the same settings: only a password file gone since
    RDMAGW_LOG(kError, "fleet") << "cannot join: " << m.status().message();
    return;
  }
  membership_ = std::move(m).value();
  {
    std::lock_guard lock(mu_);
    publishView();
  }
  if (view_ != nullptr) {
    cluster::Membership* member = membership_.get();
    view_->setStateSource([member] { return std::string(cluster::membershipStateName(member->state())); });
  }
  RDMAGW_LOG(kInfo, "fleet") << "joining fleet " << config.cluster << " as " << config.member
                             << " (lease TTL " << config.lease_ttl.count() << " s): collecting nothing until "
                             << "etcd gives the member set";
  membership_->start();
}

void Fleet::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  if (membership_) membership_->stop();
}

cluster::MembershipStats Fleet::stats() const {
  return membership_ ? membership_->stats() : cluster::MembershipStats{};
}

void Fleet::onMembers(const std::vector<cluster::MemberInfo>& members) {
  std::string names;
  for (const cluster::MemberInfo& m : members) names += (names.empty() ? "" : ", ") + m.name;
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      RDMAGW_LOG(kInfo, "fleet") << "members: " << names << " (stopping: not placed)";
      return;
    }
    members_ = members;
    have_members_ = true;
    publishView();
  }
  RDMAGW_LOG(kInfo, "fleet") << "members: " << names;
  replace_("fleet members: " + names);
}

void Fleet::onLeaseLost() {
  {
    std::lock_guard lock(mu_);
    have_members_ = false;
    members_.clear();
    publishView();
  }
  RDMAGW_LOG(kWarn, "fleet") << "etcd says this member's lease expired: the others own its targets now; "
                             << "stopping them and joining again";
  replace_("lease lost");
}

std::vector<TargetConfig> Fleet::owned(const std::vector<TargetConfig>& configured) {
  std::lock_guard lock(mu_);
  std::vector<std::string> names;
  for (const cluster::MemberInfo& m : members_) names.push_back(m.name);
  std::vector<TargetConfig> out;
  std::set<std::string> mine;
  owners_.clear();
  kinds_.clear();
  for (const TargetConfig& t : configured) {
    kinds_[t.name] = t.kind;
    const std::string o =
        have_members_ ? cluster::owner(t.placement_group.empty() ? t.name : t.placement_group, names) : std::string();
    owners_[t.name] = o;
    // Stopping: keep what it collects until the pipeline stops, take nothing new.
    const bool take = stopping_ ? mine_.count(t.name) > 0 : o == settings_.membership.member;
    if (take) {
      out.push_back(t);
      mine.insert(t.name);
    }
  }
  if (mine != mine_) {
    ++placement_changes_;
    mine_ = std::move(mine);
  }
  publishView();
  return out;
}

std::string Fleet::kindOf(const std::string& target) const {
  std::lock_guard lock(mu_);
  auto it = kinds_.find(target);
  return it == kinds_.end() ? std::string() : it->second;
}

void Fleet::publishView() {
  if (view_ == nullptr) return;
  FleetSnapshot s;
  s.enabled = true;
  s.cluster = settings_.membership.cluster;
  s.self = settings_.membership.member;
  s.state = "joining";  // the view asks the membership for the live state
  for (const cluster::MemberInfo& m : members_) {
    s.members.push_back(FleetMemberView{m.name, m.addresses, m.version, m.start_time});
  }
  s.owners = owners_;
  s.placement_changes = placement_changes_;
  view_->set(std::move(s));
}

}  // namespace rdmagw::gateway
