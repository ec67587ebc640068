// transport `auto`: gNMI with the SSH CLI source as fallback (a fake
// PollSource here; the gateway's end-to-end test uses the real sshd).

#include "southbound/gnmi/fallback_source.h"

#include <gtest/gtest.h>

#include "tests/southbound/gnmi/fake_target.h"
#include "tests/southbound/gnmi/test_util.h"

namespace rdmagw::southbound::gnmi {
namespace {

using rdmagw::testing::FakeSshSource;
using rdmagw::testing::FakeTarget;
using rdmagw::testing::fastConfig;
using rdmagw::testing::octetsPath;
using rdmagw::testing::storedU64;
using rdmagw::testing::waitFor;

struct Harness {
  explicit Harness(FakeTarget& target, GnmiConfig config) {
    auto ssh = std::make_unique<FakeSshSource>(target.counter, 2);
    ssh_ = ssh.get();
    FallbackOptions o;
    o.target = "sw1";
    o.config = std::move(config);
    o.ssh = std::move(ssh);
    o.ssh_interval = std::chrono::milliseconds(20);
    o.labels = {{"rack", "r1"}};
    source = std::make_unique<FallbackSource>(store, std::move(o));
  }
  TargetStatus status() const {
    for (const TargetStatus& t : store.targets()) {
      if (t.name == "sw1") return t;
    }
    return {};
  }
  Store store;
  FakeSshSource* ssh_;
  std::unique_ptr<FallbackSource> source;
};

TEST(FallbackSourceTest, UnimplementedSwitchesToSshAndGnmiReturnsOnTheLongTimer) {
  FakeTarget target;
  target.subscribe_code = int(grpc::StatusCode::UNIMPLEMENTED);
  ASSERT_TRUE(target.start());
  Harness h(target, fastConfig(target.address()));
  ASSERT_TRUE(h.source->start().isOk());
  ASSERT_TRUE(waitFor([&] { return h.status().health.transport == "ssh" && h.status().health.up; }));
  ASSERT_TRUE(waitFor([&] { return h.ssh_->polls.load() >= 2; }));
  EXPECT_TRUE(storedU64(h.store, "sw1", octetsPath(1)).has_value());
  EXPECT_EQ(h.status().health.labels.size(), 1u);
  target.subscribe_code = 0;  // firmware upgraded: gNMI works now
  ASSERT_TRUE(waitFor([&] { return h.status().health.transport == "gnmi" && h.status().health.up; }));
  const int polls_after = h.ssh_->polls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_LE(h.ssh_->polls.load(), polls_after + 1);  // SSH polling stopped
  EXPECT_GE(h.source->stats().transport_changes, 2u);
}

TEST(FallbackSourceTest, WrongCredentialsFallBackToSsh) {
  rdmagw::testing::FakeTargetOptions o;
  o.username = "admin";
  o.password = "secret";
  FakeTarget target(o);
  ASSERT_TRUE(target.start());
  GnmiConfig c = fastConfig(target.address());
  c.username = "admin";
  ::setenv("RDMAGW_GNMI_TEST_WRONG_PASSWORD", "not-the-secret", 1);
  c.password_env = "RDMAGW_GNMI_TEST_WRONG_PASSWORD";
  c.retry_gnmi_after = std::chrono::seconds(600);
  Harness h(target, c);
  ASSERT_TRUE(h.source->start().isOk());
  ASSERT_TRUE(waitFor([&] { return h.status().health.transport == "ssh" && h.ssh_->polls.load() >= 2; }));
  EXPECT_EQ(h.source->stats().dials, 1u);
  EXPECT_NE(h.status().health.last_error.find("UNAUTHENTICATED"), std::string::npos);
  EXPECT_EQ(h.status().health.last_error.find("not-the-secret"), std::string::npos);
}

TEST(FallbackSourceTest, GnmiOnlyHasNoFallback) {
  FakeTarget target;
  target.caps_code = int(grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(target.start());
  Store store;
  FallbackOptions o;
  o.target = "sw1";
  o.config = fastConfig(target.address());
  FallbackSource src(store, std::move(o));
  ASSERT_TRUE(src.start().isOk());
  ASSERT_TRUE(waitFor([&] { return src.stats().dials >= 1 && !store.targets().front().health.last_error.empty() &&
                                   store.targets().front().health.last_error.find("PERMISSION_DENIED") != std::string::npos; }));
  EXPECT_EQ(store.targets().front().health.transport, "gnmi");
  EXPECT_FALSE(store.targets().front().health.up);
}

// The delay holds the first dial back (the gateway spreads its switches'
// SAMPLE phases with it), and stop() does not wait it out.
TEST(FallbackSourceTest, FirstDialWaitsItsDelayAndStopDoesNotWaitItOut) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  Store store;
  FallbackOptions late;
  late.target = "late";
  late.config = fastConfig(target.address());
  late.config.first_dial_delay = std::chrono::minutes(10);
  FallbackSource held(store, std::move(late));
  FallbackOptions now;
  now.target = "now";
  now.config = fastConfig(target.address());
  FallbackSource prompt(store, std::move(now));
  ASSERT_TRUE(held.start().isOk());
  ASSERT_TRUE(prompt.start().isOk());
  // The undelayed source, started after it, has dialled and streams.
  ASSERT_TRUE(waitFor([&] { return prompt.stats().up && prompt.stats().applied > 0; }));
  EXPECT_EQ(held.stats().dials, 0u);
  held.stop();  // returns at once (waiting out the delay would trip the test's timeout)
  EXPECT_EQ(held.stats().dials, 0u);
  EXPECT_FALSE(held.stats().up);
  prompt.stop();
}

// The transport changes twice while the device's counters keep rising; the
// store's counter must never go back and no reset may be counted.
TEST(FallbackSourceTest, CountersStayContinuousAcrossGnmiSshGnmi) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  const int port = target.port();
  GnmiConfig c = fastConfig(target.address());
  c.fallback_after_failures = 2;
  Harness h(target, c);

