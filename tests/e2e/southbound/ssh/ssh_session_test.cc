// SshSession and SshConnection against a real OpenSSH sshd on loopback.
#include "southbound/ssh/ssh_session.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "models/store.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/cli_source.h"
#include "southbound/ssh/keepalive_service.h"
#include "southbound/ssh/ssh_connection.h"
#include "southbound/ssh/ssh_factory.h"
#include "tests/southbound/ssh/ssh_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::ssh {
namespace {

using std::chrono::milliseconds;
using testing::keyConfig;
using testing::readFile;
using testing::writeFile;
using Clock = std::chrono::steady_clock;

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

class SshSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::SshdOptions opts;
    opts.password_auth = true;
    sshd_ = std::make_unique<sim::SshdLauncher>(opts);
    ASSERT_TRUE(sshd_->start().isOk()) << sshd_->logText();
  }
  sim::ClientKey device(const std::string& name, const std::string& forced,
                        const std::string& passphrase = "") {
    auto k = sshd_->addDevice(name, forced, passphrase);
    EXPECT_TRUE(k.isOk()) << k.status().message();
    return k.isOk() ? *k : sim::ClientKey{};
  }
  std::unique_ptr<sim::SshdLauncher> sshd_;
};

TEST_F(SshSessionTest, KeyAuthRunsCommand) {
  auto key = device("nexus1", "echo \"nexus1: $SSH_ORIGINAL_COMMAND\"");
  SshSession s(keyConfig(*sshd_, key.private_key_file));
  ASSERT_TRUE(s.connect().isOk()) << sshd_->logText();
  Result<CommandOutput> out = s.execute("show interface priority-flow-control");
  ASSERT_TRUE(out.isOk()) << out.status().message();
  EXPECT_EQ(out->text, "nexus1: show interface priority-flow-control\n");
  EXPECT_EQ(out->exit_status, 0);
  EXPECT_EQ(*s.run("second"), "nexus1: second\n");  // same session, second channel
  EXPECT_EQ(sshd_->connectionCount("nexus1"), 1u);
}

TEST_F(SshSessionTest, EncryptedKeyWithPassphraseFromEnv) {
  auto key = device("esxi1", "echo esxi", "pass-phrase-42");
  SshConfig c = keyConfig(*sshd_, key.private_key_file);
  c.passphrase_env = "RDMAGW_TEST_PASSPHRASE";
  ::setenv("RDMAGW_TEST_PASSPHRASE", "pass-phrase-42", 1);
  SshSession s(c);
  ASSERT_TRUE(s.connect().isOk());
  EXPECT_EQ(*s.run("x"), "esxi\n");
}

TEST_F(SshSessionTest, PasswordAuth) {
  if (std::string why = testing::ensurePasswordUser("pw-Correct-1"); !why.empty()) GTEST_SKIP() << why;
  ASSERT_TRUE(sshd_->setPasswordForcedCommand("echo \"pw: $SSH_ORIGINAL_COMMAND\"").isOk());
  SshConfig c = keyConfig(*sshd_, "");
  c.key_file.clear();
  c.username = testing::kPasswordUser;
  c.password_file = sshd_->dir() + "/pw";
  writeFile(c.password_file, "pw-Correct-1\n");
  SshSession s(c);
  ASSERT_TRUE(s.connect().isOk()) << sshd_->logText();
  EXPECT_EQ(*s.run("show clock"), "pw: show clock\n");
}

