#pragma once
// What a Membership told its caller, kept for the tests to wait on: every
// member set delivered (as sorted names) and each lost lease.

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/membership.h"

namespace rdmagw::testing {
using namespace rdmagw::cluster;  // the helpers speak the vocabulary of the code they test

class MemberRecorder {
 public:
  MembershipCallbacks callbacks() {
    MembershipCallbacks cb;
    cb.on_members = [this](const std::vector<MemberInfo>& set) {
      std::vector<std::string> names;
      for (const MemberInfo& m : set) names.push_back(m.name);
      std::lock_guard<std::mutex> lock(mu_);
      sets_.push_back(names);
      log_.push_back(join(names));
      last_info_ = set;
    };
    cb.on_lease_lost = [this] {
      std::lock_guard<std::mutex> lock(mu_);
      log_.push_back("LOST");
      lost_.fetch_add(1);
    };
    return cb;
  }
  // The last delivered set, as "a,b,c".
  std::string last() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sets_.empty() ? std::string("<none>") : join(sets_.back());
  }
  std::vector<std::vector<std::string>> sets() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sets_;
  }
  std::vector<MemberInfo> lastInfo() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_info_;
  }
  int lost() const { return lost_.load(); }
  // Sets ("a,b") and lost leases ("LOST") in the order they came.
  std::vector<std::string> log() const {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

  static std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::vector<std::string>> sets_;
  std::vector<MemberInfo> last_info_;
  std::vector<std::string> log_;
  std::atomic<int> lost_{0};
};

// A member of fleet "test" on one etcd endpoint.
inline MembershipConfig memberConfig(const std::string& endpoint, const std::string& name, int ttl_seconds) {
  MembershipConfig c;
  c.endpoints = {endpoint};
  c.cluster = "test";
  c.member = name;
  c.lease_ttl = std::chrono::seconds(ttl_seconds);
  c.call_timeout = std::chrono::milliseconds(1000);
  c.addresses = {{"prometheus", "127.0.0.1:9464"}, {"gnmi", "127.0.0.1:9339"}};
  return c;
}

}  // namespace rdmagw::testing
