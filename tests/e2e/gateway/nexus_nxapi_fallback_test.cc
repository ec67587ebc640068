// transport [nxapi, ssh] end to end through the gateway's pipeline: the
// simulated leaf's NX-API server (real TLS, cookie sessions) and its SSH
// CLI (a real sshd) serve the same moving counters. NX-API stops answering
// -> the target moves to SSH; NX-API back -> it returns; the counters never
// go backwards, no counter reset is seen, and the switch's NX-API saw one
// login per session, not one per poll. With [gnmi, nxapi, ssh] the stream
// falls back to NX-API first, NX-API to SSH, and the stream takes over again.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "gateway/demo/demo_config.h"
#include "gateway/runtime/pipeline.h"
#include "sim/gnmi/gnmi_fleet.h"
#include "sim/gnmi/gnmi_tls.h"
#include "sim/nxapi/nxapi_server.h"
#include "sim/sim_runner.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

const char* kInOctets = "/interfaces/interface[name=Ethernet1/1]/state/counters/in-octets";

class NexusNxapiFallbackTest : public ::testing::Test {
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

TEST_F(NexusNxapiFallbackTest, MovesToSshWhenNxapiStopsAndReturnsWithContinuousCounters) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
  testing::TempDir tmp("rdmagw-nxapi-fallback");
  const fs::path dir = tmp.path();

  sim::FabricConfig fc;
  fc.hosts = 2;
  fc.esxi_hosts = 0;
  sim::SimRunner sim(fc, dir.string(), milliseconds(200));
  ASSERT_TRUE(sim.start().isOk());
  sim::GnmiTlsFiles tls;
  ASSERT_TRUE(sim::generateGnmiTlsFiles(&tls).isOk());
  sim::NxapiServerOptions so;
  so.device_dir = (dir / "leaf01").string();
  so.cert_file = tls.server_cert;
  so.key_file = tls.server_key;
  so.password = "nxapi-fallback-secret";
  sim::NxapiServer nxapi(so);
  ASSERT_TRUE(nxapi.start().isOk());
  setenv("RDMAGW_TEST_NXAPI_PASSWORD", so.password.c_str(), 1);

  GatewayConfig cfg;
  cfg.prometheus_enabled = false;
  sim::SshdLauncher sshd;
  ASSERT_TRUE(addSimSshDevices(dir.string(), milliseconds(300), sshd, cfg).isOk());
  ASSERT_EQ(cfg.targets.size(), 1u);
  TargetConfig& t = cfg.targets[0];
  t.transport = "nxapi,ssh";
  t.nxapi.host = "127.0.0.1";
  t.nxapi.port = nxapi.port();
  t.nxapi.username = "admin";
  t.nxapi.password_env = "RDMAGW_TEST_NXAPI_PASSWORD";
  t.nxapi.ca_file = tls.ca_cert;
  t.nxapi.retry_after = milliseconds(500);

  pipeline_ = std::make_unique<Pipeline>(std::move(cfg));
  ASSERT_TRUE(pipeline_->start().isOk());

  ASSERT_TRUE(waitFor("nxapi", 0)) << "not up on NX-API: " << leaf().health.last_error;
  const uint64_t on_nxapi = inOctets();
  nxapi.stop();
  ASSERT_TRUE(waitFor("ssh", on_nxapi)) << "no move to SSH: " << leaf().health.last_error;
  const uint64_t on_ssh = inOctets();
  ASSERT_TRUE(nxapi.start().isOk());
  ASSERT_TRUE(waitFor("nxapi", on_ssh)) << "did not return to NX-API: " << leaf().health.last_error;
  const uint64_t back = inOctets();
  ASSERT_TRUE(waitFor("nxapi", back)) << "NX-API stopped after the return";

  EXPECT_EQ(leaf().counter_resets, 0u) << "a change of transport must not look like a counter reset";
  EXPECT_EQ(leaf().rejected_updates, 0u);
  EXPECT_EQ(leaf().health.last_error.find(so.password), std::string::npos);
  const sim::NxapiServer::Counters c = nxapi.counters();
  EXPECT_EQ(c.authentications, 2u) << "one login before the switch stopped, one after it came back; none a poll";
  EXPECT_GE(c.cookie_requests, 1u);
  pipeline_->stop();
  sshd.stop();
  sim.stop();
  fs::remove_all(tls.dir);
}

