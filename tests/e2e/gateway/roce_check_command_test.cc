// `rdmagw check roce` (the real binary) against the real gNMI server over a
// store filled by hand with the check leaves the analytics write
// (/fabric/checks/roce/...): the summary must be the sums of the store's
// leaves, the findings the store's findings, the exit status 0 / 1 / 2.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/path.h"
#include "models/store.h"
#include "models/update.h"
#include "northbound/gnmi/gnmi_server.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

const std::vector<std::string> kGroups = {"lossless", "classification", "congestion-control",
                                          "flow-control", "ets", "live"};

testing::CommandResult check(const std::string& args) {
  return testing::runCommand(std::string(RDMAGW_BIN) + " check roce " + args);
}

// stdout alone: what a script would parse, without whatever gRPC logs.
testing::CommandResult checkStdout(const std::string& args) {
  return testing::runCommand("{ " + std::string(RDMAGW_BIN) + " check roce " + args + " 2>/dev/null; }");
}

class RoceCheckCommandTest : public ::testing::Test {
 protected:
  void group(const std::string& target, const std::string& name, uint64_t checked, uint64_t failed,
             uint64_t warned) {
    const std::string base = "/fabric/checks/roce/groups/group[name=" + name + "]/state/";
    const uint64_t code = failed ? 2 : warned ? 1 : 0;
    apply(target, {{base + "checked", checked},
                   {base + "failed", failed},
                   {base + "warned", warned},
                   {base + "status", std::string(code == 2 ? "FAIL" : code == 1 ? "WARN" : "PASS")},
                   {base + "status-code", code}});
  }

  void finding(const std::string& target, const std::string& group, const std::string& severity,
               const std::string& port, const std::string& check, const std::string& expected,
               const std::string& found) {
    std::string base = "/fabric/checks/roce/findings/finding[id=";
    appendEscapedKeyValue(&base, group + "/" + check + "/" + port);
    base += "]/state/";
    apply(target, {{base + "group", group},
                   {base + "severity", severity},
                   {base + "port", port},
                   {base + "check", check},
                   {base + "expected", expected},
                   {base + "found", found}});
  }

  void apply(const std::string& target, const std::vector<std::pair<std::string, Value>>& leaves) {
    std::vector<Update> batch;
    for (const auto& [path, value] : leaves) batch.push_back(Update{path, value, 1, {}});
    const Store::ApplyResult r = store_.apply(target, batch);
    ASSERT_EQ(r.rejected, 0u) << r.first_error;
  }

  void startServer() {
    northbound::gnmi::GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    server_ = std::make_unique<northbound::gnmi::GnmiServer>(store_, c);
    Status st = server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
  }

  std::string at() const { return "--address " + server_->address() + " --insecure "; }

  Store store_;
  std::unique_ptr<northbound::gnmi::GnmiServer> server_;
};

