// gRPC's own log lines through the gateway's log: a client that trusts
// another CA than the server's fails its TLS handshake on every attempt, and
// gRPC logs each failure; with the bridge the line comes out once, in the
// gateway's format, at WARN, and follows the gateway's level.

#include "gateway/runtime/grpc_log_bridge.h"

#include <grpc/support/log.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "gnmi.grpc.pb.h"
#include "models/log.h"
#include "sim/gnmi/gnmi_target.h"
#include "sim/gnmi/gnmi_tls.h"

namespace rdmagw::gateway {
namespace {

constexpr int kAttempts = 5;

class GrpcLogBridgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::GnmiTargetOptions o;
    o.tls = sim::GnmiTls::kTls;
    target_ = std::make_unique<sim::GnmiTarget>("leaf01", o);
    ASSERT_TRUE(target_->start().isOk());
    ASSERT_TRUE(sim::generateGnmiTlsFiles(&other_).isOk());  // a CA that signed nothing of the target's
  }
  void TearDown() override {
    removeGrpcLogBridge();
    setLogLevel(LogLevel::kInfo);
    target_.reset();
    std::error_code ec;
    std::filesystem::remove_all(other_.dir, ec);
  }

  // One Capabilities call on a fresh connection (its own subchannel), which
  // fails in the TLS handshake.
  grpc::Status attempt() {
    grpc::SslCredentialsOptions trust;
    trust.pem_root_certs = sim::readTextFile(other_.ca_cert);
    grpc::ChannelArguments args;
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    auto stub = gnmi::gNMI::NewStub(grpc::CreateCustomChannel(target_->address(), grpc::SslCredentials(trust), args));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    gnmi::CapabilityResponse resp;
    return stub->Capabilities(&ctx, gnmi::CapabilityRequest(), &resp);
  }

  // stderr while `fn` runs (gRPC's threads write there too).
  template <typename Fn>
  std::string stderrOf(Fn fn) {
    ::testing::internal::CaptureStderr();
    fn();
    return ::testing::internal::GetCapturedStderr();
  }

  std::unique_ptr<sim::GnmiTarget> target_;
  sim::GnmiTlsFiles other_;
};

TEST_F(GrpcLogBridgeTest, HandshakeFailuresComeOutOnceInTheGatewaysFormat) {
  setLogLevel(LogLevel::kInfo);
  installGrpcLogBridge(std::chrono::hours(1));
  int failed = 0;
  const std::string err = stderrOf([&] {
    for (int i = 0; i < kAttempts; ++i) failed += attempt().ok() ? 0 : 1;
  });
  ASSERT_EQ(failed, kAttempts) << "the handshakes were meant to fail";

  // "2026-11-25T16:32:21.781Z WARN  [grpc] ssl_transport_security.cc:1501] Handshake failed ..."
  const std::regex ours(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN  \[grpc\] ([a-z_]+\.cc:\d+\] .*Handshake failed.*))");
  // "E1125 16:32:21.781339844 23888 ssl_transport_security.cc:1501] Handshake failed ..."
  const std::regex native(R"(^[DIE]\d{4} \d\d:\d\d:\d\d)");
  std::map<std::string, int> per_kind;  // client and server side each log their own text
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_FALSE(std::regex_search(line, native)) << "gRPC's own format: " << line;
    if (line.find("Handshake failed") == std::string::npos) continue;
    std::smatch m;
    EXPECT_TRUE(std::regex_search(line, m, ours)) << line;
    if (!m.empty()) ++per_kind[LogRepeatFilter::sameness(m[1].str())];
  }
  ASSERT_FALSE(per_kind.empty()) << "no handshake failure logged:\n" << err;
  for (const auto& [kind, n] : per_kind) {
    EXPECT_EQ(n, 1) << kind << ": " << kAttempts << " failures must make one line, not " << n << "\n" << err;
  }
}

TEST_F(GrpcLogBridgeTest, FollowsTheGatewaysLevel) {
  if (std::getenv("GRPC_VERBOSITY") != nullptr) GTEST_SKIP() << "GRPC_VERBOSITY decides gRPC's verbosity";
  setLogLevel(LogLevel::kInfo);
  installGrpcLogBridge(std::chrono::hours(1));
  EXPECT_FALSE(gpr_should_log(GPR_LOG_SEVERITY_INFO));
  EXPECT_TRUE(gpr_should_log(GPR_LOG_SEVERITY_ERROR));
  setLogLevel(LogLevel::kDebug);
  EXPECT_TRUE(gpr_should_log(GPR_LOG_SEVERITY_DEBUG));
  setLogLevel(LogLevel::kError);  // gRPC's ERROR lines are WARN to the gateway: none at level error
  const std::string err = stderrOf([&] { EXPECT_FALSE(attempt().ok()); });
  EXPECT_EQ(err.find("Handshake failed"), std::string::npos) << err;
  EXPECT_EQ(err.find("[grpc]"), std::string::npos) << err;
}

}  // namespace
}  // namespace rdmagw::gateway
