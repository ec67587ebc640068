// The gNMI client against the simulated NX-OS target (sim/gnmi): the real
// mapping, the default NX-OS subscription set, the target's quirks (origin
// echo, keepalives, JSON blobs, prefix rejection, no sync) and faults, TLS.

#include <gtest/gtest.h>

#include "sim/gnmi/gnmi_target.h"
#include "southbound/gnmi/fallback_source.h"
#include "tests/sim/gnmi/gnmi_test_util.h"
#include "tests/southbound/gnmi/test_util.h"

namespace rdmagw::southbound::gnmi {
namespace {

using rdmagw::sim::GnmiTarget;
using rdmagw::sim::GnmiTargetOptions;
using rdmagw::sim::GnmiTls;
using testing::FabricFeed;
using testing::waitFor;
using std::chrono::milliseconds;

class SimTargetTest : public ::testing::Test {
 protected:
  void startTarget(GnmiTargetOptions o) {
    o.min_sample_interval = milliseconds(100);
    o.quirks.keepalive_interval = milliseconds(50);
    target_ = std::make_unique<GnmiTarget>("leaf01", o);
    feed_ = std::make_unique<FabricFeed>(target_.get());
    feed_->step();
    ASSERT_TRUE(target_->start().isOk());
    feed_->startThread(milliseconds(50));
  }
  void TearDown() override {
    if (source_) source_->stop();
    if (feed_) feed_->stopThread();
    target_.reset();
  }
  GnmiConfig config() {
    GnmiConfig c = testing::fastConfig(target_->address());
    c.subscriptions.clear();  // the NX-OS default set
    c.sample_interval = milliseconds(100);  // below NX-OS's 1 s: the sim allows it in tests
    c.idle_timeout = milliseconds(2000);
    return c;
  }
  void startSource(GnmiConfig c) {
    FallbackOptions o;
    o.target = "leaf01";
    o.config = std::move(c);
    source_ = std::make_unique<FallbackSource>(store_, std::move(o));
    ASSERT_TRUE(source_->start().isOk());
  }
  size_t seriesContaining(const std::string& needle) {
    size_t n = 0;
    for (const SeriesSnapshot& s : store_.snapshot("leaf01")) n += s.path.find(needle) != std::string::npos;
    return n;
  }
  TargetHealth health() {
    for (const TargetStatus& t : store_.targets()) {
      if (t.name == "leaf01") return t.health;
    }
    return {};
  }

  std::unique_ptr<GnmiTarget> target_;
  std::unique_ptr<FabricFeed> feed_;
  Store store_;
  std::unique_ptr<FallbackSource> source_;
};

TEST_F(SimTargetTest, DefaultNxosSubscriptionsFillInterfaceQueueAndPfcLeaves) {
  startTarget({});
  startSource(config());
  ASSERT_TRUE(waitFor([&] { return seriesContaining("/state/counters/in-octets") > 0; }));
  ASSERT_TRUE(waitFor([&] { return seriesContaining("pfc") > 0 && seriesContaining("/queues/queue") > 0; }));
  ASSERT_TRUE(waitFor([&] { return health().up && source_->stats().keepalives > 0; }));
  GnmiSourceStats s = source_->stats();
  EXPECT_EQ(health().transport, "gnmi");
  EXPECT_EQ(s.dials, 1u);  // the NX-OS quirks (prefix rejection, blobs, origins) did not break the stream
  EXPECT_EQ(target_->subscribeCalls(), 1u);
  EXPECT_EQ(s.map_errors, 0u);
  EXPECT_EQ(s.rejected, 0u);
  EXPECT_EQ(s.dropped, 0u);
  for (const SeriesSnapshot& ser : store_.snapshot("leaf01")) {
    EXPECT_EQ(ser.path.find("openconfig:"), std::string::npos) << ser.path;
  }
}

TEST_F(SimTargetTest, NeverSyncingTargetStillStreams) {
  GnmiTargetOptions o;
  o.quirks.never_sync = true;
  startTarget(o);
  startSource(config());
  ASSERT_TRUE(waitFor([&] { return source_->stats().notifications > 20; }));
  EXPECT_EQ(source_->stats().sync_responses, 0u);
  EXPECT_TRUE(health().up);
}

TEST_F(SimTargetTest, StreamResetsAndStallsAreRecovered) {
  startTarget({});
  startSource(config());
  ASSERT_TRUE(waitFor([&] { return health().up; }));
  target_->resetStreams();
  ASSERT_TRUE(waitFor([&] { return target_->subscribeCalls() >= 2 && health().up; }));
  target_->setStall(true);
  ASSERT_TRUE(waitFor([&] { return source_->stats().stalls >= 1; }));
  target_->setStall(false);
  ASSERT_TRUE(waitFor([&] { return health().up && target_->openStreams() == 1; }));
  for (const TargetStatus& t : store_.targets()) EXPECT_EQ(t.counter_resets, 0u);
}

TEST_F(SimTargetTest, MutualTlsWithTheSimulatorsCa) {
  GnmiTargetOptions o;
  o.tls = GnmiTls::kMutualTls;
  o.username = "admin";
  o.password = "nexus-pw";
  startTarget(o);
  ::setenv("RDMAGW_GNMI_SIM_PW", "nexus-pw", 1);
  GnmiConfig c = config();
  c.plaintext = false;
  c.tls = true;
  c.ca_file = target_->tlsFiles().ca_cert;
  c.cert_file = target_->tlsFiles().client_cert;
  c.key_file = target_->tlsFiles().client_key;
  c.username = "admin";
  c.password_env = "RDMAGW_GNMI_SIM_PW";
  startSource(c);
  ASSERT_TRUE(waitFor([&] { return health().up && seriesContaining("in-octets") > 0; }));
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