TEST_F(NexusNxapiFallbackTest, GnmiFallsBackToNxapiThenSshAndReturns) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
  testing::TempDir tmp("rdmagw-gnmi-nxapi-ssh");
  const fs::path dir = tmp.path();

  sim::FabricConfig fc;
  fc.hosts = 2;
  fc.esxi_hosts = 0;
  sim::SimRunner sim(fc, dir.string(), milliseconds(200));
  sim::GnmiTargetOptions gopts;
  gopts.tls = sim::GnmiTls::kTls;
  gopts.username = "admin";
  gopts.password = "order-test-secret";
  sim::GnmiFleet fleet(sim::Fabric(fc).switches(), gopts);
  sim.setTickObserver([&fleet](const sim::Fabric& f) { fleet.publish(f, nowNs()); });
  ASSERT_TRUE(sim.start().isOk());
  ASSERT_TRUE(fleet.start().isOk());
  fleet.stop();  // gNMI down from the start
  sim::NxapiServerOptions so;
  so.device_dir = (dir / "leaf01").string();
  so.cert_file = fleet.target(0).tlsFiles().server_cert;
  so.key_file = fleet.target(0).tlsFiles().server_key;
  so.password = gopts.password;
  sim::NxapiServer nxapi(so);
  ASSERT_TRUE(nxapi.start().isOk());
  setenv("RDMAGW_TEST_ORDER_PASSWORD", gopts.password.c_str(), 1);

  GatewayConfig cfg;
  cfg.prometheus_enabled = false;
  SimGnmiEndpoint gnmi;
  gnmi.address["leaf01"] = fleet.target(0).address();
  gnmi.ca_file = fleet.target(0).tlsFiles().ca_cert;
  gnmi.username = "admin";
  gnmi.password_env = "RDMAGW_TEST_ORDER_PASSWORD";
  sim::SshdLauncher sshd;
  ASSERT_TRUE(addSimSshDevices(dir.string(), milliseconds(300), sshd, cfg, &gnmi).isOk());
  ASSERT_EQ(cfg.targets.size(), 1u);
  TargetConfig& t = cfg.targets[0];
  t.transport = "gnmi,nxapi,ssh";
  t.gnmi.sample_interval = milliseconds(1000);
  t.gnmi.backoff_initial = milliseconds(100);
  t.gnmi.backoff_max = milliseconds(400);
  t.gnmi.retry_gnmi_after = milliseconds(500);
  t.nxapi.host = "127.0.0.1";
  t.nxapi.port = nxapi.port();
  t.nxapi.username = "admin";
  t.nxapi.password_env = "RDMAGW_TEST_ORDER_PASSWORD";
  t.nxapi.ca_file = fleet.target(0).tlsFiles().ca_cert;
  t.nxapi.retry_after = milliseconds(500);

  pipeline_ = std::make_unique<Pipeline>(std::move(cfg));
  ASSERT_TRUE(pipeline_->start().isOk());

  ASSERT_TRUE(waitFor("nxapi", 0)) << "gNMI down: NX-API should carry the switch: " << leaf().health.last_error;
  const uint64_t on_nxapi = inOctets();
  nxapi.stop();
  ASSERT_TRUE(waitFor("ssh", on_nxapi)) << "NX-API down too: SSH should carry it: " << leaf().health.last_error;
  const uint64_t on_ssh = inOctets();
  ASSERT_TRUE(fleet.start().isOk());
  ASSERT_TRUE(waitFor("gnmi", on_ssh)) << "did not return to gNMI: " << leaf().health.last_error;

  EXPECT_EQ(leaf().counter_resets, 0u) << "no change of transport may look like a counter reset";
  EXPECT_EQ(leaf().rejected_updates, 0u);
  pipeline_->stop();
  sshd.stop();
  sim.stop();
}

}  // namespace
}  // namespace rdmagw::gateway
