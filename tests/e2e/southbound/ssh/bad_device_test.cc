// SSH devices whose command output never ends, against a real sshd: one
// prints as fast as it can (cut at max_output_bytes), one trickles a line at
// a time forever (cut at command_timeout). Each poll ends, the session is
// reset (the next command comes over a new connection), the health says
// why, and a well-behaved device polled by the same scheduler keeps its pace.

#include <gtest/gtest.h>

#include <filesystem>

#include <memory>

#include "models/store.h"
#include "sim/sshd_launcher.h"
#include "southbound/poll_scheduler.h"
#include "southbound/ssh/ssh_factory.h"
#include "tests/southbound/ssh/ssh_test_util.h"

namespace rdmagw::southbound::ssh {
namespace {

using std::chrono::milliseconds;

// Device behaviours (forced commands run by sshd for the device's key).
constexpr const char* kPrintsForever = "exec yes 'flood 1'";
constexpr const char* kTricklesForever = "while :; do echo 'trickle 1'; sleep 0.05; done";

class BadDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sshd_ = std::make_unique<sim::SshdLauncher>(sim::SshdOptions{});
    ASSERT_TRUE(sshd_->start().isOk()) << sshd_->logText();
  }
  SshConfig deviceConfig(const std::string& name, const std::string& forced) {
    auto k = sshd_->addDevice(name, forced);
    EXPECT_TRUE(k.isOk()) << k.status().message();
    return testing::keyConfig(*sshd_, k.isOk() ? k->private_key_file : "");
  }
  PollTarget target(const std::string& name, const SshConfig& c) {
    auto src = createCliSource(c, {{"show x", testing::parseNameValue}});
    EXPECT_TRUE(src.isOk()) << src.status().message();
    PollTarget t{name, "nexus", src.isOk() ? std::move(src).value() : nullptr, milliseconds(100)};
    t.retry_initial = milliseconds(50);
    return t;
  }
  TargetHealth health(const std::string& name) {
    for (const TargetStatus& t : store_.targets()) {
      if (t.name == name) return t.health;
    }
    return {};
  }
  uint64_t fineValue() {
    auto v = store_.get("fine", testing::valuePath("fine"));
    return v ? std::get<uint64_t>(v->value) : 0;
  }

  std::unique_ptr<sim::SshdLauncher> sshd_;
  Store store_;
};

TEST_F(BadDeviceTest, EndlessOutputIsCutAtSizeAndTimeOthersKeepTheirPace) {
  testing::TempDir dir("rdmagw-bad-ssh");
  const std::string fine_file = dir.file("fine.txt");
  testing::writeFile(fine_file, "fine 1\n");

  SshConfig flood = deviceConfig("flood", kPrintsForever);
  flood.max_output_bytes = 1 << 20;
  flood.command_timeout = milliseconds(120000);  // only the size cap can end it first
  SshConfig trickle = deviceConfig("trickle", kTricklesForever);
  trickle.command_timeout = milliseconds(1500);  // a line at a time: never reaches the size cap
  SshConfig fine = deviceConfig("fine", "cat " + fine_file);

  PollScheduler s(store_, 3);
  s.add(target("flood", flood));
  s.add(target("trickle", trickle));
  s.add(target("fine", fine));
  s.start();
  for (uint64_t v : {2, 3, 4}) {
    // Written aside and renamed in: a poll's `cat` must never see the file
    // truncated half-way through a write (an empty answer is a parse error).
    testing::writeFile(fine_file + ".new", "fine " + std::to_string(v) + "\n");
    std::filesystem::rename(fine_file + ".new", fine_file);
    EXPECT_TRUE(testing::waitUntil([&] { return fineValue() == v; })) << v;
  }
  EXPECT_TRUE(testing::waitUntil([&] { return health("flood").poll_errors >= 2; }));
  EXPECT_TRUE(testing::waitUntil([&] { return health("trickle").poll_errors >= 2; }));
  s.stop();

  TargetHealth f = health("flood");
  EXPECT_FALSE(f.up);
  EXPECT_NE(f.last_error.find("exceeds the 1048576-byte cap"), std::string::npos) << f.last_error;
  TargetHealth t = health("trickle");
  EXPECT_FALSE(t.up);
  EXPECT_NE(t.last_error.find("timed out after 1500 ms"), std::string::npos) << t.last_error;
  // Each cut reset the session: the next poll came over a fresh connection.
  EXPECT_GE(sshd_->connectionCount("flood"), 2u);
  EXPECT_GE(sshd_->connectionCount("trickle"), 2u);
  EXPECT_FALSE(store_.get("flood", testing::valuePath("flood")).has_value());  // no half output applied
  TargetHealth g = health("fine");
  EXPECT_TRUE(g.up);
  EXPECT_EQ(g.poll_errors, 0u);
  EXPECT_EQ(sshd_->connectionCount("fine"), 1u);  // its session was never disturbed
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
