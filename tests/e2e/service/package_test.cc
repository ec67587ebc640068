// The Debian package, built by CPack from the suite's own build tree (the
// same install() rules scripts/package.sh uses on a Release build): its
// file list and control fields, lintian, the installed binary checking the
// installed config and serving a simulated host from a throwaway root
// (dpkg-deb -x), and the installed unit under systemd-analyze.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <thread>

#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

using namespace std::chrono_literals;
using testing::CommandResult;
using testing::runCommand;
using testing::TempDir;

bool have(const std::string& tool) { return runCommand("command -v " + tool).exit_code == 0; }

class PackageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* tool : {"cpack", "dpkg-deb", "dpkg-shlibdeps"}) {
      if (!have(tool)) {
        skip_ = std::string(tool) + " is missing (Debian packages cmake, dpkg-dev)";
        return;
      }
    }
    // One package per build tree, shared by the tests of this binary (CTest
    // runs each in its own process): cpacked again only when the binary or a
    // packaged source is newer. flock: CTest may run them in parallel.
    const std::string dir = RDMAGW_BINARY_DIR "/tests/service/package";
    const std::string sources = RDMAGW_SOURCE_DIR "/packaging " RDMAGW_SOURCE_DIR "/mibs " RDMAGW_SOURCE_DIR
                                "/yang " RDMAGW_SOURCE_DIR "/dashboards " RDMAGW_SOURCE_DIR "/rules " RDMAGW_SOURCE_DIR
                                "/docs/operate.md " RDMAGW_BINARY_DIR "/gateway/rdmagw " RDMAGW_BINARY_DIR
                                "/packaging/rdmagw.1.gz " RDMAGW_BINARY_DIR "/CPackConfig.cmake";
    const auto t0 = std::chrono::steady_clock::now();
    build_ = runCommand("mkdir -p " + dir + " && cd " + dir + " && flock .lock sh -c '"
                        "deb=$(ls out/rdmagw_*_amd64.deb 2>/dev/null | head -n 1); "
                        "if [ -z \"$deb\" ] || [ -n \"$(find " + sources + " -newer \"$deb\" | head -n 1)\" ]; then "
                        "rm -rf out && cpack -G DEB --config " RDMAGW_BINARY_DIR "/CPackConfig.cmake -B " + dir +
                        "/out; fi'");
    std::printf("package ready in %lld ms\n", static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                                         std::chrono::steady_clock::now() - t0)
                                                                         .count()));
    CommandResult ls = runCommand("ls " + dir + "/out/rdmagw_*_amd64.deb");
    if (ls.exit_code == 0) deb_ = ls.output.substr(0, ls.output.find('\n'));
  }

  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_FALSE(deb_.empty()) << "cpack made no rdmagw_<version>_amd64.deb:\n" << build_.output;
  }

  // dpkg-deb -x into a fresh throwaway root.
  static std::string extract(const TempDir& tmp) {
    const std::string root = tmp.file("root");
    CommandResult r = runCommand("dpkg-deb -x " + deb_ + " " + root);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return root;
  }

  static inline std::string skip_;
  static inline CommandResult build_;
  static inline std::string deb_;
};

