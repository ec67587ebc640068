// transport auto end to end: the simulated leaf's gNMI server (the sim's
// NX-OS-like target, TLS + credentials) and its SSH CLI (a real sshd) serve
// the same moving counters. gNMI down -> the gateway falls back to SSH;
// gNMI back -> it returns; the switch's counters never go backwards and no
// counter reset is seen across either change of transport.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "gateway/demo/demo_config.h"
#include "gateway/runtime/pipeline.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/sim_runner.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

const char* kInOctets = "/interfaces/interface[name=Ethernet1/1]/state/counters/in-octets";

class NexusFallbackTest : public ::testing::Test {
 protected:
  TargetStatus leaf() const {
    for (const TargetStatus& t : pipeline_->store().targets()) {
      if (t.name == "leaf01") return t;
    }
    return {};
  }
  uint64_t inOctets() const {
    auto s = pipeline_->store().get("leaf01", kInOctets);
    return s ? std::get<uint64_t>(s->value) : 0;
  }
  // Waits until leaf01 is up on `transport` and its counter has moved past
  // `above`; checks on the way that the counter never went backwards.
  bool waitFor(const std::string& transport, uint64_t above) {
    const auto deadline = std::chrono::steady_clock::now() + testing::kEventWait;
    while (std::chrono::steady_clock::now() < deadline) {
      const uint64_t v = inOctets();
      EXPECT_GE(v, last_) << "counter went backwards";
      last_ = std::max(last_, v);
      const TargetStatus t = leaf();
      if (t.health.up && t.health.transport == transport && v > above) return true;
      std::this_thread::sleep_for(milliseconds(50));
    }
    return false;
  }

  std::unique_ptr<Pipeline> pipeline_;
  uint64_t last_ = 0;
};

TEST_F(NexusFallbackTest, FallsBackToSshAndReturnsWithContinuousCounters) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
  testing::TempDir tmp("rdmagw-fallback");
  const fs::path dir = tmp.path();

  sim::FabricConfig fc;
  fc.hosts = 2;
  fc.esxi_hosts = 0;
  sim::SimRunner sim(fc, dir.string(), milliseconds(200));
  sim::GnmiTargetOptions opts;
  opts.tls = sim::GnmiTls::kTls;
  opts.username = "admin";
  opts.password = "fallback-test-secret";
  sim::GnmiFleet fleet(sim::Fabric(fc).switches(), opts);
  sim.setTickObserver([&fleet](const sim::Fabric& f) { fleet.publish(f, nowNs()); });
  ASSERT_TRUE(sim.start().isOk());
  ASSERT_TRUE(fleet.start().isOk());
  fleet.stop();  // gNMI down from the start: port and TLS files exist, nobody listens
  setenv("RDMAGW_TEST_GNMI_PASSWORD", opts.password.c_str(), 1);

  GatewayConfig cfg;
  cfg.prometheus_enabled = false;
  SimGnmiEndpoint gnmi;
  gnmi.address["leaf01"] = fleet.target(0).address();
  gnmi.ca_file = fleet.target(0).tlsFiles().ca_cert;
  gnmi.username = "admin";
  gnmi.password_env = "RDMAGW_TEST_GNMI_PASSWORD";
  sim::SshdLauncher sshd;
  ASSERT_TRUE(addSimSshDevices(dir.string(), milliseconds(300), sshd, cfg, &gnmi).isOk());
  ASSERT_EQ(cfg.targets.size(), 1u);
  TargetConfig& leaf_cfg = cfg.targets[0];
  ASSERT_EQ(leaf_cfg.transport, "auto");
  leaf_cfg.gnmi.sample_interval = milliseconds(1000);
  leaf_cfg.gnmi.backoff_initial = milliseconds(100);
  leaf_cfg.gnmi.backoff_max = milliseconds(400);
  leaf_cfg.gnmi.retry_gnmi_after = milliseconds(500);

  pipeline_ = std::make_unique<Pipeline>(std::move(cfg));
  ASSERT_TRUE(pipeline_->start().isOk());

  ASSERT_TRUE(waitFor("ssh", 0)) << "no SSH fallback: " << leaf().health.last_error;
  const uint64_t on_ssh = inOctets();
  ASSERT_TRUE(fleet.start().isOk());
  ASSERT_TRUE(waitFor("gnmi", on_ssh)) << "did not return to gNMI: " << leaf().health.last_error;
  const uint64_t on_gnmi = inOctets();
  fleet.stop();
  ASSERT_TRUE(waitFor("ssh", on_gnmi)) << "no second fallback: " << leaf().health.last_error;

  EXPECT_EQ(leaf().counter_resets, 0u) << "a change of transport must not look like a counter reset";
  EXPECT_EQ(leaf().rejected_updates, 0u);
  EXPECT_EQ(leaf().health.last_error.find("fallback-test-secret"), std::string::npos);
  pipeline_->stop();
  sshd.stop();
  sim.stop();
}

}  // namespace
}  // namespace rdmagw::gateway
