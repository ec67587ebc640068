// What `rdmagw check roce` makes of check leaves, without a gateway: the
// groups summed over targets, the findings in order, the exit status, and
// the text and JSON it prints.

#include "gateway/cli/roce_check_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gateway/cli/gateway_gnmi_client.h"
#include "northbound/gnmi/fleet_get.h"

namespace rdmagw::gateway {
namespace {

CheckLeaf leaf(const std::string& target, const std::string& path, const std::string& value) {
  Result<Path> p = Path::parse(path);
  EXPECT_TRUE(p.isOk()) << path;
  return CheckLeaf{target, p.isOk() ? *p : Path(), value};
}

// The five leaves of one group on one target, as the analytics write them.
void addGroup(std::vector<CheckLeaf>* out, const std::string& target, const std::string& group, int checked,
              int failed, int warned) {
  const std::string base = "/fabric/checks/roce/groups/group[name=" + group + "]/state/";
  const char* status = failed ? "FAIL" : warned ? "WARN" : "PASS";
  out->push_back(leaf(target, base + "checked", std::to_string(checked)));
  out->push_back(leaf(target, base + "failed", std::to_string(failed)));
  out->push_back(leaf(target, base + "warned", std::to_string(warned)));
  out->push_back(leaf(target, base + "status", status));
  out->push_back(leaf(target, base + "status-code", std::to_string(failed ? 2 : warned ? 1 : 0)));
}

void addFinding(std::vector<CheckLeaf>* out, const std::string& target, const std::string& group,
                const std::string& severity, const std::string& port, const std::string& check,
                const std::string& expected, const std::string& found) {
  const std::string id = group + "/" + check + "/" + port;
  std::string base = "/fabric/checks/roce/findings/finding[id=";
  appendEscapedKeyValue(&base, id);
  base += "]/state/";
  out->push_back(leaf(target, base + "group", group));
  out->push_back(leaf(target, base + "severity", severity));
  out->push_back(leaf(target, base + "port", port));
  out->push_back(leaf(target, base + "check", check));
  out->push_back(leaf(target, base + "expected", expected));
  out->push_back(leaf(target, base + "found", found));
}

// Every group on three targets: leaf01 without pause on the RoCE CoS of one
// port, host02 with its CNP DSCP in a lossy queue (a warning), the rest clean.
std::vector<CheckLeaf> fabric() {
  std::vector<CheckLeaf> l;
  for (const std::string& g : kRoceCheckGroups) {
    if (g == "gpu") continue;  // written only for hosts whose GPUs are collected: none here
    addGroup(&l, "host01", g, 2, 0, 0);
    addGroup(&l, "host02", g, 3, 0, g == "classification" ? 1 : 0);
    addGroup(&l, "leaf01", g, 10, g == "lossless" ? 1 : 0, 0);
  }
  addFinding(&l, "leaf01", "lossless", "FAIL", "Ethernet1/2", "pfc-not-on-roce-priority", "pause on CoS 3",
             "pause-cos {}");
  addFinding(&l, "host02", "classification", "WARN", "ens1f0np0", "cnp-dscp-lossy-queue",
             "DSCP 48 in a strict queue", "DSCP 48 -> qos-group 0 (bandwidth 50%)");
  // Leaves of another subtree are not the roce check's.
  l.push_back(leaf("leaf01", "/fabric/interfaces/interface[name=Ethernet1/2]/dcb/state/consistency", "mismatch"));
  return l;
}

const RoceCheckGroup* find(const RoceCheckReport& r, const std::string& name) {
  for (const RoceCheckGroup& g : r.groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

TEST(RoceCheckReportTest, SumsEveryGroupOverTargetsInTheFixedOrder) {
  const RoceCheckReport r = aggregateRoceChecks(fabric());
  EXPECT_EQ(r.targets, 3);
  ASSERT_EQ(r.groups.size(), 6u);
  for (size_t i = 0; i < r.groups.size(); ++i) {
    EXPECT_EQ(r.groups[i].name, kRoceCheckGroups[i]);
    EXPECT_EQ(r.groups[i].number, static_cast<int>(i) + 1);
    EXPECT_EQ(r.groups[i].checked, 15u) << r.groups[i].name;
    EXPECT_EQ(r.groups[i].targets, 3) << r.groups[i].name;
  }
  EXPECT_EQ(r.groups[0].failed, 1u);
  EXPECT_EQ(r.groups[0].status, "FAIL");
  EXPECT_EQ(r.groups[1].warned, 1u);
  EXPECT_EQ(r.groups[1].status, "WARN");
  EXPECT_EQ(r.groups[2].status, "PASS");
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].target, "leaf01");
  EXPECT_EQ(r.findings[0].port, "Ethernet1/2");
  EXPECT_EQ(r.findings[0].found, "pause-cos {}");
  EXPECT_EQ(r.findings[1].group, "classification");
  EXPECT_EQ(roceCheckExitCode(r), 1);
}

TEST(RoceCheckReportTest, ExitStatusPassWarnFailAndNothingChecked) {
  std::vector<CheckLeaf> clean;
  addGroup(&clean, "host01", "lossless", 4, 0, 0);
  EXPECT_EQ(roceCheckExitCode(aggregateRoceChecks(clean)), 0);
  addGroup(&clean, "host02", "ets", 4, 0, 2);
  EXPECT_EQ(roceCheckExitCode(aggregateRoceChecks(clean)), 0) << "warnings do not fail";
  addGroup(&clean, "leaf01", "ets", 4, 1, 0);
  EXPECT_EQ(roceCheckExitCode(aggregateRoceChecks(clean)), 1);
  EXPECT_EQ(roceCheckExitCode(aggregateRoceChecks({})), 2);
  // Leaves, none of them a check result: nothing was checked.
  std::vector<CheckLeaf> other{leaf("leaf01", "/fabric/interfaces/interface[name=e1]/dcb/state/mtu", "9216")};
  EXPECT_EQ(roceCheckExitCode(aggregateRoceChecks(other)), 2);
}

TEST(RoceCheckReportTest, OneTargetsFailStatusIsNotHiddenByTheSums) {
  // A target that says FAIL with counts that do not (written between two
  // leaves), and a finding whose group has no summary: both fail the group.
  std::vector<CheckLeaf> l;
  addGroup(&l, "host01", "ets", 3, 0, 0);
  l.push_back(leaf("host02", "/fabric/checks/roce/groups/group[name=ets]/state/status-code", "2"));
  addFinding(&l, "leaf02", "flow-control", "FAIL", "", "watchdog-off", "watch-dog-interval on", "off");
  const RoceCheckReport r = aggregateRoceChecks(l);
  ASSERT_NE(find(r, "ets"), nullptr);
  EXPECT_EQ(find(r, "ets")->status, "FAIL");
  EXPECT_EQ(find(r, "ets")->failed, 0u);
  ASSERT_NE(find(r, "flow-control"), nullptr);
  EXPECT_EQ(find(r, "flow-control")->status, "FAIL");
  EXPECT_EQ(r.groups[0].name, "flow-control");  // 4 before 5
  EXPECT_EQ(roceCheckExitCode(r), 1);
}

TEST(RoceCheckReportTest, FindingNamesItsGroupAndCheckThroughItsId) {
  std::vector<CheckLeaf> l;
  l.push_back(leaf("leaf01",
                   "/fabric/checks/roce/findings/finding[id=congestion-control/ecn-off/Ethernet1/5]/state/severity",
                   "FAIL"));
  const RoceCheckReport r = aggregateRoceChecks(l);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].group, "congestion-control");
  EXPECT_EQ(r.findings[0].check, "ecn-off");
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].status, "FAIL");
}

