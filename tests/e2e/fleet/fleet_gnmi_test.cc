// gNMI through any member of a fleet (real `rdmagw run` members, real etcd,
// the simulator's peers, Debian's python3-grpcio as the client): a Get of a
// target another member owns returns its data, "*" returns the whole
// fleet's, and an ON_CHANGE subscription through m1 to a target m2 owns
// keeps delivering across `kill -9` of m2 and the target's move to m3 (or
// to m1 itself), without the client reconnecting. The longest silence the
// client saw is printed, not asserted.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "cluster/placement.h"
#include "tests/e2e/fleet/fleet_bed.h"
#include "tests/northbound/gnmi/python_client.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test
namespace {

using testing::PythonClient;
using testing::runPython;
using Clock = std::chrono::steady_clock;
using Owners = std::map<std::string, std::set<std::string>>;

constexpr int kMembers = 3;
constexpr int kHosts = 8;
constexpr int kLeaseTtl = 3;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Targets named by the notifications ("N <target> <ts>") among `lines`.
std::set<std::string> notifiedTargets(const std::vector<std::string>& lines) {
  std::set<std::string> out;
  for (const std::string& l : lines) {
    if (l.rfind("N ", 0) != 0) continue;
    out.insert(l.substr(2, l.find(' ', 2) - 2));
  }
  return out;
}

size_t updateCount(const std::vector<std::string>& lines) {
  size_t n = 0;
  for (const std::string& l : lines) n += l.rfind("U ", 0) == 0 ? 1 : 0;
  return n;
}

// An ON_CHANGE subscription to one target, read on its own thread: when
// each notification for the target arrived.
class Watch {
 public:
  Watch(const std::string& address, const std::string& target) : target_(target) {
    client_ = std::make_unique<PythonClient>(
        address, R"({"rpc": "sub", "target": ")" + target +
                     R"(", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 280})");
    thread_ = std::thread([this] { read(); });
  }
  ~Watch() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();  // returns at the next line, or at the client's deadline (below ctest's 300 s)
  }
  size_t notificationsSince(Clock::time_point t) {
    std::lock_guard lock(mu_);
    size_t n = 0;
    for (Clock::time_point a : arrivals_) n += a >= t ? 1 : 0;
    return n;
  }
  bool synced() {
    std::lock_guard lock(mu_);
    return synced_;
  }
  std::string ended() {
    std::lock_guard lock(mu_);
    return ended_;
  }
  // The longest interval without a notification for the target, among
  // those ending after `from`.
  Clock::duration longestGapAfter(Clock::time_point from) {
    std::lock_guard lock(mu_);
    Clock::duration gap{};
    for (size_t i = 1; i < arrivals_.size(); ++i) {
      if (arrivals_[i] < from) continue;
      gap = std::max(gap, arrivals_[i] - arrivals_[i - 1]);
    }
    return gap;
  }
  std::string tail() {
    std::lock_guard lock(mu_);
    std::string s;
    for (size_t i = lines_.size() > 10 ? lines_.size() - 10 : 0; i < lines_.size(); ++i) s += lines_[i] + "\n";
    return s;
  }

 private:
  void read() {
    for (;;) {
      const std::string l = client_->next();
      std::lock_guard lock(mu_);
      if (l.empty() || l.rfind("STATUS", 0) == 0) {
        ended_ = l.empty() ? "client exited" : l;
        return;
      }
      if (l == "SYNC") synced_ = true;
      if (l.rfind("N " + target_ + " ", 0) == 0) arrivals_.push_back(Clock::now());
      if (l.rfind("U ", 0) != 0) lines_.push_back(l);
      if (stop_) return;
    }
  }

  const std::string target_;
  std::unique_ptr<PythonClient> client_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<Clock::time_point> arrivals_;  // guarded by mu_
  std::vector<std::string> lines_;           // guarded by mu_: all but updates
  bool synced_ = false;                      // guarded by mu_
  std::string ended_;                        // guarded by mu_
};

class FleetGnmiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
    if (access("/usr/bin/etcd", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/etcd (Debian etcd-server)";
    std::string error;
    ASSERT_TRUE(testing::preparePythonClient(&error)) << error;
    ASSERT_EQ(bed_.start(kMembers, kHosts, kLeaseTtl), "");
    for (int i = 0; i < kMembers; ++i) bed_.startMember(i);
    ASSERT_TRUE(bed_.waitConverged()) << bed_.describe() << bed_.log(0);
  }

  // The member collecting `target` now ("" when none or several).
  std::string ownerOf(const std::string& target) {
    Owners c = bed_.collectors();
    auto it = c.find(target);
    return it == c.end() || it->second.size() != 1 ? std::string() : *it->second.begin();
  }

  std::set<std::string> targetsOf(const std::string& member) {
    std::set<std::string> out;
    for (const auto& [t, ms] : bed_.collectors()) {
      if (ms.size() == 1 && ms.contains(member)) out.insert(t);
    }
    return out;
  }

  FleetBed bed_;
};

