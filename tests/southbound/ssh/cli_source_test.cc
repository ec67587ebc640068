// The CLI source's command loop and fallback, over a scripted runner.
#include "southbound/ssh/cli_source.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "southbound/ssh/cli_fallback.h"
#include "tests/southbound/ssh/ssh_test_util.h"

namespace rdmagw::southbound::ssh {
namespace {

using testing::parseJsonOnly;
using testing::parseNameValue;
using testing::valuePath;

class ScriptedRunner : public CommandRunner {
 public:
  std::map<std::string, std::function<Result<CommandOutput>()>> script;
  std::vector<std::string> ran;

  Result<CommandOutput> execute(const std::string& command) override {
    ran.push_back(command);
    auto it = script.find(command);
    if (it == script.end()) return Status::ioError("no script for " + command);
    return it->second();
  }
  void answer(const std::string& cmd, std::string text, int exit_status = 0) {
    script[cmd] = [text, exit_status]() -> Result<CommandOutput> {
      return CommandOutput{text, "", exit_status};
    };
  }
  void fail(const std::string& cmd, Status st) {
    script[cmd] = [st]() -> Result<CommandOutput> { return st; };
  }
};

TEST(CliFallbackTest, RecognisesErrorBanners) {
  EXPECT_TRUE(isErrorBanner("% Invalid command at '^' marker.\n"));
  EXPECT_TRUE(isErrorBanner("\n          ^\n% Invalid parameter detected at '^' marker.\n"));
  EXPECT_TRUE(isErrorBanner("Syntax error while parsing 'show x | json'\n"));
  EXPECT_TRUE(isErrorBanner("Error: Unknown command or namespace network nic foo\n"));
  EXPECT_FALSE(isErrorBanner("Port  Mode Oper(VL bmap)  RxPPP TxPPP\n"));
  EXPECT_FALSE(isErrorBanner("a\nb\nc\n% Invalid command\n"));  // only the first lines count
  EXPECT_FALSE(isErrorBanner(""));
}

TEST(CliSourceTest, FailedCommandAddsErrorLineOthersStillRun) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("show a", "a 1\n");
  runner->fail("show b", Status::ioError("ssh: 'show b' on sw:22 exited with status 1"));
  runner->answer("show c", "c 3\n");
  CliSource src(runner, {{"show a", parseNameValue}, {"show b", parseNameValue}, {"show c", parseNameValue}});
  EXPECT_EQ(src.transport(), "ssh");
  PollBatch batch;
  ASSERT_TRUE(src.poll(batch).isOk());
  ASSERT_EQ(batch.updates.size(), 2u);
  EXPECT_EQ(batch.updates[1].path, valuePath("c"));
  ASSERT_EQ(batch.errors.size(), 1u);
  EXPECT_NE(batch.errors[0].find("show b"), std::string::npos);
}

// A remote host's dump is a script of kilobytes: its errors name it by its
// start and length, so an error line stays readable in the log and status.
TEST(CliSourceTest, ALongCommandIsNamedByItsStartInErrors) {
  const std::string script = "exec 2>/dev/null; R=/sys; " + std::string(3000, ':') + "; echo end";
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer(script, "not name value at all\n");
  runner->answer("show a", "a 1\n");
  CliSource src(runner, {{script, parseJsonOnly}, {"show a", parseNameValue}});
  PollBatch batch;
  ASSERT_TRUE(src.poll(batch).isOk());
  ASSERT_EQ(batch.errors.size(), 1u);
  EXPECT_LT(batch.errors[0].size(), 300u) << batch.errors[0];
  EXPECT_NE(batch.errors[0].find("'exec 2>/dev/null; R=/sys; "), std::string::npos) << batch.errors[0];
  EXPECT_NE(batch.errors[0].find("(a 3036-byte command)"), std::string::npos) << batch.errors[0];
  EXPECT_EQ(commandLabel("show interface | json"), "show interface | json") << "short ones whole";
}

// Two commands giving one leaf, read moments apart: the later command's
// reading may be the older one; writing both would step the counter back.
TEST(CliSourceTest, TheFirstCommandThatGivesALeafOwnsItAndLaterOnesOnlyFillIn) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("show pfc", "frames 120\n");
  runner->answer("show queuing", "frames 118\ndrops 4\n");
  CliSource src(runner, {{"show pfc", parseNameValue}, {"show queuing", parseNameValue}});
  PollBatch batch;
  ASSERT_TRUE(src.poll(batch).isOk());
  ASSERT_EQ(batch.updates.size(), 2u);
  EXPECT_EQ(batch.updates[0].path, valuePath("frames"));
  EXPECT_EQ(batch.updates[0].value, Value(uint64_t{120}));
  EXPECT_EQ(batch.updates[1].path, valuePath("drops"));

  runner->fail("show pfc", Status::ioError("ssh: 'show pfc' exited with status 1"));
  PollBatch without_first;
  ASSERT_TRUE(src.poll(without_first).isOk());
  ASSERT_EQ(without_first.updates.size(), 2u) << "the second command fills in";
  EXPECT_EQ(without_first.updates[0].value, Value(uint64_t{118}));
}

