#include "cluster/membership.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/backoff.h"
#include "models/log.h"
#include "models/thread_role.h"

namespace rdmagw::cluster {
namespace {

bool validName(const std::string& s) { return !s.empty() && s.find('/') == std::string::npos; }

MemberInfo parseMember(const std::string& name, const EtcdKeyValue& kv) {
  MemberInfo m;
  m.name = name;
  m.lease = kv.lease;
  // A value we cannot read still names a live member (its lease holds the
  // key): it counts for placement, only its addresses are unknown.
  nlohmann::json j = nlohmann::json::parse(kv.value, nullptr, false);
  if (!j.is_object()) return m;
  if (auto it = j.find("addresses"); it != j.end() && it->is_object()) {
    for (const auto& [k, v] : it->items()) {
      if (v.is_string()) m.addresses[k] = v.get<std::string>();
    }
  }
  if (auto it = j.find("version"); it != j.end() && it->is_string()) m.version = it->get<std::string>();
  if (auto it = j.find("start_time"); it != j.end() && it->is_number_integer()) m.start_time = it->get<int64_t>();
  return m;
}

std::vector<MemberInfo> sortedSet(const std::map<std::string, MemberInfo>& live) {
  std::vector<MemberInfo> out;
  out.reserve(live.size());
  for (const auto& entry : live) out.push_back(entry.second);
  return out;  // std::map: already sorted by name
}

}  // namespace

const char* membershipStateName(MembershipState state) {
  switch (state) {
    case MembershipState::kJoining: return "joining";
    case MembershipState::kHealthy: return "healthy";
    case MembershipState::kDegraded: return "degraded";
    case MembershipState::kLost: return "lost";
    case MembershipState::kStopped: return "stopped";
  }
  return "unknown";
}

Result<std::unique_ptr<Membership>> Membership::create(MembershipConfig config, MembershipCallbacks callbacks) {
  if (config.member.empty()) {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) config.member = host;
  }
  if (!validName(config.cluster)) return Status::invalidArgument("cluster: a name without '/' is required");
  if (!validName(config.member)) {
    return Status::invalidArgument("cluster member name '" + config.member + "': must be non-empty, without '/'");
  }
  if (config.lease_ttl.count() < 1) return Status::invalidArgument("cluster lease TTL must be at least 1 s");
  EtcdClientConfig cc;
  cc.endpoints = config.endpoints;
  cc.tls = config.tls;
  cc.user = config.user;
  cc.call_timeout = config.call_timeout;
  if (!config.password_file.empty()) {
    if (config.user.empty()) return Status::invalidArgument("cluster password_file needs a user");
    // The password is the file's first line.
    std::string line;
    std::ifstream in(config.password_file);
    if (!in || !std::getline(in, line)) {
      return Status::ioError("cluster password_file: cannot read " + config.password_file);
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    cc.password = common::Secret(std::move(line));
    if (cc.password.empty()) return Status::invalidArgument("cluster password_file " + config.password_file + " is empty");
  }
  if (config.version.empty()) {
#ifdef RDMAGW_VERSION
    config.version = RDMAGW_VERSION;
#endif
  }
  Result<std::unique_ptr<EtcdClient>> client = EtcdClient::create(std::move(cc));
  if (!client.isOk()) return client.status();
  return std::unique_ptr<Membership>(
      new Membership(std::move(config), std::move(callbacks), std::move(client).value()));
}

Membership::Membership(MembershipConfig config, MembershipCallbacks callbacks, std::unique_ptr<EtcdClient> client)
    : config_(std::move(config)), callbacks_(std::move(callbacks)), client_(std::move(client)) {
  start_time_ = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch()).count();
}

Membership::~Membership() { stop(); }

void Membership::start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_) return;
  started_ = true;
  lease_thread_ = std::thread([this] { leaseLoop(); });
  watch_thread_ = std::thread([this] { watchLoop(); });
}

void Membership::stop() {
  int64_t lease = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!started_ || stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  restartWatch();
  if (lease_thread_.joinable()) lease_thread_.join();
  if (watch_thread_.joinable()) watch_thread_.join();
  {
    std::lock_guard<std::mutex> lock(mu_);
    lease = lease_id_;
    lease_id_ = 0;
  }
  if (lease != 0) {
    // Without this the others would wait the TTL to see us go.
    if (Status s = client_->revokeLease(lease); !s.isOk()) noteError(s);
  }
  setState(MembershipState::kStopped);
}

MembershipState Membership::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

MembershipStats Membership::stats() const {
  MembershipStats s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s.state = state_;
    s.last_error = last_error_;
    s.lease_id = lease_id_;
    s.joins = joins_;
    s.leases_lost = leases_lost_;
    s.members = delivered_.size();
  }
  for (size_t i = 0; i < kEtcdRequestKinds; ++i) s.requests[i] = client_->requests(static_cast<EtcdRequestKind>(i));
  s.endpoint = client_->currentEndpoint();
  return s;
}

std::vector<MemberInfo> Membership::members() const {
  std::lock_guard<std::mutex> lock(mu_);
  return delivered_;
}

std::string Membership::memberValue() const {
  nlohmann::json j;
  j["member"] = config_.member;
  j["addresses"] = config_.addresses;
  j["version"] = config_.version;
  j["start_time"] = start_time_;
  return j.dump();
}