// Every auth failure path: the error (and everything logged while the
// scheduler handles it) names what failed, never the secret itself.
TEST_F(SshSessionTest, AuthFailuresNeverRevealSecrets) {
  const bool have_user = testing::ensurePasswordUser("pw-Correct-1").empty();
  const std::string wrong_pw = "Wr0ng-Passw0rd-XYZ";
  const std::string wrong_pp = "Wr0ng-Passphrase-XYZ";
  const std::string right_pp = "Right-Passphrase-ABC";
  auto encrypted = device("enc", "echo enc", right_pp);
  auto plain = device("plain", "echo plain");
  const std::string unauthorized_key = sshd_->dir() + "/keys/stranger";
  ASSERT_EQ(std::system(("ssh-keygen -q -t ed25519 -N '' -f " + unauthorized_key).c_str()), 0);
  ::setenv("RDMAGW_TEST_WRONG_PW", wrong_pw.c_str(), 1);
  ::setenv("RDMAGW_TEST_WRONG_PP", wrong_pp.c_str(), 1);
  ::setenv("RDMAGW_TEST_RIGHT_PP", right_pp.c_str(), 1);

  std::vector<std::pair<std::string, SshConfig>> cases;
  SshConfig pw = keyConfig(*sshd_, "");
  pw.key_file.clear();
  pw.username = have_user ? testing::kPasswordUser : "root";
  pw.password_env = "RDMAGW_TEST_WRONG_PW";
  cases.emplace_back("wrong password from env", pw);
  pw.password_env.clear();
  pw.password_file = sshd_->dir() + "/wrong_pw";
  writeFile(pw.password_file, wrong_pw + "\n");
  cases.emplace_back("wrong password from file", pw);
  SshConfig pp = keyConfig(*sshd_, encrypted.private_key_file);
  pp.passphrase_env = "RDMAGW_TEST_WRONG_PP";
  cases.emplace_back("wrong passphrase", pp);
  pp.passphrase_env.clear();
  cases.emplace_back("missing passphrase", pp);
  SshConfig stranger = keyConfig(*sshd_, unauthorized_key);
  cases.emplace_back("key not authorized", stranger);
  SshConfig user = keyConfig(*sshd_, encrypted.private_key_file);
  user.passphrase_env = "RDMAGW_TEST_RIGHT_PP";
  user.username = "no-such-user-rdmagw";
  cases.emplace_back("unknown user, right passphrase", user);

  for (auto& [name, config] : cases) {
    Store store;
    PollScheduler sched(store, 1);
    auto src = createCliSource(config, {{"show x", testing::parseNameValue}});
    ASSERT_TRUE(src.isOk()) << name << ": " << src.status().message();
    sched.add(PollTarget{"sw", "nexus", std::move(src).value(), milliseconds(60000), milliseconds(0), {}});
    ::testing::internal::CaptureStderr();
    sched.pollAllOnce();
    const std::string logged = ::testing::internal::GetCapturedStderr();
    TargetStatus t = store.targets().at(0);
    EXPECT_FALSE(t.health.up) << name;
    EXPECT_TRUE(contains(t.health.last_error, "auth") || contains(t.health.last_error, "key_file"))
        << name << ": " << t.health.last_error;
    for (const std::string& secret : {wrong_pw, wrong_pp, right_pp}) {
      EXPECT_FALSE(contains(t.health.last_error, secret)) << name << ": " << t.health.last_error;
      EXPECT_FALSE(contains(logged, secret)) << name << ": " << logged;
    }
  }
}

TEST_F(SshSessionTest, UnknownHostKeyRefusedUnlessTrustOnFirstUse) {
  auto key = device("sw", "echo ok");
  SshConfig c = keyConfig(*sshd_, key.private_key_file, /*write_known_hosts=*/false);
  ::unlink(c.known_hosts_file.c_str());
  SshSession refused(c);
  Status st = refused.connect();
  ASSERT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_TRUE(contains(st.message(), "is not in " + c.known_hosts_file)) << st.message();
  EXPECT_TRUE(contains(st.message(), "SHA256:")) << st.message();

  c.accept_unknown_host_key = true;
  SshSession tofu(c);
  ASSERT_TRUE(tofu.connect().isOk());
  const std::string blob = sshd_->hostKeyLine().substr(sshd_->hostKeyLine().find(' ') + 1);
  EXPECT_TRUE(contains(readFile(c.known_hosts_file), blob));
  c.accept_unknown_host_key = false;  // now known: strict mode accepts it
  SshSession again(c);
  EXPECT_TRUE(again.connect().isOk());
}