TEST_F(PackageTest, HoldsEveryFileAnOperatorNeeds) {
  CommandResult list = runCommand("dpkg-deb -c " + deb_);
  ASSERT_EQ(list.exit_code, 0) << list.output;
  for (const char* path :
       {"./usr/bin/rdmagw", "./etc/rdmagw/rdmagw.yaml", "./etc/rdmagw/targets.d/example.yaml.sample",
        "./lib/systemd/system/rdmagw.service", "./usr/share/snmp/mibs/RDMAGW-MIB.txt",
        "./usr/share/rdmagw/yang/rdmagw-rdma.yang", "./usr/share/rdmagw/yang/openconfig/openconfig-interfaces.yang",
        "./usr/share/rdmagw/dashboards/rdmagw-fabric.json", "./usr/share/rdmagw/rules/rdmagw-alerts.yml",
        "./usr/share/man/man1/rdmagw.1.gz", "./usr/share/doc/rdmagw/copyright",
        "./usr/share/doc/rdmagw/changelog.gz", "./usr/share/doc/rdmagw/operate.md",
        "./usr/share/doc/rdmagw/configuration.md"}) {
    EXPECT_NE(list.output.find(std::string(" ") + path + "\n"), std::string::npos) << path;
  }
  CommandResult conffiles = runCommand("dpkg-deb -I " + deb_ + " conffiles");
  EXPECT_NE(conffiles.output.find("/etc/rdmagw/rdmagw.yaml"), std::string::npos) << conffiles.output;
  CommandResult depends = runCommand("dpkg-deb -f " + deb_ + " Depends");
  std::printf("Depends: %s", depends.output.c_str());
  // Computed by dpkg-shlibdeps from the binary: the libraries it links.
  for (const char* lib : {"libsystemd0", "libssh-4", "libsnmp40", "libc6 (>="}) {
    EXPECT_NE(depends.output.find(lib), std::string::npos) << lib << " missing from Depends: " << depends.output;
  }
  std::ifstream deb(deb_, std::ios::binary | std::ios::ate);
  std::printf("package size: %lld bytes (%s)\n", static_cast<long long>(deb.tellg()), deb_.c_str());
}

TEST_F(PackageTest, ManPageCoversEveryCommand) {
  TempDir tmp("rdmagw-pkg-man");
  const std::string root = extract(tmp);
  CommandResult man = runCommand("zcat " + root + "/usr/share/man/man1/rdmagw.1.gz | sed 's/\\\\-/-/g'");
  ASSERT_EQ(man.exit_code, 0) << man.output;  // roff's \- read back as -
  for (const char* cmd : {"run", "demo", "check-config", "parse", "fabric"}) {
    EXPECT_NE(man.output.find(std::string(".SS ") + cmd + "\n"), std::string::npos) << cmd;
    EXPECT_NE(man.output.find(std::string("usage: rdmagw ") + cmd), std::string::npos) << cmd << "'s --help";
  }
  if (have("groff")) {
    CommandResult warn = runCommand("zcat " + root + "/usr/share/man/man1/rdmagw.1.gz | groff -man -Tutf8 -ww -z");
    EXPECT_EQ(warn.output, "") << "groff warnings";
  }
}

TEST_F(PackageTest, LintianReportsNoErrorAndNoUnexplainedWarning) {
  if (!have("lintian")) GTEST_SKIP() << "lintian (Debian package lintian) is not installed";
  CommandResult r = runCommand("lintian --info --show-overrides " + deb_);
  std::printf("lintian:\n%s", r.output.c_str());
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    // Kept warnings carry an override with its reason (O:), so a bare E: or
    // W: is one nobody looked at.
    EXPECT_FALSE(line.starts_with("E: ")) << line;
    EXPECT_FALSE(line.starts_with("W: ")) << line;
  }
}

