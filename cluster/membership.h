#pragma once
// This gateway's membership of a fleet, kept in etcd.
//
// A member holds one etcd lease and, under it, the key
// /rdmagw/<cluster>/members/<member> = {"member", "addresses", "version",
// "start_time"} (JSON). It renews the lease every TTL/3 and watches the
// member prefix, and hands the live member set to on_members whenever it
// changes. etcd deletes a dead member's key when its lease expires (TTL),
// so the others see it leave; stop() revokes the lease, so they see a clean
// leave at once.
//
// States, and what the caller is told in each:
//  - joining: no lease yet (first start, or after a lost lease). Nothing is
//    delivered; retries with exponential backoff and jitter.
//  - healthy: lease renewed; member sets are delivered as they change.
//  - degraded: etcd does not answer (keep-alives fail). The last member set
//    stays: nothing is delivered until etcd answers again, so a member cut
//    off from etcd never sees the others "leave" and grabs their targets.
//    The fleet's placement freezes; when etcd is back the member lists
//    again and delivers the set within one keep-alive interval.
//  - lost: etcd says our lease no longer exists (it expired while we could
//    not renew it, or was revoked). on_lease_lost is called first, so the
//    caller stops its targets (the others may own them by now), then the
//    member joins again with a new lease.
// After every join a member shows no set for one renewal interval (TTL/3;
// the first join at most kFirstJoinSettle), so the members joining at about the same moment
// see each other before anyone places targets: on a cold start of the
// fleet, and when an etcd frozen (not stopped) for longer than the TTL
// resumes and expires every lease at once, a member that delivered at once
// would briefly own the whole fleet and connect to every device, only to
// hand most of them over a moment later. (A stopped etcd renews every
// lease when it restarts: nobody is lost.)
// Note: a member that cannot reach etcd for longer than the TTL stays
// degraded, not lost, until etcd tells it otherwise: while etcd itself is
// down nobody's lease expires, and a member cannot tell that case from a
// partition of its own. In a partition the others take its targets after
// the TTL and both collect them until it reaches etcd again (visible: the
// series carry the member); availability wins over exactness.
//
// Longer than a header should be because the lease, watch and hand-over
// protocol is documented here beside the methods that carry it out.

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/etcd_client.h"
#include "models/status.h"

namespace rdmagw::cluster {

struct MembershipConfig {
  std::vector<std::string> endpoints;  // etcd client URLs
  EtcdTlsConfig tls;
  std::string user;                    // etcd user; empty: no authentication
  std::string password_file;           // its password (first line)
  std::string cluster;                 // fleet name: members of one fleet share it
  std::string member;                  // this gateway's name; empty: the host name
  std::chrono::seconds lease_ttl{10};
  std::chrono::milliseconds call_timeout{2000};
  // What the others need to reach this member's northbounds, e.g.
  // {"prometheus": "10.0.0.5:9464", "gnmi": "10.0.0.5:9339"}.
  std::map<std::string, std::string> addresses;
  std::string version;                 // empty: this build's version
};

struct MemberInfo {
  std::string name;  // from the key, whatever the value says
  std::map<std::string, std::string> addresses;
  std::string version;
  int64_t start_time = 0;  // unix seconds
  int64_t lease = 0;
  bool operator==(const MemberInfo&) const = default;
};

enum class MembershipState { kJoining, kHealthy, kDegraded, kLost, kStopped };
const char* membershipStateName(MembershipState state);

struct MembershipStats {
  MembershipState state = MembershipState::kJoining;
  std::string last_error;  // the latest failure, kept after recovery
  std::array<uint64_t, kEtcdRequestKinds> requests{};  // by EtcdRequestKind
  int64_t lease_id = 0;
  uint64_t joins = 0;        // leases granted and member key written
  uint64_t leases_lost = 0;  // times on_lease_lost was called
  size_t members = 0;        // in the last delivered set
  std::string endpoint;      // the etcd endpoint in use
};

struct MembershipCallbacks {
  // The live members, sorted by name, this member included once it joined.
  // Called on the membership's own threads, one call at a time.
  std::function<void(const std::vector<MemberInfo>&)> on_members;
  std::function<void()> on_lease_lost;
};

class Membership {
 public:
  // Checks the config, reads the password file; no etcd traffic yet.
  static Result<std::unique_ptr<Membership>> create(MembershipConfig config, MembershipCallbacks callbacks);
  ~Membership();  // stop()
  Membership(const Membership&) = delete;
  Membership& operator=(const Membership&) = delete;

