// `rdmagw check roce` end to end: the real `rdmagw run` collects a simulated
// fabric (Linux hosts as sysfs trees, Nexus leaves and an ESXi host behind a
// real sshd, so that `show running-config ipqos` and esxcli are read as in
// production), its analytics judge the RoCE configuration, and the real
// `rdmagw check roce --json` reads the verdict over the gateway's gNMI
// server. The simulator runs in this process, so each misconfiguration
// (sim/scenario.h) is switched on and off while the gateway runs:
//   - a calm fabric passes every group, with items checked in each
//     configuration group;
//   - each scenario fails exactly its group (warns, for a watchdog that
//     shut a queue with no storm and for a leaf whose ECN thresholds differ
//     from the others'), on exactly the device and port the
//     simulator says it touched (Fabric::scenarioTarget), and nothing else
//     is flagged;
//   - once the scenario stops, everything passes again.
// A variant fabric carries RoCE on priority 5 and CNPs on 6 (a recorded
// N93180FX2 plan): the checks follow each device's configuration, not a
// fixed priority. One Linux host has NVIDIA's mlnx_qos and no dcb: it
// passes as the dcb one does. In one bed host01 is read over SSH (the remote
// dump) rather than locally, and its scenarios land on it all the same. In
// another the leaves are read over NX-API (the simulated switch's HTTPS
// server, SSH behind it), so their configuration and watchdog verdicts come
// through that transport's envelopes.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "gateway/config/config.h"
#include "gateway/demo/demo_config.h"
#include "sim/device_shell.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_tls.h"
#include "sim/linux_host_shell.h"
#include "sim/nxapi/nxapi_server.h"
#include "sim/scenario.h"
#include "sim/sim_runner.h"
#include "sim/sshd_launcher.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using std::chrono::milliseconds;
using sim::ScenarioKind;

constexpr const char* kConfigGroups[] = {"lossless", "classification", "congestion-control", "flow-control", "ets"};
constexpr const char* kAllGroups[] = {"lossless", "classification", "congestion-control", "flow-control", "ets",
                                      "live"};

// The one group each misconfiguration disproves.
std::string expectedGroup(ScenarioKind kind) {
  switch (kind) {
    case ScenarioKind::kTrustMismatch: return "classification";  // host trusts PCP, its leaf classifies by DSCP
    case ScenarioKind::kCnpLossy: return "classification";       // CNP DSCP falls to the lossy class-default
    case ScenarioKind::kEcnOff: return "congestion-control";     // no ECN marking on the RoCE queue
    case ScenarioKind::kPauseCosMissing: return "lossless";      // the RoCE class pauses nothing
    case ScenarioKind::kRoceEtsZero: return "ets";               // RoCE TC at 0 %
    case ScenarioKind::kStrictStarve: return "ets";              // strict TCs above RoCE
    case ScenarioKind::kWatchdogOff: return "flow-control";      // PFC watchdog off on the port
    case ScenarioKind::kMtuSmall: return "flow-control";         // switch port MTU under the host's
    case ScenarioKind::kPfcLossyPrio: return "lossless";         // PFC frames on a priority nobody pauses
    case ScenarioKind::kWatchdogFalseTrip: return "flow-control";  // the watchdog shut a queue with no storm
    case ScenarioKind::kEcnLate: return "congestion-control";      // ECN thresholds unlike the other leaves'
    default: return "";
  }
}

// What the group shows: a watchdog shutting a queue without a storm, and a
// leaf marking unlike the others, are warnings (exit 0: only failures fail a
// bring-up script); every other misconfiguration a failure.
std::string expectedSeverity(ScenarioKind kind) {
  return kind == ScenarioKind::kWatchdogFalseTrip || kind == ScenarioKind::kEcnLate ? "WARN" : "FAIL";
}

// Where a finding must show: the device and port the simulator touched.
struct Where {
  std::string target, port;  // port "" for a device-wide finding
};

// Fabric::scenarioTarget's words as a finding names them: "leaf01" (device-
// wide), "leaf01 Ethernet1/1" (a switch port), "host01:mlx5_0 (ens1f0np0)"
// (a host NIC: the netdev is the port).
Where whereOf(const std::string& said) {
  const size_t colon = said.find(':');
  if (colon != std::string::npos) {
    const size_t open = said.find('('), close = said.find(')');
    return {said.substr(0, colon), open == std::string::npos ? said.substr(colon + 1)
                                                             : said.substr(open + 1, close - open - 1)};
  }
  const size_t space = said.find(' ');
  if (space == std::string::npos) return {said, ""};
  return {said.substr(0, space), said.substr(space + 1)};
}