TEST(CliSourceTest, UnreachableDeviceFailsWholePollAndStops) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->fail("show a", Status::unavailable("ssh: cannot connect to sw:22: Connection refused"));
  runner->answer("show b", "b 1\n");
  CliSource src(runner, {{"show a", parseNameValue}, {"show b", parseNameValue}});
  PollBatch batch;
  Status st = src.poll(batch);
  EXPECT_EQ(st.code(), Status::Code::kUnavailable);
  EXPECT_EQ(runner->ran, std::vector<std::string>{"show a"});
}

TEST(CliSourceTest, OptionalFailureIsSilentAndAllFailingIsAnError) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("vsish", "sh: vsish: not found\n", 127);
  runner->answer("show a", "a 1\n");
  CliSource ok(runner, {{"vsish", parseNameValue, true}, {"show a", parseNameValue}});
  PollBatch batch;
  EXPECT_TRUE(ok.poll(batch).isOk());
  EXPECT_TRUE(batch.errors.empty());
  CliSource bad(runner, {{"show nothing", parseNameValue}});
  PollBatch b2;
  Status st = bad.poll(b2);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("every command failed"), std::string::npos);
}

TEST(CliSourceTest, ASlowCommandRunsOnTheFirstPollThenEveryNth) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("show counters", "c 1\n");
  runner->answer("show config", "k 1\n");
  CliCommand config("show config", parseNameValue, true);
  config.every = 3;
  CliSource src(runner, {{"show counters", parseNameValue}, config});
  std::vector<bool> config_ran;
  for (int i = 0; i < 7; ++i) {
    runner->ran.clear();
    PollBatch b;
    ASSERT_TRUE(src.poll(b).isOk());
    EXPECT_TRUE(b.errors.empty());
    config_ran.push_back(runner->ran.size() == 2);
    EXPECT_EQ(b.updates.size(), config_ran.back() ? 2u : 1u);
  }
  EXPECT_EQ(config_ran, (std::vector<bool>{true, false, false, true, false, false, true}));

  // A poll where the device was gone does not count as the command's run.
  auto gone = std::make_shared<ScriptedRunner>();
  gone->fail("show config", Status::unavailable("ssh: connection refused"));
  CliSource again(gone, {config});
  PollBatch b1;
  EXPECT_EQ(again.poll(b1).code(), Status::Code::kUnavailable);
  gone->answer("show config", "k 1\n");
  PollBatch b2;
  ASSERT_TRUE(again.poll(b2).isOk());
  EXPECT_EQ(b2.updates.size(), 1u) << "retried on the next poll";
}

TEST(CliSourceTest, FallsBackToTextVariantAndRemembersIt) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("show pfc | json", "% Invalid command at '^' marker.\n");
  runner->answer("show pfc", "pfc 42\n");
  CliSource src(runner, {{"show pfc | json", parseJsonOnly, false, {{"show pfc", parseNameValue}}}});
  PollBatch b1, b2;
  ASSERT_TRUE(src.poll(b1).isOk());
  ASSERT_TRUE(src.poll(b2).isOk());
  EXPECT_EQ(src.preferredVariant(0), 1u);
  EXPECT_EQ(runner->ran, (std::vector<std::string>{"show pfc | json", "show pfc", "show pfc"}));
  ASSERT_EQ(b2.updates.size(), 1u);
  EXPECT_EQ(std::get<uint64_t>(b2.updates[0].value), 42u);
  EXPECT_TRUE(b1.errors.empty());
}

TEST(CliSourceTest, ParserFailureFallsBackAndLeavesNoPartialUpdates) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("show x | json", "not json at all\n");  // no banner, but does not parse
  runner->answer("show x", "x 7\n");
  CliSource src(runner, {{"show x | json", parseJsonOnly, false, {{"show x", parseNameValue}}}});
  PollBatch b;
  ASSERT_TRUE(src.poll(b).isOk());
  ASSERT_EQ(b.updates.size(), 1u);
  EXPECT_EQ(b.updates[0].path, valuePath("x"));
}

TEST(CliSourceTest, RememberedVariantFailingRetriesTheOthers) {
  auto runner = std::make_shared<ScriptedRunner>();
  runner->answer("j", "% Invalid command\n");
  runner->answer("t", "t 1\n");
  CliSource src(runner, {{"j", parseJsonOnly, false, {{"t", parseNameValue}}}});
  PollBatch b;
  ASSERT_TRUE(src.poll(b).isOk());
  runner->answer("t", "garbage\n");  // after an upgrade the text form changed...
  runner->answer("j", "{}\n");       // ...and JSON works now
  PollBatch b2;
  ASSERT_TRUE(src.poll(b2).isOk());
  EXPECT_EQ(src.preferredVariant(0), 0u);
  PollBatch b3;
  runner->answer("j", "% Invalid command\n");
  Status st = src.poll(b3);
  ASSERT_FALSE(st.isOk());  // both fail: each variant's reason is named
  EXPECT_NE(st.message().find("'j': device answered '% Invalid command'"), std::string::npos);
  EXPECT_NE(st.message().find("'t': parse failed"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