TEST(RoceCheckReportTest, OneGroupByNumberOrName) {
  EXPECT_EQ(*roceCheckGroupArg("1"), "lossless");
  EXPECT_EQ(*roceCheckGroupArg("6"), "live");
  EXPECT_EQ(*roceCheckGroupArg("7"), "gpu");
  EXPECT_EQ(*roceCheckGroupArg("ets"), "ets");
  for (const char* bad : {"0", "8", "", "lossy", "-1", "2x"}) {
    Result<std::string> g = roceCheckGroupArg(bad);
    ASSERT_FALSE(g.isOk()) << bad;
    EXPECT_NE(g.status().message().find("3 congestion-control"), std::string::npos) << g.status().message();
  }
  const RoceCheckReport r = aggregateRoceChecks(fabric(), "classification");
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].name, "classification");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].check, "cnp-dscp-lossy-queue");
  EXPECT_EQ(roceCheckExitCode(r), 0) << "its one warning does not fail";
  EXPECT_TRUE(aggregateRoceChecks(fabric(), "no-such-group").groups.empty());
}

TEST(RoceCheckReportTest, TextHasASummaryLinePerGroupThenEachFinding) {
  const std::string text = formatRoceCheckText(aggregateRoceChecks(fabric()));
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_GE(lines.size(), 17u) << text;
  EXPECT_EQ(lines[0], "RoCE check: FAIL (3 targets)");
  // "#  GROUP  CHECKED  FAILED  WARNED  RESULT", one line per group.
  auto cells = [](const std::string& line) {
    std::istringstream s(line);
    std::vector<std::string> out;
    for (std::string c; s >> c;) out.push_back(c);
    return out;
  };
  EXPECT_EQ(cells(lines[2]), (std::vector<std::string>{"#", "GROUP", "CHECKED", "FAILED", "WARNED", "RESULT"}));
  EXPECT_EQ(cells(lines[3]), (std::vector<std::string>{"1", "lossless", "15", "1", "0", "FAIL"}));
  EXPECT_EQ(cells(lines[4]), (std::vector<std::string>{"2", "classification", "15", "0", "1", "WARN"}));
  EXPECT_EQ(cells(lines[8]), (std::vector<std::string>{"6", "live", "15", "0", "0", "PASS"}));
  EXPECT_EQ(lines[10], "Failures and warnings");
  EXPECT_EQ(cells(lines[11]),
            (std::vector<std::string>{"FAIL", "lossless", "leaf01", "Ethernet1/2", "pfc-not-on-roce-priority"}));
  EXPECT_EQ(lines[12], "      expected: pause on CoS 3");
  EXPECT_EQ(lines[13], "      found:    pause-cos {}");
  EXPECT_EQ(cells(lines[14]),
            (std::vector<std::string>{"WARN", "classification", "host02", "ens1f0np0", "cnp-dscp-lossy-queue"}));
  EXPECT_EQ(lines[16], "      found:    DSCP 48 -> qos-group 0 (bandwidth 50%)");

  // All clean: the summary alone, no findings section.
  std::vector<CheckLeaf> clean;
  addGroup(&clean, "host01", "lossless", 1, 0, 0);
  const std::string pass = formatRoceCheckText(aggregateRoceChecks(clean));
  EXPECT_EQ(pass.rfind("RoCE check: PASS (1 target)\n", 0), 0u) << pass;
  EXPECT_EQ(pass.find("Failures"), std::string::npos) << pass;
}

