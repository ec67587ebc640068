// The NX-API poll source against the simulated Nexus's NX-API server over
// real TLS on loopback (libcurl on our side, civetweb on the switch's):
// the leaves equal the SSH collector's for the same rendered tick, in both
// dialects; the CA is checked; one login serves a session; 429, 501, 413,
// 401 and the switch's command time limit each end as the issue of that
// request or command only.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <thread>

#include "sim/device_shell.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_tls.h"
#include "sim/nxapi/nxapi_server.h"
#include "sim/tree_writer.h"
#include "southbound/nxapi/nxapi_source.h"
#include "southbound/ssh/cli_source.h"
#include "southbound/ssh/profiles/nexus_profile.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::nxapi {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kPassword = "nxapi-test-secret";
constexpr const char* kInOctets = "/interfaces/interface[name=Ethernet1/1]/state/counters/in-octets";

// The SSH side of the comparison: the simulated switch's shell, without sshd.
class ShellRunner : public ssh::CommandRunner {
 public:
  explicit ShellRunner(std::string dir) : dir_(std::move(dir)) {}
  Result<ssh::CommandOutput> execute(const std::string& command) override {
    sim::ShellResult r = sim::runNxos(dir_, command);
    return ssh::CommandOutput{r.out, r.err, r.exit_code};
  }

 private:
  std::string dir_;
};

std::map<std::string, Value> leaves(const PollBatch& b) {
  std::map<std::string, Value> out;
  for (const Update& u : b.updates) out[u.path] = u.value;
  return out;
}

class NxapiSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::Fabric fabric(sim::FabricConfig{});
    for (int t = 0; t < 5; ++t) fabric.step();
    ASSERT_TRUE(sim::writeTree(fabric, tmp_.path()).isOk());
    leaf_dir_ = tmp_.path() + "/leaf01";
    ASSERT_TRUE(sim::generateGnmiTlsFiles(&tls_).isOk());
    setenv("RDMAGW_TEST_NXAPI_PASSWORD", kPassword, 1);
  }
  void TearDown() override {
    if (server_) server_->stop();
    fs::remove_all(tls_.dir);
  }
  void startServer(sim::NxapiServerOptions o = {}) {
    o.device_dir = leaf_dir_;
    o.cert_file = tls_.server_cert;
    o.key_file = tls_.server_key;
    o.password = kPassword;
    server_ = std::make_unique<sim::NxapiServer>(o);
    ASSERT_TRUE(server_->start().isOk());
  }
  NxapiConfig config() const {
    NxapiConfig c;
    c.host = "127.0.0.1";
    c.port = server_->port();
    c.username = "admin";
    c.password_env = "RDMAGW_TEST_NXAPI_PASSWORD";
    c.ca_file = tls_.ca_cert;
    return c;
  }
  std::unique_ptr<NxapiSource> source(NxapiConfig c) {
    return std::make_unique<NxapiSource>(c, ssh::nexusCommands(), [this] { return now_; });
  }

  testing::TempDir tmp_{"rdmagw-nxapi"};
  sim::GnmiTlsFiles tls_;
  std::string leaf_dir_;
  std::unique_ptr<sim::NxapiServer> server_;
  Clock::time_point now_ = Clock::now();
};

TEST_F(NxapiSourceTest, WritesTheSameLeavesAsTheSshCollectorInBothDialects) {
  startServer();
  ssh::CliSource cli(std::make_shared<ShellRunner>(leaf_dir_), ssh::nexusCommands());
  PollBatch over_ssh;
  ASSERT_TRUE(cli.poll(over_ssh).isOk());
  const std::map<std::string, Value> want = leaves(over_ssh);
  ASSERT_GT(want.size(), 100u);
  ASSERT_TRUE(want.count(kInOctets));
  for (Dialect d : {Dialect::kInsApi, Dialect::kJsonRpc}) {
    NxapiConfig c = config();
    c.dialect = d;
    auto src = source(c);
    PollBatch over_nxapi;
    Status st = src->poll(over_nxapi);
    ASSERT_TRUE(st.isOk()) << dialectName(d) << ": " << st.message();
    EXPECT_TRUE(over_nxapi.errors.empty()) << dialectName(d) << ": " << over_nxapi.errors.front();
    const std::map<std::string, Value> got = leaves(over_nxapi);
    EXPECT_EQ(got.size(), want.size()) << dialectName(d);
    for (const auto& kv : want) {
      auto it = got.find(kv.first);
      if (it == got.end()) {
        ADD_FAILURE() << dialectName(d) << ": NX-API lacks " << kv.first;
        continue;
      }
      EXPECT_EQ(it->second, kv.second) << dialectName(d) << ": " << kv.first;
    }
    EXPECT_EQ(over_nxapi.replaced, over_ssh.replaced) << dialectName(d);
    // The first poll learns which commands have no JSON form here (the
    // simulated switch renders some in text only): one more request for
    // those. From then on one request per output format.
    EXPECT_LE(src->stats().last_poll_requests, 3u);
    PollBatch second;
    ASSERT_TRUE(src->poll(second).isOk());
    EXPECT_EQ(src->stats().last_poll_requests, 2u) << "one request per output format";
    // Configuration commands run every 10th poll: the second poll reads what
    // the SSH collector's second poll reads.
    ssh::CliSource cli_again(std::make_shared<ShellRunner>(leaf_dir_), ssh::nexusCommands());
    PollBatch ssh_first, ssh_second;
    ASSERT_TRUE(cli_again.poll(ssh_first).isOk());
    ASSERT_TRUE(cli_again.poll(ssh_second).isOk());
    EXPECT_EQ(leaves(second), leaves(ssh_second)) << dialectName(d);
  }
}