TEST_F(FleetGnmiTest, GetThroughAnyMemberReturnsAnyTargetAndStarTheWholeFleet) {
  const std::set<std::string> m2 = targetsOf("m2");
  ASSERT_FALSE(m2.empty()) << bed_.describe();
  const std::string t = *m2.begin();
  // Values can lag the first poll a little: wait until m1 answers with data.
  std::vector<std::string> lines;
  ASSERT_TRUE(testing::waitUntil([&] {
    lines = runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": ")" + t + R"(", "paths": ["/"]})");
    return !lines.empty() && lines.back() == "STATUS OK";
  })) << (lines.empty() ? "" : lines.back()) << "\n" << bed_.log(0);
  EXPECT_EQ(notifiedTargets(lines), std::set<std::string>{t});
  EXPECT_GT(updateCount(lines), 0u);

  // The same Get from the owner itself: the same leaves.
  std::vector<std::string> direct =
      runPython(bed_.gnmiAddress(1), R"({"rpc": "get", "target": ")" + t + R"(", "paths": ["/"]})");
  ASSERT_EQ(direct.back(), "STATUS OK");
  EXPECT_EQ(updateCount(direct), updateCount(lines));

  // "*": every target of the fleet, whichever member owns it.
  std::set<std::string> all(bed_.targets().begin(), bed_.targets().end());
  std::vector<std::string> star;
  ASSERT_TRUE(testing::waitUntil([&] {
    star = runPython(bed_.gnmiAddress(0),
                     R"({"rpc": "get", "target": "*", "paths": ["/"]})");
    return !star.empty() && star.back() == "STATUS OK" && notifiedTargets(star) == all;
  })) << (star.empty() ? "" : star.back()) << ": " << ::testing::PrintToString(notifiedTargets(star));

  // No target: this member's own.
  std::vector<std::string> own =
      runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "paths": ["/interfaces/interface/state/counters"]})");
  const std::set<std::string> m1 = targetsOf("m1");
  if (m1.empty()) {
    EXPECT_EQ(own.back().rfind("STATUS NOT_FOUND", 0), 0u) << own.back();
  } else {
    EXPECT_EQ(notifiedTargets(own), m1);
  }

  // A member never forwards a forwarded request again: m2 asked as if
  // forwarded, for a target m3 owns, answers from its own store.
  const std::set<std::string> m3 = targetsOf("m3");
  if (!m3.empty()) {
    std::vector<std::string> marked = runPython(
        bed_.gnmiAddress(1), R"({"rpc": "get", "target": ")" + *m3.begin() +
                                 R"(", "paths": ["/"], "metadata": [["rdmagw-forwarded-by", "m1"]]})");
    EXPECT_EQ(marked.back().rfind("STATUS NOT_FOUND", 0), 0u) << marked.back();
  }
}

TEST_F(FleetGnmiTest, OnChangeSubscriptionThroughM1FollowsItsTargetAcrossTheOwnersDeath) {
  // Of m2's targets, one placement moves to m3 once m2 is gone (forwarded
  // anew) and one to m1 (then served from m1's own store).
  const std::set<std::string> m2 = targetsOf("m2");
  ASSERT_FALSE(m2.empty()) << bed_.describe();
  std::string to_m3, to_m1;
  for (const std::string& t : m2) {
    const std::string next = cluster::owner(t, {"m1", "m3"});
    if (next == "m3" && to_m3.empty()) to_m3 = t;
    if (next == "m1" && to_m1.empty()) to_m1 = t;
  }
  ASSERT_FALSE(to_m3.empty() && to_m1.empty());
  std::map<std::string, std::unique_ptr<Watch>> watches;
  for (const std::string& t : {to_m3, to_m1}) {
    if (!t.empty()) watches[t] = std::make_unique<Watch>(bed_.gnmiAddress(0), t);
  }
  const auto started = Clock::now();
  ASSERT_TRUE(testing::waitUntil([&] {
    for (auto& [t, w] : watches) {
      if (!w->synced() || w->notificationsSince(started) < 3) return false;
    }
    return true;
  })) << watches.begin()->second->tail() << bed_.log(0);

  const auto killed = Clock::now();
  bed_.kill9(1);
  ASSERT_TRUE(bed_.waitConverged()) << bed_.describe();
  const auto converged = Clock::now();
  for (auto& entry : watches) {
    const std::string& t = entry.first;
    Watch* w = entry.second.get();  // named, not bound: clang 14 cannot capture a structured binding
    const std::string owner = ownerOf(t);
    ASSERT_TRUE(testing::waitUntil([&] { return w->notificationsSince(converged) >= 5; }))
        << t << " (now owned by " << owner << ") stopped at the client\n"
        << w->tail() << w->ended() << "\n" << bed_.log(0);
    EXPECT_EQ(w->ended(), "") << t;
    std::printf("%s: owner m2 killed -9, now %s (lease TTL %d s, fleet converged after %.1f s): "
                "longest gap at the client %.1f s\n",
                t.c_str(), owner.c_str(), kLeaseTtl, seconds(converged - killed),
                seconds(w->longestGapAfter(killed - std::chrono::seconds(1))));
  }
  if (!to_m3.empty()) {
    EXPECT_NE(bed_.log(0).find("forwarded to member m3"), std::string::npos) << bed_.log(0);
  }
}

}  // namespace
}  // namespace rdmagw::testing