TEST_F(PackageTest, InstalledBinaryChecksItsConfigAndServesASimulatedHost) {
  TempDir tmp("rdmagw-pkg-run");
  const auto t0 = std::chrono::steady_clock::now();
  const std::string root = extract(tmp);
  const std::string bin = root + "/usr/bin/rdmagw";
  const std::string etc = root + "/etc/rdmagw/rdmagw.yaml";
  CommandResult check = runCommand(bin + " check-config " + etc);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  std::printf("%s", check.output.c_str());

  // The installed config with its two host-specific values pointed at a
  // simulated host: the sysfs root and the port.
  Result<std::string> one_host = sim::writeOneHostTree(tmp.file("sim"));
  ASSERT_TRUE(one_host.isOk()) << one_host.status().message();
  const std::string host = one_host.value();
  std::string cfg = testing::readFile(etc);
  const int port = testing::freeLoopbackPort();
  for (auto [from, to] : {std::pair<std::string, std::string>{"sysfs_root: /sys", "sysfs_root: " + tmp.file("sim/" + host + "/sys")},
                          {"ethtool: ioctl", "ethtool: text\n      ethtool_dir: " + tmp.file("sim/" + host + "/ethtool")},
                          {"127.0.0.1:9464", "127.0.0.1:" + std::to_string(port)}}) {
    const size_t at = cfg.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in the installed config";
    cfg.replace(at, from.size(), to);
  }
  ASSERT_TRUE(testing::writeFile(tmp.file("rdmagw.yaml"), cfg));

  const pid_t pid = fork();
  if (pid == 0) {
    execl(bin.c_str(), bin.c_str(), "run", "--config", tmp.file("rdmagw.yaml").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  struct Guard {
    pid_t pid;
    ~Guard() {
      if (waitpid(pid, nullptr, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
      }
    }
  } guard{pid};
  std::string body;
  const bool scraped = testing::waitUntil(
      [&] {
        body = testing::httpGet("http://127.0.0.1:" + std::to_string(port) + "/metrics");
        // A counter of the simulated host's RDMA port, not a self-metric.
        std::istringstream lines(body);
        for (std::string l; std::getline(lines, l);) {
          if (!l.starts_with("#") && l.find("rdma_port_") != std::string::npos &&
              l.find("target=\"localhost\"") != std::string::npos) {
            return true;
          }
        }
        return false;
      },
      testing::kEventWait, 50ms);
  const auto first_scrape = std::chrono::steady_clock::now() - t0;
  const std::optional<int> stopped = testing::interruptChild(pid);
  ASSERT_TRUE(scraped) << "no series of the simulated host in the scrape:\n" << body.substr(0, 2000);
  std::printf("install (dpkg-deb -x) to first scrape with data: %lld ms\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(first_scrape).count()));
  ASSERT_TRUE(stopped.has_value());
  EXPECT_TRUE(WIFEXITED(*stopped) && WEXITSTATUS(*stopped) == 0);
}

// The commented example of targets.d, uncommented, is a `targets:` list the
// installed binary accepts: the example cannot rot.
TEST_F(PackageTest, TargetsDirSampleUncommentedIsValid) {
  TempDir tmp("rdmagw-pkg-sample");
  const std::string root = extract(tmp);
  CommandResult make = runCommand("(echo 'targets:'; sed -n '/^# - /,$p' " + root +
                                  "/etc/rdmagw/targets.d/example.yaml.sample | sed -E 's/^# ?//') > " +
                                  tmp.file("sample.yaml"));
  ASSERT_EQ(make.exit_code, 0) << make.output;
  CommandResult check = runCommand(root + "/usr/bin/rdmagw check-config " + tmp.file("sample.yaml"));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("OK (3 target(s))"), std::string::npos) << check.output;
}

TEST_F(PackageTest, InstalledUnitVerifiesAndScoresSafe) {
  if (!have("systemd-analyze")) GTEST_SKIP() << "systemd-analyze (Debian package systemd) is not installed";
  TempDir tmp("rdmagw-pkg-unit");
  const std::string root = extract(tmp);
  const std::string unit = root + "/lib/systemd/system/rdmagw.service";
  // --root: ExecStart= and Documentation=man: resolve in the installed tree,
  // which also gets what the package installs onto: the host's systemd
  // targets and kill(1) (ExecReload=).
  CommandResult base = runCommand("mkdir -p " + root + "/bin && cp /usr/bin/kill " + root +
                                  "/bin/kill && cp /lib/systemd/system/*.target " + root + "/lib/systemd/system/");
  ASSERT_EQ(base.exit_code, 0) << base.output;
  CommandResult verify = runCommand("MANPATH=" + root + "/usr/share/man systemd-analyze verify --root=" + root +
                                    " " + unit);
  EXPECT_EQ(verify.exit_code, 0) << verify.output;
  EXPECT_EQ(verify.output, "") << "systemd-analyze verify is not clean";

  CommandResult sec = runCommand("systemd-analyze security --offline=yes --root=" + root + " " + unit);
  std::printf("%s", sec.output.c_str());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(sec.output, m, std::regex("Overall exposure level for rdmagw.service: ([0-9.]+)")))
      << sec.output;
  const double score = std::stod(m[1]);
  std::printf("systemd-analyze security --offline=yes: %.1f\n", score);
  EXPECT_LE(score, 2.0);
}

}  // namespace
}  // namespace rdmagw