TEST_F(NxapiSourceTest, OneLoginAndOneConnectionServeManyPolls) {
  startServer();
  auto src = source(config());
  for (int i = 0; i < 5; ++i) {
    PollBatch b;
    ASSERT_TRUE(src->poll(b).isOk());
  }
  sim::NxapiServer::Counters c = server_->counters();
  EXPECT_EQ(c.authentications, 1u) << "the session cookie is reused";
  EXPECT_EQ(c.cookie_requests, c.requests - 1);
  EXPECT_EQ(c.connections, 1u) << "one kept TLS connection";
  EXPECT_EQ(src->httpStats().logins, 1u);
  EXPECT_EQ(c.requests, src->httpStats().requests);

  // Past the session's lifetime the client logs in again rather than send a
  // cookie the switch would refuse.
  now_ += std::chrono::seconds(601);
  PollBatch b;
  ASSERT_TRUE(src->poll(b).isOk());
  EXPECT_EQ(server_->counters().authentications, 2u);
  EXPECT_EQ(server_->counters().unauthorized, 0u) << "no 401 round trip for a cookie known to be old";
}

TEST_F(NxapiSourceTest, ACookieTheSwitchForgotCostsOneRetryWithLogin) {
  sim::NxapiServerOptions o;
  o.cookie_ttl = std::chrono::seconds(1);
  startServer(o);
  auto src = source(config());
  PollBatch first;
  ASSERT_TRUE(src->poll(first).isOk());
  ASSERT_TRUE(testing::waitUntil([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return server_->liveSessions() == 0;
  }, std::chrono::seconds(30)));
  PollBatch second;
  Status st = src->poll(second);
  ASSERT_TRUE(st.isOk()) << st.message();
  EXPECT_TRUE(second.errors.empty());
  EXPECT_GE(server_->counters().unauthorized, 1u);
  EXPECT_EQ(server_->counters().authentications, 2u);
}

TEST_F(NxapiSourceTest, AWrongCaIsRefusedAndSaysSo) {
  startServer();
  sim::GnmiTlsFiles other;
  ASSERT_TRUE(sim::generateGnmiTlsFiles(&other).isOk());
  NxapiConfig c = config();
  c.ca_file = other.ca_cert;
  auto src = source(c);
  PollBatch b;
  Status st = src->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("TLS: the switch's certificate was refused (ca_file " + other.ca_cert), std::string::npos)
      << st.message();
  EXPECT_EQ(server_->counters().requests, 0u) << "nothing sent to a switch that did not prove itself";
  EXPECT_EQ(st.message().find(kPassword), std::string::npos);
  fs::remove_all(other.dir);
}

TEST_F(NxapiSourceTest, APinnedKeyStandsInForTheCaAndAWrongPinIsRefused) {
  startServer();
  // The pin of the server's public key, as `openssl` computes it.
  const std::string pin_cmd = "openssl x509 -in " + tls_.server_cert +
                              " -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | "
                              "openssl base64 -A";
  testing::CommandResult pinned = testing::runCommand(pin_cmd);
  std::string pin = pinned.output;
  while (!pin.empty() && std::isspace(static_cast<unsigned char>(pin.back()))) pin.pop_back();
  ASSERT_FALSE(pin.empty());
  NxapiConfig c = config();
  c.ca_file.clear();
  c.insecure = true;  // a self-signed switch: the pin is the whole check
  c.pinned_public_key = "sha256//" + pin;
  PollBatch b;
  Status st = source(c)->poll(b);
  EXPECT_TRUE(st.isOk()) << st.message();
  c.pinned_public_key = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  st = source(c)->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("does not match pinned_public_key"), std::string::npos) << st.message();
}

