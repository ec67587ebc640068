// The targets_dir: files of targets in the schema of `targets:`, read with
// the main file, every error placed as file:line:col; and what a reload
// would change between two configurations.

#include <gtest/gtest.h>

#include "gateway/config/config.h"
#include "gateway/runtime/target_set_diff.h"
#include "gateway/config/targets_dir.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using testing::TempDir;
using testing::writeFile;

class TargetsDirTest : public ::testing::Test {
 protected:
  std::string main(const std::string& extra = "") {
    const std::string path = tmp_.file("rdmagw.yaml");
    EXPECT_TRUE(writeFile(path, "targets_dir: targets.d\n" + extra +
                                    "targets:\n  - {name: main1, kind: rdma-host}\n"));
    return path;
  }
  std::string dir() {
    const std::string d = tmp_.file("targets.d");
    testing::runCommand("mkdir -p " + d);
    return d;
  }
  TempDir tmp_{"rdmagw-targets-dir"};
};

TEST_F(TargetsDirTest, ReadsListsGroupsAndSingleTargetsInNameOrder) {
  const std::string d = dir();
  ASSERT_TRUE(writeFile(d + "/b-group.yml", "targets:\n  - {name: g1, kind: rdma-host}\n  - {name: g2, kind: rdma-host}\n"));
  ASSERT_TRUE(writeFile(d + "/a-list.yaml", "- name: l1\n  kind: rdma-host\n  interval: 5s\n"));
  ASSERT_TRUE(writeFile(d + "/c-one.yaml", "name: one\nkind: rdma-host\nlabels: {rack: r1}\n"));
  ASSERT_TRUE(writeFile(d + "/d-empty.yaml", "# an example, all commented out\n"));
  ASSERT_TRUE(writeFile(d + "/notes.txt", "not: [yaml"));        // not *.yaml: ignored
  ASSERT_TRUE(writeFile(d + "/.swap.yaml", "not: [yaml"));       // dot file: ignored
  auto cfg = loadConfigFile(main());
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  std::vector<std::string> names;
  for (const TargetConfig& t : cfg->targets) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"main1", "l1", "g1", "g2", "one"}));
  EXPECT_EQ(cfg->targets[1].interval, std::chrono::milliseconds(5000));
  EXPECT_EQ(cfg->targets[1].defined_at, d + "/a-list.yaml:1:3");
  EXPECT_EQ(cfg->target_files.size(), 4u);
}

TEST_F(TargetsDirTest, EveryErrorOfEveryFileIsPlaced) {
  const std::string d = dir();
  ASSERT_TRUE(writeFile(d + "/a.yaml", "- name: x1\n  kind: rdma-host\n  intervall: 5s\n"));
  ASSERT_TRUE(writeFile(d + "/b.yaml", "- name: x2\n  kind: router\n"));
  ASSERT_TRUE(writeFile(d + "/c.yaml", "- name: [broken\n"));
  auto cfg = loadConfigFile(main());
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find(d + "/a.yaml:3:3: targets[0].intervall: unknown key"), std::string::npos) << m;
  EXPECT_NE(m.find(d + "/b.yaml:2:9: targets[0].kind: unknown kind \"router\""), std::string::npos) << m;
  EXPECT_NE(m.find(d + "/c.yaml:"), std::string::npos) << m;
  EXPECT_NE(m.find("YAML syntax error"), std::string::npos) << m;
}

TEST_F(TargetsDirTest, DuplicateNamesAcrossFilesNameBothPlaces) {
  const std::string d = dir();
  ASSERT_TRUE(writeFile(d + "/a.yaml", "- {name: dup, kind: rdma-host}\n"));
  ASSERT_TRUE(writeFile(d + "/b.yaml", "- {name: other, kind: rdma-host}\n- {name: dup, kind: rdma-host}\n"));
  ASSERT_TRUE(writeFile(d + "/c.yaml", "- {name: main1, kind: rdma-host}\n"));
  auto cfg = loadConfigFile(main());
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find(d + "/b.yaml:2:3: name: duplicate target name \"dup\" (also at " + d + "/a.yaml:1:3)"),
            std::string::npos) << m;
  EXPECT_NE(m.find(d + "/c.yaml:1:3: name: duplicate target name \"main1\" (also at " + tmp_.file("rdmagw.yaml") +
                   ":3:5)"), std::string::npos) << m;
}

