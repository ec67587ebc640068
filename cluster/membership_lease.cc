// The lease side of Membership: join (grant a lease, write our key) and
// keep the lease alive until it is lost or the member stops. The watch of
// the member prefix and the delivery of sets stay in membership.cc; the two
// threads meet only through Membership's state under mu_.

#include "cluster/membership.h"

#include <algorithm>

#include "common/backoff.h"
#include "models/log.h"
#include "models/thread_role.h"

namespace rdmagw::cluster {

void Membership::leaseLoop() {
  enterThreadRole("cluster-lease", ThreadRole::kServe);
  while (join()) {
    if (!keepAlive()) return;
  }
}

bool Membership::join() {
  setState(MembershipState::kJoining);
  common::Backoff backoff(kFirstBackoff, kMaxJoinBackoff);
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return false;
    }
    Result<EtcdLease> lease = client_->grantLease(config_.lease_ttl.count());
    if (lease.isOk()) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        lease_id_ = lease->id;
      }
      Status put = client_->put(memberKey(), memberValue(), lease->id);
      if (put.isOk()) {
        {
          std::lock_guard<std::mutex> lock(mu_);
          ++joins_;
          lease_ttl_seconds_ = lease->ttl_seconds;
          own_key_missing_ = false;
          // Every join shows no set for a while: see the header (a cold
          // start of the fleet, every lease lost at once). A rejoin waits a
          // renewal interval; a first join at most kFirstJoinSettle, since
          // members started together join within moments and a long TTL
          // must not keep a new member idle for minutes.
          settling_ = true;
          std::chrono::milliseconds settle(std::max<int64_t>(lease->ttl_seconds * 1000 / 3, 100));
          if (joins_ == 1) settle = std::min(settle, kFirstJoinSettle);
          settle_until_ = std::chrono::steady_clock::now() + settle;
        }
        setState(MembershipState::kHealthy);
        RDMAGW_LOG(kInfo, "cluster") << "member " << config_.member << " joined fleet " << config_.cluster
                                     << " (lease " << lease->id << ", TTL " << lease->ttl_seconds << " s)";
        flush();
        return true;
      }
      noteError(put);
    } else {
      noteError(lease.status());
    }
    if (!sleepFor(backoff.next())) return false;
  }
}

bool Membership::keepAlive() {
  int64_t lease = 0;
  std::chrono::milliseconds interval{0};
  {
    std::lock_guard<std::mutex> lock(mu_);
    lease = lease_id_;
    interval = std::chrono::milliseconds(std::max<int64_t>(lease_ttl_seconds_ * 1000 / 3, 100));
  }
  common::Backoff backoff(std::min(kFirstBackoff, interval), interval);
  std::chrono::milliseconds wait = interval;
  for (;;) {
    bool key_missing = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (settling_) {
        // Wake for the end of the settling too (a renewal early is harmless).
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(settle_until_ -
                                                                                 std::chrono::steady_clock::now());
        wait = std::max(std::chrono::milliseconds(0), std::min(wait, left));
      }
      cv_.wait_for(lock, wait, [this] { return stopping_ || check_now_; });
      if (stopping_) return false;
      check_now_ = false;
      key_missing = own_key_missing_;
    }
    Result<int64_t> ttl = client_->keepAliveOnce(lease);
    if (!ttl.isOk()) {
      noteError(ttl.status());
      setState(MembershipState::kDegraded);
      wait = backoff.next();
      continue;
    }
    if (*ttl <= 0) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++leases_lost_;
        lease_id_ = 0;
        last_error_ = "lease " + std::to_string(lease) + " lost: etcd no longer knows it";
      }
      setState(MembershipState::kLost);
      std::lock_guard<std::mutex> cb(callback_mu_);
      if (callbacks_.on_lease_lost) callbacks_.on_lease_lost();
      return true;
    }
    backoff.reset();
    wait = interval;
    // Our key went while the lease lives (deleted by hand): write it again.
    if (key_missing) {
      if (Status s = client_->put(memberKey(), memberValue(), lease); !s.isOk()) noteError(s);
    }
    bool settled = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (settling_ && std::chrono::steady_clock::now() >= settle_until_) {
        settling_ = false;
        settled = true;
      }
    }
    if (state() == MembershipState::kDegraded) {
      setState(MembershipState::kHealthy);
      // The watch may have died silently with the connection: list afresh.
      restartWatch();
      flush();
    } else if (settled) {
      flush();
    }
  }
}

}  // namespace rdmagw::cluster