// One run of `rdmagw check roce --json`.
struct CheckRun {
  int exit_code = -1;
  std::string output;
  nlohmann::json doc;  // null when stdout held no JSON

  std::string findings() const {
    std::string out;
    if (!doc.is_object() || !doc.contains("findings")) return "  (no findings)\n";
    for (const auto& f : doc["findings"]) {
      out += "  " + f.value("severity", "") + " " + f.value("group", "") + " " + f.value("target", "") + " [" +
             f.value("port", "") + "] " + f.value("check", "") + ": expected " + f.value("expected", "") +
             "; found " + f.value("found", "") + "\n";
    }
    return out.empty() ? "  (no findings)\n" : out;
  }
  std::string groups() const {
    std::string out;
    if (!doc.is_object() || !doc.contains("groups")) return "  (no groups)\n";
    for (const auto& g : doc["groups"]) {
      out += "  " + g.value("name", "") + ": " + g.value("status", "") + " checked " +
             std::to_string(g.value("checked", 0)) + " failed " + std::to_string(g.value("failed", 0)) + " warned " +
             std::to_string(g.value("warned", 0)) + "\n";
    }
    return out.empty() ? "  (no groups)\n" : out;
  }
  std::string show() const {
    return "exit " + std::to_string(exit_code) + "\ngroups:\n" + groups() + "findings:\n" + findings() +
           (doc.is_null() ? "output:\n" + output : "");
  }
  const nlohmann::json* group(const std::string& name) const {
    if (!doc.is_object() || !doc.contains("groups")) return nullptr;
    for (const auto& g : doc["groups"]) {
      if (g.value("name", "") == name) return &g;
    }
    return nullptr;
  }
};

// Every group PASS, no finding, exit 0; with `counted`, items checked in
// every configuration group too. Why not, in `why`.
bool allPass(const CheckRun& r, bool counted, std::string* why) {
  why->clear();
  if (r.exit_code != 0) *why += "exit " + std::to_string(r.exit_code) + "; ";
  for (const char* name : kAllGroups) {
    const nlohmann::json* g = r.group(name);
    if (g == nullptr) {
      *why += std::string("no group ") + name + "; ";
      continue;
    }
    if (g->value("status", "") != "PASS") *why += std::string(name) + " " + g->value("status", "") + "; ";
  }
  if (counted) {
    for (const char* name : kConfigGroups) {
      const nlohmann::json* g = r.group(name);
      if (g != nullptr && g->value("checked", 0) == 0) *why += std::string(name) + " checked nothing; ";
    }
  }
  if (r.doc.is_object() && r.doc.contains("findings") && !r.doc["findings"].empty()) *why += "findings; ";
  return why->empty();
}

// `group` at `severity` (exit 1 for FAIL, 0 for WARN) and every other
// group PASS, and every finding in `group` on exactly `where` (a FAIL may
// bring a WARN of its own on the same port: roce-ets-zero's share also
// differs from the switch's).
bool onlyThisFails(const CheckRun& r, const std::string& group, const std::string& severity, const Where& where,
                   std::string* why) {
  why->clear();
  const int want_exit = severity == "FAIL" ? 1 : 0;
  if (r.exit_code != want_exit) *why += "exit " + std::to_string(r.exit_code) + "; ";
  for (const char* name : kAllGroups) {
    const nlohmann::json* g = r.group(name);
    if (g == nullptr) {
      *why += std::string("no group ") + name + "; ";
      continue;
    }
    const std::string want = name == group ? severity : "PASS";
    if (g->value("status", "") != want) *why += std::string(name) + " " + g->value("status", "") + "; ";
  }
  if (!r.doc.is_object() || !r.doc.contains("findings") || r.doc["findings"].empty()) {
    *why += "no findings; ";
    return false;
  }
  for (const auto& f : r.doc["findings"]) {
    if (f.value("group", "") != group || f.value("target", "") != where.target || f.value("port", "") != where.port) {
      *why += "finding elsewhere (" + f.value("group", "") + " " + f.value("target", "") + " [" +
              f.value("port", "") + "] " + f.value("check", "") + "); ";
    }
  }
  return why->empty();
}