TEST_F(NxapiSourceTest, MaxSessionsBacksOffWithoutAskingAndRecovers) {
  startServer();
  server_->failNextWith429(1);
  auto src = source(config());
  PollBatch b;
  Status st = src->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("HTTP 429"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("Max sessions reached"), std::string::npos) << st.message();
  const uint64_t asked = server_->counters().requests;
  st = src->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("backing off"), std::string::npos) << st.message();
  EXPECT_EQ(server_->counters().requests, asked) << "no login attempt while backing off";
  now_ += std::chrono::seconds(10);
  PollBatch ok;
  st = src->poll(ok);
  EXPECT_TRUE(st.isOk()) << st.message();
  EXPECT_TRUE(leaves(ok).count(kInOctets));
  EXPECT_EQ(src->stats().backoffs, 1u);
}

TEST_F(NxapiSourceTest, StructuredOutputUnsupportedFallsBackToTextForThatCommandOnly) {
  startServer();
  // Which form each command answers in on this simulated switch, as the SSH
  // collector finds out (some are rendered in text only).
  ssh::CliSource cli(std::make_shared<ShellRunner>(leaf_dir_), ssh::nexusCommands());
  PollBatch over_ssh;
  ASSERT_TRUE(cli.poll(over_ssh).isOk());
  auto plain = source(config());
  PollBatch baseline;
  ASSERT_TRUE(plain->poll(baseline).isOk());
  const uint64_t text_only_here = plain->stats().fallbacks_to_text;

  server_->refuseJsonFor("show interface");
  auto src = source(config());
  PollBatch b;
  ASSERT_TRUE(src->poll(b).isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  EXPECT_TRUE(leaves(b).count(kInOctets)) << "the text form answered";
  EXPECT_EQ(leaves(b), leaves(baseline)) << "the same leaves, from the text form";
  const std::vector<ssh::CliCommand> cmds = ssh::nexusCommands();
  for (size_t i = 0; i < cmds.size(); ++i) {
    const bool refused = cmds[i].command == "show interface | json";
    EXPECT_EQ(src->preferredVariant(i), refused ? 1u : cli.preferredVariant(i)) << cmds[i].command;
    EXPECT_EQ(plain->preferredVariant(i), cli.preferredVariant(i)) << cmds[i].command;
  }
  EXPECT_EQ(src->stats().fallbacks_to_text, text_only_here + 1) << "that command only";
  // The next poll asks it as text straight away: still two requests.
  PollBatch again;
  ASSERT_TRUE(src->poll(again).isOk());
  EXPECT_EQ(src->stats().last_poll_requests, 2u);
  EXPECT_EQ(src->stats().fallbacks_to_text, text_only_here + 1);
}

TEST_F(NxapiSourceTest, TooLargeAskOnePerRequestAndNameTheStatus) {
  startServer();
  server_->failAllWith(413);
  auto src = source(config());
  PollBatch b;
  Status st = src->poll(b);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.code(), Status::Code::kUnavailable) << "the switch answers: not a transport failure";
  EXPECT_NE(st.message().find("HTTP 413"), std::string::npos) << st.message();
  EXPECT_GT(src->stats().last_poll_requests, 2u) << "split into one command per request";
}

TEST_F(NxapiSourceTest, AWrongPasswordIsRefusedLoginNeverLeakingIt) {
  startServer();
  setenv("RDMAGW_TEST_NXAPI_WRONG", "not-the-password", 1);
  NxapiConfig c = config();
  c.password_env = "RDMAGW_TEST_NXAPI_WRONG";
  PollBatch b;
  Status st = source(c)->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_NE(st.message().find("HTTP 401"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("refused the login of \"admin\""), std::string::npos) << st.message();
  EXPECT_EQ(st.message().find("not-the-password"), std::string::npos);
}

TEST_F(NxapiSourceTest, TheSwitchsCommandTimeLimitIsThatRequestsError) {
  sim::NxapiServerOptions o;
  o.command_limit = std::chrono::milliseconds(200);
  startServer(o);
  server_->setCommandDelay(std::chrono::milliseconds(400));
  auto src = source(config());
  PollBatch b;
  Status st = src->poll(b);
  EXPECT_FALSE(st.isOk());
  const std::string all = st.message() + (b.errors.empty() ? "" : b.errors.front());
  EXPECT_NE(all.find("Back-end processing error"), std::string::npos) << all;
  server_->setCommandDelay(std::chrono::milliseconds(0));
  PollBatch ok;
  EXPECT_TRUE(src->poll(ok).isOk());
}

TEST_F(NxapiSourceTest, ASwitchThatStopsAnsweringIsUnreachable) {
  startServer();
  auto src = source(config());
  PollBatch b;
  ASSERT_TRUE(src->poll(b).isOk());
  server_->stop();
  Status st = src->poll(b);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable) << st.message();
  ASSERT_TRUE(server_->start().isOk());
  PollBatch again;
  Status back = src->poll(again);
  EXPECT_TRUE(back.isOk()) << back.message();
}

}  // namespace
}  // namespace rdmagw::southbound::nxapi