TEST(RoceCheckReportTest, JsonSaysTheSame) {
  const nlohmann::json j = nlohmann::json::parse(formatRoceCheckJson(aggregateRoceChecks(fabric())));
  EXPECT_EQ(j["result"], "FAIL");
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["targets"], 3);
  ASSERT_EQ(j["groups"].size(), 6u);
  EXPECT_EQ(j["groups"][0], (nlohmann::json{{"number", 1}, {"name", "lossless"}, {"checked", 15}, {"failed", 1},
                                            {"warned", 0}, {"status", "FAIL"}, {"targets", 3}}));
  ASSERT_EQ(j["findings"].size(), 2u);
  EXPECT_EQ(j["findings"][1], (nlohmann::json{{"target", "host02"},
                                              {"group", "classification"},
                                              {"severity", "WARN"},
                                              {"port", "ens1f0np0"},
                                              {"check", "cnp-dscp-lossy-queue"},
                                              {"expected", "DSCP 48 in a strict queue"},
                                              {"found", "DSCP 48 -> qos-group 0 (bandwidth 50%)"}}));
  // A value that is not UTF-8 (it came from a device) still makes valid JSON.
  std::vector<CheckLeaf> odd;
  addFinding(&odd, "sw\xff", "ets", "WARN", "", "ets-zero", "> 0 %", "0 %\x01");
  nlohmann::json w;
  EXPECT_NO_THROW(w = nlohmann::json::parse(formatRoceCheckJson(aggregateRoceChecks(odd))));
  EXPECT_EQ(w["result"], "WARN");
  EXPECT_EQ(w["exit_code"], 0);
  EXPECT_EQ(w["findings"][0]["port"], "");
}

TEST(RoceCheckReportTest, AFleetMemberThatDidNotAnswerMakesAPassingReportIncomplete) {
  // The notice as the member asked writes it for a silent member.
  ::gnmi::GetResponse resp;
  *resp.add_notification() = northbound::gnmi::missingMemberNotification("m2", "UNAVAILABLE: connection refused");
  ::gnmi::Notification* data = resp.add_notification();
  data->mutable_prefix()->set_target("leaf01");
  data->add_update()->mutable_path()->add_elem()->set_name("fabric");
  EXPECT_TRUE(isMissingMemberNotice(resp.notification(0)));
  EXPECT_FALSE(isMissingMemberNotice(resp.notification(1)));
  const std::vector<MissingMember> missing = missingMembers(resp);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].member, "m2");
  EXPECT_EQ(missing[0].error, "UNAVAILABLE: connection refused");

  std::vector<CheckLeaf> clean;
  addGroup(&clean, "host01", "lossless", 4, 0, 0);
  RoceCheckReport r = aggregateRoceChecks(clean);
  r.missing_members = missing;
  EXPECT_EQ(roceCheckExitCode(r), 2) << "a pass on part of the fleet is no pass";
  const std::string text = formatRoceCheckText(r);
  EXPECT_NE(text.find("RoCE check: INCOMPLETE"), std::string::npos) << text;
  EXPECT_NE(text.find("fleet member m2 did not answer, its targets are not checked: UNAVAILABLE: connection refused"),
            std::string::npos)
      << text;
  const nlohmann::json j = nlohmann::json::parse(formatRoceCheckJson(r));
  EXPECT_EQ(j["result"], "INCOMPLETE");
  EXPECT_EQ(j["exit_code"], 2);
  ASSERT_EQ(j["missing_members"].size(), 1u);
  EXPECT_EQ(j["missing_members"][0]["member"], "m2");

  // What the live members hold can still fail the check.
  addGroup(&clean, "leaf01", "ets", 4, 1, 0);
  RoceCheckReport failed = aggregateRoceChecks(clean);
  failed.missing_members = missing;
  EXPECT_EQ(roceCheckExitCode(failed), 1);
  EXPECT_EQ(nlohmann::json::parse(formatRoceCheckJson(failed))["result"], "FAIL");
}

}  // namespace
}  // namespace rdmagw::gateway
