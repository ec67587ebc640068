// The Nexus profile collects the switch's RoCE configuration over a real
// sshd: `show running-config ipqos` (here the recorded N93180FX2 paste) on
// the first poll, then every 10th, for plain SSH and gNMI-supplement targets;
// and the PFC watchdog as it runs (`show queuing pfc-queue detail`, JSON
// first, the text form where the JSON is refused) on every poll.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "sim/sshd_launcher.h"
#include "southbound/ssh/profiles/nexus_profile.h"
#include "southbound/ssh/ssh_factory.h"
#include "tests/southbound/ssh/ssh_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::ssh {
namespace {

using testing::keyConfig;
using testing::strAt;
using testing::u64At;

// A switch that answers only `show running-config ipqos` (every other
// command gets NX-OS's error banner) and counts how often it was asked.
std::string forcedCommand(const std::string& dir) {
  const std::string fixture =
      std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/roce-config/nxos_running-config_qos_snippet__zartbot-blog.txt";
  const std::string script = dir + "/nxos.sh";
  testing::writeFile(script,
                         "#!/bin/sh\n"
                         "case \"$SSH_ORIGINAL_COMMAND\" in\n"
                         "  'show running-config ipqos') echo x >>'" + dir + "/ipqos.count'; cat '" + fixture + "';;\n"
                         "  *) echo \"% Invalid command at '^' marker.\";;\n"
                         "esac\n");
  return "/bin/sh " + script;
}

size_t askedCount(const std::string& dir) {
  const std::string text = testing::readFile(dir + "/ipqos.count");
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

void expectRoceLeaves(const PollBatch& b) {
  EXPECT_EQ(u64At(b, "/qos/dscp-map/dscp[value=26]/state/qos-group"), 5u);
  EXPECT_EQ(u64At(b, "/qos/qos-groups/qos-group[id=5]/state/pause-cos"), 0x20u);
  EXPECT_EQ(u64At(b, "/qos/qos-groups/qos-group[id=5]/state/wred-min-threshold"), 409600u);
  EXPECT_EQ(u64At(b, "/qos/qos-groups/qos-group[id=6]/state/priority-level"), 2u);
  EXPECT_EQ(strAt(b, "/qos/pfc-watchdog/state/interval"), "on");
  EXPECT_EQ(strAt(b, "/interfaces/interface[name=Ethernet1/51]/ethernet/pfc/state/watchdog-interval"), "on");
}

TEST(NexusRoceConfigTest, IpqosOnTheFirstPollThenEveryTenth) {
  sim::SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk());
  testing::TempDir dir("rdmagw-nxos-ipqos");
  for (const bool supplement : {false, true}) {
    SCOPED_TRACE(supplement ? "gNMI supplement" : "SSH");
    const std::string device = supplement ? "nx-gnmi" : "nx-ssh";
    const std::string count_dir = dir.file(device);
    std::filesystem::create_directories(count_dir);
    auto key = sshd.addDevice(device, forcedCommand(count_dir));
    ASSERT_TRUE(key.isOk());
    auto src = createCliSource(keyConfig(sshd, key->private_key_file),
                               supplement ? nexusGnmiSupplementCommands() : nexusCommands());
    ASSERT_TRUE(src.isOk());
    for (int poll = 0; poll < 11; ++poll) {
      PollBatch b;
      // The other commands get the error banner: a poll without ipqos fails.
      const Status st = (*src)->poll(b);
      const bool due = poll == 0 || poll == 10;
      EXPECT_EQ(st.isOk(), due) << poll << ": " << st.message();
      EXPECT_EQ(askedCount(count_dir), poll < 10 ? 1u : 2u) << poll;
      if (due) {
        expectRoceLeaves(b);
      } else {
        EXPECT_FALSE(u64At(b, "/qos/dscp-map/dscp[value=26]/state/qos-group")) << poll;
      }
    }
  }
}

// A switch that answers `show queuing pfc-queue detail` (the synthetic
// layouts of tests/fixtures/roce-config/, their source line cut) as text
// only, or as JSON too, and counts each form it was asked for.
std::string watchdogCommand(const std::string& dir, bool json) {
  const std::string fixtures = std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/roce-config/";
  const std::string text = fixtures + "nxos_show_queuing_pfc-queue_interface_detail__otel-ciscoos-test.txt";
  const std::string js = fixtures + "SYNTHETIC_nxos_show_queuing_pfc-queue_detail_json__from_9.3x_grammar.json";
  const std::string script = dir + "/nxos.sh";
  testing::writeFile(script,
                         "#!/bin/sh\n"
                         "case \"$SSH_ORIGINAL_COMMAND\" in\n"
                         "  'show queuing pfc-queue detail') echo x >>'" + dir + "/text.count'; tail -n +2 '" + text +
                             "';;\n" +
                             (json ? "  'show queuing pfc-queue detail | json') echo x >>'" + dir +
                                         "/json.count'; tail -n +2 '" + js + "';;\n"
                                   : std::string()) +
                             "  *) echo \"% Invalid command at '^' marker.\";;\n"
                             "esac\n");
  return "/bin/sh " + script;
}

size_t lines(const std::string& file) {
  const std::string text = testing::readFile(file);
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

TEST(NexusRoceConfigTest, PfcWatchdogOnEveryPollJsonFirstTextWhereRefused) {
  sim::SshdLauncher sshd;
  ASSERT_TRUE(sshd.start().isOk());
  testing::TempDir dir("rdmagw-nxos-pfc-queue");
  const std::string wd = "/interfaces/interface[name=Ethernet1/23]/ethernet/pfc/watchdog/";
  const std::string q3 = wd + "qos-groups/qos-group[id=3]/state/";
  for (const bool supplement : {false, true}) {
    for (const bool json : {false, true}) {
      SCOPED_TRACE(std::string(supplement ? "gNMI supplement" : "SSH") + (json ? ", JSON" : ", text only"));
      const std::string device = std::string(supplement ? "g" : "s") + (json ? "-json" : "-text");
      const std::string count_dir = dir.file(device);
      std::filesystem::create_directories(count_dir);
      auto key = sshd.addDevice(device, watchdogCommand(count_dir, json));
      ASSERT_TRUE(key.isOk());
      auto src = createCliSource(keyConfig(sshd, key->private_key_file),
                                 supplement ? nexusGnmiSupplementCommands() : nexusCommands());
      ASSERT_TRUE(src.isOk());
      for (size_t poll = 1; poll <= 3; ++poll) {
        PollBatch b;
        (void)(*src)->poll(b);  // the other commands get the error banner
        EXPECT_EQ(lines(count_dir + (json ? "/json.count" : "/text.count")), poll) << "asked on every poll";
        if (json) EXPECT_EQ(lines(count_dir + "/text.count"), 0u) << "the JSON answered";
        EXPECT_EQ(u64At(b, wd + "state/enabled"), 1u) << poll;
        EXPECT_EQ(strAt(b, q3 + "state"), "Shutdown") << poll;
        EXPECT_EQ(u64At(b, q3 + "pfc-cos"), 3u);
        EXPECT_EQ(u64At(b, q3 + "shutdown-events"), 1u);
        EXPECT_EQ(u64At(b, q3 + "restored-events"), 2u);
        EXPECT_EQ(u64At(b, q3 + "drained-packets"), 3u);
        EXPECT_EQ(u64At(b, q3 + "dropped-packets"), 4u);
        // Read whole per port, through the command's fallback too.
        EXPECT_NE(std::find(b.replaced.begin(), b.replaced.end(), "/interfaces/interface[name=Ethernet1/23]/ethernet/pfc/watchdog"),
                  b.replaced.end())
            << poll;
      }
    }
  }
}

}  // namespace
}  // namespace rdmagw::southbound::ssh