struct BedParam {
  std::string name;
  int roce_priority = 3;
  int cnp_priority = -1;
  std::vector<ScenarioKind> scenarios;
  int switches = 2;  // host ports alternate leaves: the others must stay clean
  int devices_per_host = 2;
  // host01 read over SSH in the remote dump's one round trip (its ethtool,
  // dcb and mlnx_qos the simulator's, sim/linux_host_shell.h), not locally.
  bool remote_host01 = false;
  // The leaves read over NX-API first ([nxapi, ssh]), not over SSH alone.
  bool nxapi_leaves = false;
};

// Names the bed in ctest's and gtest's listings (not a dump of its bytes).
void PrintTo(const BedParam& p, std::ostream* os) { *os << p.name; }

class RoceCheckScenarioTest : public ::testing::TestWithParam<BedParam> {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "the simulated switches' sshd needs root";
    fabric_.hosts = 2;
    fabric_.devices_per_host = GetParam().devices_per_host;
    fabric_.switches = GetParam().switches;
    fabric_.esxi_hosts = 1;
    fabric_.mlnx_qos_hosts = 1;  // host02 shows its DCB through mlnx_qos, host01 through dcb
    fabric_.calm = true;
    fabric_.roce_priority = GetParam().roce_priority;
    fabric_.cnp_priority = GetParam().cnp_priority;
    ASSERT_TRUE(fabric_.validate().isOk()) << fabric_.validate().message();
    // A tick is a simulated second of pause durations: only a 1 s period
    // keeps paused ratios true against the collection times.
    sim_ = std::make_unique<sim::SimRunner>(fabric_, sim_dir_, milliseconds(1000));
    ASSERT_TRUE(sim_->start().isOk());
    GatewayConfig ssh;
    Status st = addSimSshDevices(sim_dir_, milliseconds(1000), sshd_, ssh);
    if (!st.isOk()) GTEST_SKIP() << st.message();