TEST_F(SshSessionTest, ChangedHostKeyIsRefusedLoudly) {
  auto key = device("sw", "echo ok");
  SshConfig c = keyConfig(*sshd_, key.private_key_file);
  c.accept_unknown_host_key = true;  // must not matter for a CHANGED key
  ASSERT_TRUE(SshSession(c).connect().isOk());
  const std::string before = readFile(c.known_hosts_file);
  ASSERT_TRUE(sshd_->restart(/*new_host_key=*/true).isOk());
  SshSession s(c);
  Status st = s.connect();
  ASSERT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_TRUE(contains(st.message(), "host key for 127.0.0.1:" + std::to_string(sshd_->port()) +
                                         " CHANGED"))
      << st.message();
  EXPECT_TRUE(contains(st.message(), "possible man-in-the-middle")) << st.message();
  EXPECT_FALSE(s.connected());
  EXPECT_EQ(readFile(c.known_hosts_file), before);  // never "fixed" silently
}

TEST_F(SshSessionTest, HungCommandTimesOutWhileAnotherTargetIsServed) {
  auto hung = device("hung", "sleep 600");
  auto fine = device("fine", "echo 'v 1'");
  SshConfig hc = keyConfig(*sshd_, hung.private_key_file);
  hc.command_timeout = milliseconds(1500);
  auto hung_src = createCliSource(hc, {{"show x", testing::parseNameValue}});
  auto fine_src = createCliSource(keyConfig(*sshd_, fine.private_key_file),
                                  {{"show x", testing::parseNameValue}});
  ASSERT_TRUE(hung_src.isOk() && fine_src.isOk());

  std::atomic<bool> hung_done{false};
  Status hung_status;
  std::thread t([&] {
    PollBatch b;
    hung_status = (*hung_src)->poll(b);
    hung_done = true;
  });
  int fine_polls = 0;
  while (!hung_done) {
    PollBatch b;
    ASSERT_TRUE(fine_src.value()->poll(b).isOk());
    ++fine_polls;
    std::this_thread::sleep_for(milliseconds(50));
  }
  t.join();
  EXPECT_GE(fine_polls, 1);
  EXPECT_EQ(hung_status.code(), Status::Code::kUnavailable);
  EXPECT_TRUE(contains(hung_status.message(), "timed out after 1500 ms")) << hung_status.message();
  // The status names the command timeout that ended the wait; how long it
  // took is not asserted (tests never assert wall-clock time).
}

TEST_F(SshSessionTest, ConnectionDroppedMidOutputIsAnError) {
  // Prints part of the output, then kills its own sshd session process
  // (the nearest sshd ancestor), so the TCP connection dies without EOF.
  auto key = device("dropper",
                    "echo partial-1; echo partial-2; sleep 0.3; p=$$; "
                    "while [ \"$(cat /proc/$p/comm)\" != sshd ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done; "
                    "kill -9 $p; sleep 5; echo never");
  SshSession s(keyConfig(*sshd_, key.private_key_file));
  ASSERT_TRUE(s.connect().isOk());
  Result<CommandOutput> out = s.execute("show interface");
  ASSERT_FALSE(out.isOk()) << "got a 'complete' output: " << out->text;
  EXPECT_EQ(out.status().code(), Status::Code::kUnavailable);
  EXPECT_TRUE(contains(out.status().message(), "lost")) << out.status().message();
  EXPECT_FALSE(s.connected());
}