TEST_F(TargetsDirTest, AMissingDefaultDirIsNoTargetsANamedOneIsAnError) {
  // Only the default may be missing (a fresh install without the package's dir).
  auto plain = parseConfig("targets: []\n", "p.yaml", true);
  ASSERT_TRUE(plain.isOk()) << plain.status().message();
  EXPECT_EQ(plain->targets_dir, kDefaultTargetsDir);
  EXPECT_FALSE(plain->targets_dir_set);
  auto named = loadConfigFile(main());  // targets.d not made
  ASSERT_FALSE(named.isOk());
  EXPECT_NE(named.status().message().find(tmp_.file("rdmagw.yaml") + ":1:14: targets_dir: \"" +
                                          tmp_.file("targets.d") + "\" does not exist"),
            std::string::npos) << named.status().message();
  auto none = parseConfig("targets_dir: \"\"\n", "n.yaml", true);
  ASSERT_TRUE(none.isOk()) << none.status().message();
  EXPECT_TRUE(none->targets.empty());
}

TEST_F(TargetsDirTest, AnalyticsLinksMayNameTargetsOfTheDir) {
  const std::string d = dir();
  ASSERT_TRUE(writeFile(d + "/leaf.yaml", "- {name: leafx, kind: rdma-host}\n"));
  auto ok = loadConfigFile(main("analytics:\n  links:\n    - a: {target: main1, interface: eth0}\n"
                                "      b: {target: leafx, interface: eth1}\n"));
  EXPECT_TRUE(ok.isOk()) << ok.status().message();
  testing::runCommand("rm " + d + "/leaf.yaml");
  auto gone = loadConfigFile(main("analytics:\n  links:\n    - a: {target: main1, interface: eth0}\n"
                                  "      b: {target: leafx, interface: eth1}\n"));
  ASSERT_FALSE(gone.isOk());
  EXPECT_NE(gone.status().message().find("leafx"), std::string::npos) << gone.status().message();
}

TEST(TargetSetDiffTest, MatchesByNameAndComparesEverySetting) {
  auto before = parseConfig(R"(targets:
  - {name: keep, kind: rdma-host, interval: 5s}
  - {name: change, kind: rdma-host, labels: {rack: r1}}
  - {name: drop, kind: rdma-host}
)", "a.yaml");
  auto after = parseConfig(R"(
targets:
  - {name: change, kind: rdma-host, labels: {rack: r2}}
  - {name: add, kind: rdma-host}
  - {name: keep, kind: rdma-host, interval: 5s}
)", "b.yaml");
  ASSERT_TRUE(before.isOk() && after.isOk());
  const TargetSetDiff d = diffTargets(before->targets, after->targets);
  ASSERT_EQ(d.added.size(), 1u);
  EXPECT_EQ(d.added[0].name, "add");
  EXPECT_EQ(d.removed, std::vector<std::string>{"drop"});
  ASSERT_EQ(d.changed.size(), 1u);
  EXPECT_EQ(d.changed[0].name, "change");
  EXPECT_EQ(d.unchanged, 1u);  // "keep" moved lines and files: the same target
  EXPECT_TRUE(diffTargets(after->targets, after->targets).empty());
}

TEST(TargetSetDiffTest, NorthboundsAndLimitsNeedARestartLogLevelAndAnalyticsDoNot) {
  auto before = parseConfig("log_level: info\nmax_concurrent_polls: 8\nnorthbound:\n  prometheus: {listen: "
                            "\"127.0.0.1:9464\"}\n", "a.yaml");
  auto after = parseConfig("# a comment changes nothing\nlog_level: debug\nmax_concurrent_polls: 4\nnorthbound:\n"
                           "  prometheus: {listen: \"127.0.0.1:9465\"}\nanalytics: {period: 5s, window: 1m}\n",
                           "b.yaml");
  ASSERT_TRUE(before.isOk() && after.isOk()) << after.status().message();
  EXPECT_EQ(settingsNeedingRestart(*before, *after),
            (std::vector<std::string>{"max_concurrent_polls", "northbound.prometheus"}));
  EXPECT_TRUE(analyticsChanged(*before, *after));
  EXPECT_TRUE(settingsNeedingRestart(*after, *after).empty());
}

}  // namespace
}  // namespace rdmagw::gateway