    // Everything polled every second; the hosts' configuration re-read every
    // second too (its production default is a minute), so that a scenario
    // shows within seconds. The leaves read `show running-config ipqos` on
    // every 10th poll: ten seconds here.
    std::string yaml = "admin_socket: off\nnorthbound:\n  gnmi: {listen: \"127.0.0.1:" +
                       std::to_string(testing::freeLoopbackPort()) + "\", insecure: true}\n";
    yaml += "analytics:\n  period: 1s\n  window: 10s\n  no_drop_priorities: [" +
            std::to_string(fabric_.roce_priority) + "]\n  pause_storm: {for: 5s}\n";
    yaml += "targets:\n";
    const sim::Fabric shape(fabric_);
    for (const sim::Host& h : shape.hosts()) {
      yaml += "- name: " + h.name + "\n  kind: rdma-host\n  interval: 1s\n";
      if (GetParam().remote_host01 && h.name == "host01") {
        ASSERT_FALSE(ssh.targets.empty());
        const std::string shell = sim::defaultShellPath();
        ASSERT_TRUE(sim::installLinuxHostShims(sim_dir_ + "/" + h.name, shell).isOk());
        Result<sim::ClientKey> key = sshd_.addDevice(h.name, shell + " --dir " + sim_dir_ + " --device " + h.name);
        ASSERT_TRUE(key.isOk()) << key.status().message();
        yaml += "  transport: ssh\n  address: 127.0.0.1\n  credentials: {username: root, key_file: " +
                key->private_key_file + "}\n  ssh: {port: " + std::to_string(sshd_.port()) +
                ", known_hosts: " + ssh.targets.front().ssh.known_hosts_file + "}\n  rdma:\n    sysfs_root: " +
                sim_dir_ + "/" + h.name + "/sys\n    lldp: off\n    config_interval: 1s\n";
        continue;
      }
      yaml += "  rdma:\n    sysfs_root: " + sim_dir_ + "/" + h.name + "/sys\n    ethtool: text\n    ethtool_dir: " +
              sim_dir_ + "/" + h.name + "/ethtool\n    lldp: off\n    config_interval: 1s\n";
    }
    size_t cli = 0;
    for (const TargetConfig& t : ssh.targets) {
      ++cli;
      if (GetParam().nxapi_leaves && t.kind == "nexus") {
        yaml += nxapiLeaf(t);
        continue;
      }
      yaml += "- name: " + t.name + "\n  kind: " + t.kind + "\n  transport: ssh\n  address: 127.0.0.1\n" +
              "  interval: 1s\n  credentials: {username: root, key_file: " + t.ssh.key_file + "}\n" +
              "  ssh: {port: " + std::to_string(t.ssh.port) + ", known_hosts: " + t.ssh.known_hosts_file + "}\n";
    }
    ASSERT_EQ(cli, size_t(fabric_.switches + fabric_.esxi_hosts));
    const std::string cfg = dir_ + "/gateway.yaml";
    ASSERT_TRUE(testing::writeFile(cfg, yaml));
    gnmi_ = yaml.substr(yaml.find("127.0.0.1:"), yaml.find('"', yaml.find("127.0.0.1:")) - yaml.find("127.0.0.1:"));
    pid_ = testing::spawnLogged({RDMAGW_BIN, "run", "--config", cfg, "--log-level", "warn"}, dir_ + "/gateway.log");
    ASSERT_GT(pid_, 0);
  }

  // A leaf's target over NX-API with SSH behind it: its own HTTPS server on
  // the simulated switch's rendered CLI, a password from a file.
  std::string nxapiLeaf(const TargetConfig& t) {
    if (tls_.dir.empty()) {
      EXPECT_TRUE(sim::generateGnmiTlsFiles(&tls_).isOk());
      EXPECT_TRUE(testing::writeFile(dir_ + "/nxapi-password", "roce-check-nxapi\n"));
    }
    sim::NxapiServerOptions o;
    o.device_dir = sim_dir_ + "/" + t.name;
    o.cert_file = tls_.server_cert;
    o.key_file = tls_.server_key;
    o.password = "roce-check-nxapi";
    nxapi_.push_back(std::make_unique<sim::NxapiServer>(o));
    EXPECT_TRUE(nxapi_.back()->start().isOk());
    return "- name: " + t.name + "\n  kind: nexus\n  transport: [nxapi, ssh]\n  address: 127.0.0.1\n" +
           "  interval: 1s\n  credentials: {username: admin, password_file: " + dir_ + "/nxapi-password}\n" +
           "  nxapi: {port: " + std::to_string(nxapi_.back()->port()) + ", ca_file: " + tls_.ca_cert + "}\n";
  }

  void TearDown() override {
    if (pid_ > 0) testing::stopChild(pid_, SIGTERM);
    for (auto& server : nxapi_) {
      // Every poll of the leaves went over NX-API: SSH stood by unused.
      EXPECT_GT(server->counters().requests, 0u);
      EXPECT_LE(server->counters().authentications, 1u) << "one login per session, not one per poll";
      server->stop();
    }
    if (!tls_.dir.empty()) std::filesystem::remove_all(tls_.dir);
    sshd_.stop();
    if (sim_) sim_->stop();
  }

  CheckRun check() {
    CheckRun r;
    testing::CommandResult c = testing::runCommand(std::string(RDMAGW_BIN) + " check roce --json --address " +
                                                           gnmi_ + " --insecure --timeout 5s");
    r.exit_code = c.exit_code;
    r.output = c.output;
    // stdout's JSON object; stderr (merged) may hold a line before it.
    size_t at = c.output.rfind('{', 0) == 0 ? 0 : c.output.find("\n{");
    if (at != std::string::npos && at > 0) ++at;
    // The object ends at the first "}" in column 0 (it is printed indented).
    const size_t end = at == std::string::npos ? at : c.output.find("\n}", at);
    if (end != std::string::npos) r.doc = nlohmann::json::parse(c.output.substr(at, end + 2 - at), nullptr, false);
    if (r.doc.is_discarded()) r.doc = nullptr;
    return r;
  }

  // Waits until `ok` holds on `times` checks in a row (a second apart): a
  // state the gateway settled in, not one analytics run caught half way.
  bool settles(const std::function<bool(const CheckRun&, std::string*)>& ok, CheckRun* last, std::string* why,
               int times = 3) {
    int in_a_row = 0;
    return testing::waitUntil(
        [&] {
          *last = check();
          in_a_row = ok(*last, why) ? in_a_row + 1 : 0;
          return in_a_row >= times;
        },
        2 * testing::kEventWait, milliseconds(1000));
  }

  std::string log() {
    std::string text = testing::readFile(dir_ + "/gateway.log");
    return text.size() > 3000 ? "..." + text.substr(text.size() - 3000) : text;
  }

  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
  }

  testing::TempDir tmp_{"rdmagw-roce-check"};
  std::string dir_ = tmp_.path();
  std::string sim_dir_ = dir_ + "/sim";
  sim::FabricConfig fabric_;
  std::unique_ptr<sim::SimRunner> sim_;
  sim::SshdLauncher sshd_;
  sim::GnmiTlsFiles tls_;
  std::vector<std::unique_ptr<sim::NxapiServer>> nxapi_;
  std::string gnmi_;
  pid_t pid_ = -1;
  const std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
};