TEST_F(SshSessionTest, ExitStatusAndOutputCap) {
  auto soft = device("soft", "echo 'some 1'; exit 3");
  auto hard = device("hard", "echo 'vsish: not found' >&2; exit 127");
  auto big = device("big", "yes x | head -c 200000");
  SshSession s1(keyConfig(*sshd_, soft.private_key_file));
  ASSERT_TRUE(s1.connect().isOk());
  Result<CommandOutput> o1 = s1.execute("x");
  ASSERT_TRUE(o1.isOk());  // output is returned: the parser decides
  EXPECT_EQ(o1->exit_status, 3);
  EXPECT_EQ(o1->text, "some 1\n");

  SshSession s2(keyConfig(*sshd_, hard.private_key_file));
  ASSERT_TRUE(s2.connect().isOk());
  Result<CommandOutput> o2 = s2.execute("vsish -e get /x");
  ASSERT_FALSE(o2.isOk());
  EXPECT_EQ(o2.status().code(), Status::Code::kIoError);
  EXPECT_TRUE(contains(o2.status().message(), "exited with status 127: vsish: not found"))
      << o2.status().message();
  EXPECT_TRUE(s2.connected());  // a command failure leaves the session up

  SshConfig bc = keyConfig(*sshd_, big.private_key_file);
  bc.max_output_bytes = 100000;
  SshSession s3(bc);
  ASSERT_TRUE(s3.connect().isOk());
  Result<CommandOutput> o3 = s3.execute("show tech");
  ASSERT_FALSE(o3.isOk());
  EXPECT_TRUE(contains(o3.status().message(), "exceeds the 100000-byte cap")) << o3.status().message();
  bc.max_output_bytes = 300000;
  SshSession s4(bc);
  ASSERT_TRUE(s4.connect().isOk());
  EXPECT_EQ(s4.run("show tech")->size(), 200000u);
}

TEST_F(SshSessionTest, SilentServerHitsConnectTimeout) {
  // Accepts TCP (the kernel does, from the backlog) but never speaks SSH.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  SshConfig c = keyConfig(*sshd_, "/nonexistent");
  c.port = ntohs(a.sin_port);
  c.connect_timeout = milliseconds(700);
  SshSession s(c);
  Status st = s.connect();
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_TRUE(contains(st.message(), "cannot connect to 127.0.0.1:" + std::to_string(c.port)))
      << st.message();
  ::close(fd);
}

TEST_F(SshSessionTest, FallbackFromJsonToTextOnTheRealDevice) {
  auto key = device("nx", "case \"$SSH_ORIGINAL_COMMAND\" in "
                          "*json*) echo \"% Invalid command at '^' marker.\";; "
                          "*) echo 'pfc 42';; esac");
  auto src = createCliSource(keyConfig(*sshd_, key.private_key_file),
                             {{"show interface priority-flow-control | json", testing::parseJsonOnly,
                               false, {{"show interface priority-flow-control", testing::parseNameValue}}}});
  ASSERT_TRUE(src.isOk());
  for (int i = 0; i < 2; ++i) {
    PollBatch b;
    ASSERT_TRUE((*src)->poll(b).isOk());
    ASSERT_EQ(b.updates.size(), 1u);
    EXPECT_EQ(std::get<uint64_t>(b.updates[0].value), 42u);
  }
  // json once, then the remembered text variant: 3 commands, one connection.
  EXPECT_EQ(sshd_->sessions("nx").size(), 3u);
  EXPECT_EQ(sshd_->connectionCount("nx"), 1u);
}

TEST_F(SshSessionTest, KeepaliveProbesIdleSessionAndNoticesDeath) {
  auto key = device("idle", "echo 'v 1'");
  SshConfig c = keyConfig(*sshd_, key.private_key_file);
  c.keepalive = milliseconds(100);
  auto conn = std::make_shared<SshConnection>(c);
  ASSERT_TRUE(conn->execute("x").isOk());
  KeepaliveService service(milliseconds(50));
  service.add(conn);
  auto waitFor = [](const std::function<bool()>& cond) {
    for (int i = 0; i < 600 && !cond(); ++i) std::this_thread::sleep_for(milliseconds(25));
    return cond();
  };
  EXPECT_TRUE(waitFor([&] { return conn->stats().keepalives >= 2; }));
  EXPECT_TRUE(conn->connected());
  sshd_->stopServer();  // the device "reboots": the idle session dies
  EXPECT_TRUE(waitFor([&] { return !conn->connected(); }));
  EXPECT_EQ(conn->stats().connects, 1u);
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