  std::atomic<bool> done{false};
  std::atomic<int> decreases{0};
  std::atomic<uint64_t> samples{0};
  std::thread watcher([&] {
    uint64_t last = 0;
    while (!done) {
      if (auto v = storedU64(h.store, "sw1", octetsPath(1))) {
        if (*v < last) ++decreases;
        last = std::max(last, *v);
        ++samples;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });

  ASSERT_TRUE(h.source->start().isOk());
  ASSERT_TRUE(waitFor([&] { return h.status().health.transport == "gnmi" && h.status().health.up; }));
  target.stop();  // switch goes away: refused connections -> SSH after 2 failures
  ASSERT_TRUE(waitFor([&] { return h.status().health.transport == "ssh" && h.ssh_->polls.load() >= 5; }));
  ASSERT_TRUE(target.start(port));
  ASSERT_TRUE(waitFor([&] { return h.status().health.transport == "gnmi"; }));
  const uint64_t at_return = storedU64(h.store, "sw1", octetsPath(1)).value_or(0);
  const bool advanced =
      waitFor([&] { return storedU64(h.store, "sw1", octetsPath(1)).value_or(0) > at_return + 50; });
  done = true;
  watcher.join();
  GnmiSourceStats st = h.source->stats();
  ASSERT_TRUE(advanced) << "at_return " << at_return << " now " << storedU64(h.store, "sw1", octetsPath(1)).value_or(0)
                        << " device " << target.counter.load() << " updates " << st.updates << " applied "
                        << st.applied << " handover_dropped " << st.handover_dropped << " responses " << st.responses
                        << " open streams " << target.open_streams.load();
  h.source->stop();

  EXPECT_GT(samples.load(), 10u);
  EXPECT_EQ(decreases.load(), 0);
  EXPECT_EQ(h.status().counter_resets, 0u);
  EXPECT_GE(h.source->stats().transport_changes, 2u);
}

// While gNMI carries the switch, the CLI supplement keeps the CLI-only leaves
// coming; once SSH carries it, the full CLI source does and the supplement rests.
class SupplementSource : public southbound::PollSource {
 public:
  std::string_view transport() const override { return "ssh"; }
  Status poll(PollBatch& batch) override {
    ++polls;
    batch.add("/interfaces/interface[name=Ethernet1/1]/ethernet/pfc/state/admin-mode", std::string("on"), nowNs());
    return Status::ok();
  }
  std::atomic<int> polls{0};
};

TEST(FallbackSourceTest, CliSupplementRunsOnlyWhileGnmiCarries) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  GnmiConfig c = fastConfig(target.address());
  c.fallback_after_failures = 2;
  Store store;
  auto supplement = std::make_unique<SupplementSource>();
  SupplementSource* sup = supplement.get();
  FallbackOptions o;
  o.target = "sw1";
  o.config = c;
  o.ssh = std::make_unique<FakeSshSource>(target.counter, 1);
  o.ssh_interval = std::chrono::milliseconds(20);
  o.cli_supplement = std::move(supplement);
  FallbackSource source(store, std::move(o));
  ASSERT_TRUE(source.start().isOk());
  ASSERT_TRUE(waitFor([&] { return sup->polls.load() >= 3; })) << "supplement not polled while gNMI is up";
  auto mode = store.get("sw1", "/interfaces/interface[name=Ethernet1/1]/ethernet/pfc/state/admin-mode");
  ASSERT_TRUE(mode.has_value());
  EXPECT_EQ(std::get<std::string>(mode->value), "on");
  target.stop();  // gNMI gone: SSH carries everything, the supplement rests
  ASSERT_TRUE(waitFor([&] {
    for (const TargetStatus& t : store.targets()) {
      if (t.name == "sw1") return t.health.transport == "ssh" && t.health.up;
    }
    return false;
  }));
  const int resting = sup->polls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LE(sup->polls.load(), resting + 1);
  EXPECT_EQ(source.stats().supplement_polls, uint64_t(sup->polls.load()));
  source.stop();
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