void Membership::setState(MembershipState state) {
  MembershipState before;
  {
    std::lock_guard<std::mutex> lock(mu_);
    before = state_;
    state_ = state;
  }
  if (before == state) return;
  if (state == MembershipState::kHealthy || state == MembershipState::kStopped) {
    RDMAGW_LOG(kInfo, "cluster") << "member " << config_.member << ": " << membershipStateName(before) << " -> "
                                 << membershipStateName(state);
  } else {
    RDMAGW_LOG(kWarn, "cluster") << "member " << config_.member << ": " << membershipStateName(before) << " -> "
                                 << membershipStateName(state);
  }
}

void Membership::noteError(const Status& status) {
  std::lock_guard<std::mutex> lock(mu_);
  last_error_ = status.message();
}

bool Membership::sleepFor(std::chrono::milliseconds d) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, d, [this] { return stopping_; });
  return !stopping_;
}

void Membership::restartWatch() {
  std::lock_guard<std::mutex> lock(watch_mu_);
  watch_restart_ = true;
  if (watch_ != nullptr) watch_->cancel();
}

void Membership::publish(std::vector<MemberInfo> set) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    latest_ = std::move(set);
  }
  flush();
}

void Membership::flush() {
  std::lock_guard<std::mutex> cb(callback_mu_);
  std::vector<MemberInfo> copy;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Only a healthy member's view counts, and only once it shows this
    // member: a list read before our own key was written is stale.
    if (state_ != MembershipState::kHealthy || settling_) return;
    bool self = std::any_of(latest_.begin(), latest_.end(),
                            [this](const MemberInfo& m) { return m.name == config_.member; });
    if (!self || (delivered_once_ && latest_ == delivered_)) return;
    delivered_ = latest_;
    delivered_once_ = true;
    copy = delivered_;
  }
  if (callbacks_.on_members) callbacks_.on_members(copy);
}

void Membership::watchLoop() {
  enterThreadRole("cluster-watch", ThreadRole::kServe);
  const std::string prefix = membersPrefix(config_.cluster);
  common::Backoff backoff(kFirstBackoff, kMaxJoinBackoff);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(watch_mu_);
      watch_restart_ = false;
    }
    Result<EtcdRange> range = client_->rangePrefix(prefix);
    if (!range.isOk()) {
      noteError(range.status());
      if (!sleepFor(backoff.next())) return;
      continue;
    }
    std::map<std::string, MemberInfo> live;
    for (const EtcdKeyValue& kv : range->kvs) {
      const std::string name = kv.key.substr(prefix.size());
      if (validName(name)) live[name] = parseMember(name, kv);
    }
    publish(sortedSet(live));
    Result<std::unique_ptr<EtcdWatch>> opened = client_->watchPrefix(prefix, range->revision + 1);
    if (!opened.isOk()) {
      noteError(opened.status());
      if (!sleepFor(backoff.next())) return;
      continue;
    }
    std::unique_ptr<EtcdWatch> watch = std::move(opened).value();
    {
      std::lock_guard<std::mutex> lock(watch_mu_);
      watch_ = watch.get();
      if (watch_restart_) watch->cancel();
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) watch->cancel();
    }
    EtcdWatchBatch batch;
    while (watch->next(&batch)) {
      backoff.reset();  // etcd answered
      // Canceled, or our start revision was compacted away: list again.
      if (batch.canceled || batch.compact_revision > 0) break;
      if (batch.events.empty()) continue;  // the "created" answer
      for (const EtcdEvent& e : batch.events) {
        const std::string name = e.kv.key.substr(std::min(prefix.size(), e.kv.key.size()));
        if (!validName(name)) continue;
        if (e.type == EtcdEvent::Type::kDelete) {
          live.erase(name);
        } else {
          live[name] = parseMember(name, e.kv);
        }
        if (name == config_.member) noteOwnKey(e);
      }
      publish(sortedSet(live));
    }
    {
      std::lock_guard<std::mutex> lock(watch_mu_);
      watch_ = nullptr;
    }
    // A watch etcd canceled (compaction) leaves the stream itself open:
    // end it, or finish() would wait for the server forever.
    watch->cancel();
    Status end = watch->finish();
    watch.reset();
    bool restart = false;
    {
      std::lock_guard<std::mutex> lock(watch_mu_);
      restart = watch_restart_;
    }
    if (!restart && !batch.canceled && batch.compact_revision == 0) {
      noteError(end);
      if (!sleepFor(backoff.next())) return;
    } else {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
    }
  }
}

void Membership::noteOwnKey(const EtcdEvent& e) {
  std::lock_guard<std::mutex> lock(mu_);
  if (e.type == EtcdEvent::Type::kDelete) {
    // Revoked, expired, or deleted by hand: the lease thread asks etcd now.
    own_key_missing_ = true;
    check_now_ = true;
    cv_.notify_all();
    return;
  }
  if (lease_id_ != 0 && e.kv.lease == lease_id_) {
    own_key_missing_ = false;
  } else if (lease_id_ != 0) {
    // Two gateways with one name would take turns owning the same targets.
    last_error_ = "member name '" + config_.member + "' was written by another gateway (lease " +
                  std::to_string(e.kv.lease) + ", ours " + std::to_string(lease_id_) + ")";
    RDMAGW_LOG(kError, "cluster") << last_error_;
  }
}

}  // namespace rdmagw::cluster
