// The Nexus profile collects the switch's RoCE configuration over a real
// sshd: `show running-config ipqos` (here the recorded N93180FX2 paste) on
// the first poll, then every 10th, for plain SSH and gNMI-supplement targets.
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
using testsupport::strAt;
using testsupport::u64At;

// A switch that answers only `show running-config ipqos` (every other
// command gets NX-OS's error banner) and counts how often it was asked.
std::string forcedCommand(const std::string& dir) {
  const std::string fixture =
      std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/roce-config/nxos_running-config_qos_snippet__zartbot-blog.txt";
  const std::string script = dir + "/nxos.sh";
  testsupport::writeFile(script,
                         "#!/bin/sh\n"
                         "case \"$SSH_ORIGINAL_COMMAND\" in\n"
                         "  'show running-config ipqos') echo x >>'" + dir + "/ipqos.count'; cat '" + fixture + "';;\n"
                         "  *) echo \"% Invalid command at '^' marker.\";;\n"
                         "esac\n");
  return "/bin/sh " + script;
}

size_t askedCount(const std::string& dir) {
  const std::string text = testsupport::readFile(dir + "/ipqos.count");
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
  testsupport::TempDir dir("rdmagw-nxos-ipqos");
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

}  // namespace
}  // namespace rdmagw::southbound::ssh
