// Units without a network: config validation, secrets, backoff, limiter.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <thread>
#include <vector>

#include "southbound/ssh/concurrency_limiter.h"
#include "southbound/secret_source.h"
#include "southbound/ssh/ssh_config.h"
#include "tests/southbound/ssh/ssh_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::ssh {
namespace {

using std::chrono::milliseconds;

SshConfig valid() {
  SshConfig c;
  c.host = "sw1";
  c.username = "admin";
  c.key_file = "/k";
  c.known_hosts_file = "/kh";
  return c;
}

TEST(SshConfigTest, ValidConfigPasses) { EXPECT_TRUE(valid().validate().isOk()); }

TEST(SshConfigTest, CollectsEveryProblemWithFieldNames) {
  SshConfig c;
  c.port = 70000;
  c.password_env = "A";
  c.password_file = "/f";
  c.passphrase_env = "P";
  c.command_timeout = milliseconds(0);
  Status st = c.validate();
  ASSERT_FALSE(st.isOk());
  for (const char* want : {"host:", "port:", "username:", "password_file:", "passphrase_env:",
                           "command_timeout:"}) {
    EXPECT_NE(st.message().find(want), std::string::npos) << want << " in " << st.message();
  }
  SshConfig none = valid();
  none.key_file.clear();
  EXPECT_NE(none.validate().message().find("key_file:"), std::string::npos);
}

TEST(SshConfigTest, KnownHostsDefaultsToHome) {
  SshConfig c = valid();
  c.known_hosts_file.clear();
  ::setenv("HOME", "/home/op", 1);
  EXPECT_EQ(c.knownHostsPath(), "/home/op/.ssh/known_hosts");
  EXPECT_EQ(c.endpoint(), "sw1:22");
}

TEST(CredentialsTest, EnvAndFileTrimOneNewline) {
  ::setenv("RDMAGW_TEST_PW", "s3cret\n", 1);
  auto a = resolveSecret("password_env", "RDMAGW_TEST_PW", "password_file", "");
  ASSERT_TRUE(a.isOk());
  EXPECT_STREQ(a->reveal(), "s3cret");
  const std::string file = ::testing::TempDir() + "/pw";
  testing::writeFile(file, "line\n\n");
  auto b = resolveSecret("password_env", "", "password_file", file);
  ASSERT_TRUE(b.isOk());
  EXPECT_STREQ(b->reveal(), "line\n");  // only one newline is trimmed
  testing::writeFile(file, "crlf\r\n");
  EXPECT_STREQ(resolveSecret("e", "", "f", file)->reveal(), "crlf");
  EXPECT_TRUE(resolveSecret("e", "", "f", "")->empty());
}

TEST(CredentialsTest, ErrorsNameTheSourceNeverTheContent) {
  ::unsetenv("RDMAGW_TEST_UNSET");
  auto a = resolveSecret("password_env", "RDMAGW_TEST_UNSET", "password_file", "");
  ASSERT_FALSE(a.isOk());
  EXPECT_NE(a.status().message().find("password_env: environment variable RDMAGW_TEST_UNSET"),
            std::string::npos);
  auto b = resolveSecret("password_env", "", "password_file", "/nonexistent/pw");
  EXPECT_NE(b.status().message().find("password_file: cannot read /nonexistent/pw"),
            std::string::npos);
  common::Secret s("hunter2");
  EXPECT_EQ(s.scrub("denied for hunter2, hunter2!"), "denied for ***, ***!");
  common::Secret moved(std::move(s));
  EXPECT_STREQ(moved.reveal(), "hunter2");
  EXPECT_TRUE(s.empty());  // NOLINT: moved-from is wiped on purpose
}

TEST(ConcurrencyLimiterTest, CapsInFlightAcrossThreads) {
  ConcurrencyLimiter limiter(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 12; ++i) {
    threads.emplace_back([&] {
      LimiterSlot slot(limiter, std::chrono::steady_clock::now() + std::chrono::seconds(60));
      ASSERT_TRUE(slot.held());
      std::this_thread::sleep_for(milliseconds(20));
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(limiter.peak(), 3u);
  EXPECT_EQ(limiter.inFlight(), 0u);
  // A full limiter times out instead of hanging.
  ConcurrencyLimiter one(1);
  LimiterSlot held(one, std::chrono::steady_clock::now());
  ASSERT_TRUE(held.held());
  LimiterSlot waiting(one, std::chrono::steady_clock::now() + milliseconds(50));
  EXPECT_FALSE(waiting.held());
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