  // Starts the lease and watch threads; once per Membership.
  void start();
  // Revokes the lease (the others see this member leave at once) and joins
  // the threads. With etcd unreachable it waits out the call in flight and
  // the revoke, each up to one call timeout per endpoint. Not from a callback.
  void stop();

  MembershipState state() const;
  MembershipStats stats() const;
  std::vector<MemberInfo> members() const;  // the last delivered set
  const std::string& memberName() const { return config_.member; }
  std::string memberKey() const { return membersPrefix(config_.cluster) + config_.member; }
  static std::string membersPrefix(const std::string& cluster) { return "/rdmagw/" + cluster + "/members/"; }

 private:
  // Retries against etcd are jittered (common::Backoff), so members that
  // lost etcd together do not all come back in the same instant.
  static constexpr std::chrono::milliseconds kFirstBackoff{200};
  static constexpr std::chrono::milliseconds kMaxJoinBackoff{5000};
  // The longest a first join shows no member set (see the header).
  static constexpr std::chrono::milliseconds kFirstJoinSettle{3000};

  Membership(MembershipConfig config, MembershipCallbacks callbacks, std::unique_ptr<EtcdClient> client);
  void leaseLoop();
  void watchLoop();
  // Lease granted and key written: true. False when stopping.
  bool join();
  // Keeps the lease until it is lost (true) or the member stops (false).
  bool keepAlive();
  std::string memberValue() const;
  void setState(MembershipState state);
  void noteError(const Status& status);
  // Records the set seen in etcd; delivers it when healthy and changed.
  void publish(std::vector<MemberInfo> set);
  // A watch event on our own key: gone (check the lease now), or written
  // under another lease (another gateway uses our name).
  void noteOwnKey(const EtcdEvent& e);
  void flush();
  // Ends the current watch so the watch thread lists again.
  void restartWatch();
  // Sleeps up to `d`; false if stop() was called meanwhile.
  bool sleepFor(std::chrono::milliseconds d);

  MembershipConfig config_;
  MembershipCallbacks callbacks_;
  std::unique_ptr<EtcdClient> client_;
  int64_t start_time_ = 0;

  mutable std::mutex mu_;
  std::condition_variable cv_;  // stop, or a check of our key asked by the watch
  bool started_ = false;
  bool stopping_ = false;
  bool check_now_ = false;       // the watch saw our key go
  MembershipState state_ = MembershipState::kJoining;
  std::string last_error_;
  int64_t lease_id_ = 0;
  int64_t lease_ttl_seconds_ = 0;  // as granted
  bool own_key_missing_ = false;
  uint64_t joins_ = 0;
  uint64_t leases_lost_ = 0;
  std::vector<MemberInfo> latest_;     // as seen in etcd
  std::vector<MemberInfo> delivered_;  // as last told to the caller
  bool delivered_once_ = false;
  bool settling_ = false;  // joined: no set shown until settle_until_
  std::chrono::steady_clock::time_point settle_until_;

  std::mutex callback_mu_;  // one callback at a time, in order
  std::mutex watch_mu_;
  EtcdWatch* watch_ = nullptr;  // the live watch, for restartWatch()
  bool watch_restart_ = false;

  std::thread lease_thread_;
  std::thread watch_thread_;
};

}  // namespace rdmagw::cluster