TEST_F(RoceCheckCommandTest, PrintsTheSumsAndFindingsTheStoreHolds) {
  // Two hosts and a switch; the switch does not pause the RoCE CoS on one
  // port, and host02's CNPs land in a lossy queue (a warning).
  for (const std::string& g : kGroups) {
    group("host01", g, 2, 0, 0);
    group("host02", g, 3, 0, g == "classification" ? 1 : 0);
    group("leaf01", g, 7, g == "lossless" ? 1 : 0, 0);
  }
  finding("leaf01", "lossless", "FAIL", "Ethernet1/2", "pfc-not-on-roce-priority", "pause on CoS 3",
          "pause-cos {}");
  finding("host02", "classification", "WARN", "ens1f0np0", "cnp-dscp-lossy-queue", "DSCP 48 in a strict queue",
          "DSCP 48 -> qos-group 0");
  // Other fabric leaves beside them are not the check's.
  apply("leaf01", {{"/fabric/interfaces/interface[name=Ethernet1/2]/dcb/state/consistency", std::string("mismatch")}});
  startServer();

  testing::CommandResult r = checkStdout(at());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("RoCE check: FAIL (3 targets)\n", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("1  lossless                 12       1       0  FAIL\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2  classification           12       0       1  WARN\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("6  live                     12       0       0  PASS\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("leaf01  Ethernet1/2  pfc-not-on-roce-priority\n"
                          "      expected: pause on CoS 3\n"
                          "      found:    pause-cos {}\n"),
            std::string::npos)
      << r.output;

  testing::CommandResult j = checkStdout(at() + "--json");
  EXPECT_EQ(j.exit_code, 1) << j.output;
  const nlohmann::json doc = nlohmann::json::parse(j.output);
  EXPECT_EQ(doc["result"], "FAIL");
  EXPECT_EQ(doc["targets"], 3);
  ASSERT_EQ(doc["groups"].size(), 6u);
  for (size_t i = 0; i < kGroups.size(); ++i) {
    EXPECT_EQ(doc["groups"][i]["name"], kGroups[i]);
    EXPECT_EQ(doc["groups"][i]["checked"], 12);
  }
  ASSERT_EQ(doc["findings"].size(), 2u);
  EXPECT_EQ(doc["findings"][0]["target"], "leaf01");
  EXPECT_EQ(doc["findings"][1]["found"], "DSCP 48 -> qos-group 0");

  // One group: its warning alone passes, by number or by name.
  testing::CommandResult two = checkStdout(at() + "--group 2");
  EXPECT_EQ(two.exit_code, 0) << two.output;
  EXPECT_EQ(two.output.find("lossless"), std::string::npos) << two.output;
  EXPECT_NE(two.output.find("cnp-dscp-lossy-queue"), std::string::npos) << two.output;
  EXPECT_EQ(checkStdout(at() + "--group lossless").exit_code, 1);
  EXPECT_EQ(checkStdout(at() + "--group=live --json").exit_code, 0);

  // The switch is fixed: its finding goes, its counts clear; all pass.
  ASSERT_EQ(store_.remove("leaf01", *Path::parse("/fabric/checks/roce/findings")), 6u);
  group("leaf01", "lossless", 7, 0, 0);
  testing::CommandResult fixed = checkStdout(at());
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_EQ(fixed.output.rfind("RoCE check: WARN (3 targets)\n", 0), 0u) << fixed.output;
}

TEST_F(RoceCheckCommandTest, CannotCheckIsExitTwo) {
  // A gateway with fabric verdicts but no check results (an analytics
  // without the check, or before its first run).
  apply("leaf01", {{"/fabric/interfaces/interface[name=Ethernet1/2]/dcb/state/consistency", std::string("mismatch")}});
  startServer();
  testing::CommandResult none = check(at());
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("holds no check results"), std::string::npos) << none.output;
  // Check leaves, none of the asked group.
  group("host01", "ets", 1, 0, 0);
  testing::CommandResult other = check(at() + "--group 1");
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find("no RoCE check group named lossless"), std::string::npos) << other.output;

  const int port = testing::freeLoopbackPort();
  ASSERT_NE(port, 0);
  const std::string down = "--address 127.0.0.1:" + std::to_string(port) + " --insecure --timeout 2s";
  testing::CommandResult unreachable = check(down);
  EXPECT_EQ(unreachable.exit_code, 2) << unreachable.output;
  EXPECT_NE(unreachable.output.find("gNMI Get from 127.0.0.1:" + std::to_string(port) + " failed"),
            std::string::npos)
      << unreachable.output;
  // --json: still one JSON object on stdout.
  testing::CommandResult json = checkStdout(down + " --json");
  EXPECT_EQ(json.exit_code, 2) << json.output;
  const nlohmann::json doc = nlohmann::json::parse(json.output);
  EXPECT_EQ(doc["result"], "UNKNOWN");
  EXPECT_EQ(doc["exit_code"], 2);
  EXPECT_NE(doc["error"].get<std::string>().find("failed"), std::string::npos);

  // TLS by default: a plain-text server does not answer a TLS client.
  EXPECT_EQ(check("--address " + server_->address() + " --skip-verify --timeout 2s").exit_code, 2);
}

TEST_F(RoceCheckCommandTest, HelpAndUsageErrors) {
  testing::CommandResult help = checkStdout("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.output.rfind("usage: rdmagw check roce", 0), 0u) << help.output;
  for (const char* opt : {"--address", "--json", "--group", "--insecure", "--ca-file", "--password-env"}) {
    EXPECT_NE(help.output.find(opt), std::string::npos) << opt;
  }
  EXPECT_EQ(check("--group 7").exit_code, 2);
  EXPECT_EQ(check("--group").exit_code, 2);
  EXPECT_EQ(check("--insecure --ca-file /x.pem").exit_code, 2);
  EXPECT_EQ(check("--timeout soon").exit_code, 2);
  EXPECT_EQ(check("--address nohost").exit_code, 2);
  EXPECT_EQ(testing::runCommand(std::string(RDMAGW_BIN) + " check").exit_code, 2);
  testing::CommandResult unknown = testing::runCommand(std::string(RDMAGW_BIN) + " check bgp");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("unknown check 'bgp'"), std::string::npos) << unknown.output;
}

}  // namespace
}  // namespace rdmagw::gateway