TEST_P(RoceCheckScenarioTest, EachMisconfigurationFailsItsGroupOnItsPortAndPassesWhenItStops) {
  CheckRun last;
  std::string why;
  ASSERT_TRUE(settles([](const CheckRun& r, std::string* w) { return allPass(r, true, w); }, &last, &why))
      << "calm fabric: " << why << "\n" << last.show() << log();
  std::printf("calm (at %.0f s):\n%s", seconds(), last.groups().c_str());
  for (ScenarioKind kind : GetParam().scenarios) {
    const std::string name(sim::scenarioName(kind));
    SCOPED_TRACE(name);
    // The scenario's device and port, as the simulator names them.
    sim::Fabric shape(fabric_);
    shape.setScenario({kind, 0});
    const Where where = whereOf(shape.scenarioTarget());
    const std::string group = expectedGroup(kind);
    ASSERT_FALSE(group.empty()) << name;

    sim_->setScenario({kind, 0});
    const std::string severity = expectedSeverity(kind);
    const bool failed = settles(
        [&](const CheckRun& r, std::string* w) { return onlyThisFails(r, group, severity, where, w); }, &last, &why);
    EXPECT_TRUE(failed) << name << ": expected " << group << " " << severity << " on " << where.target << " ["
                        << where.port << "] alone: " << why << "\n" << last.show() << log();
    std::printf("%s (at %.0f s): %s %s on %s [%s]\n%s", name.c_str(), seconds(), group.c_str(), severity.c_str(),
                where.target.c_str(), where.port.c_str(), last.findings().c_str());

    sim_->setScenario({});
    const bool passed =
        settles([](const CheckRun& r, std::string* w) { return allPass(r, false, w); }, &last, &why);
    EXPECT_TRUE(passed) << name << " switched off: " << why << "\n" << last.show() << log();
    std::printf("%s switched off (at %.0f s): all PASS\n", name.c_str(), seconds());
    if (!failed || !passed) break;  // the next scenario would start from a wrong state
  }
}

// One bed serves a few scenarios in turn; each bed is its own test (ctest
// runs them apart, each well inside its limit on a loaded machine).
INSTANTIATE_TEST_SUITE_P(
    Scenarios, RoceCheckScenarioTest,
    ::testing::Values(
        // host01, where these land, read over SSH as a remote host is.
        BedParam{"hosts",
                 3,
                 -1,
                 {ScenarioKind::kTrustMismatch, ScenarioKind::kRoceEtsZero, ScenarioKind::kStrictStarve},
                 2,
                 2,
                 /*remote_host01=*/true},
        BedParam{"leaf", 3, -1, {ScenarioKind::kCnpLossy, ScenarioKind::kEcnOff, ScenarioKind::kPauseCosMissing}},
        // The leaves over NX-API (SSH behind it, unused while NX-API answers).
        BedParam{"leaf_ports_nxapi",
                 3,
                 -1,
                 {ScenarioKind::kWatchdogOff, ScenarioKind::kMtuSmall, ScenarioKind::kPfcLossyPrio},
                 2,
                 2,
                 /*remote_host01=*/false,
                 /*nxapi_leaves=*/true},
        // The PFC watchdog as it runs, against our own storm verdicts; and
        // ECN thresholds compared across leaves, which takes three with
        // RoCE hosts (a device of each host on each) for a majority.
        BedParam{"watchdog_three_leaves", 3, -1, {ScenarioKind::kWatchdogFalseTrip, ScenarioKind::kEcnLate}, 3, 3},
        // RoCE on 5, CNPs on 6: calm passes, and a scenario of each kind of
        // device still lands on its port.
        BedParam{"priority5_cnp6", 5, 6, {ScenarioKind::kPauseCosMissing, ScenarioKind::kRoceEtsZero}}),
    [](const ::testing::TestParamInfo<BedParam>& info) { return info.param.name; });

}  // namespace
}  // namespace rdmagw::gateway
