// Fabric analytics through a fleet: the simulator's fault scenarios
// (sim/scenario.h) run through three real `rdmagw run` members on a real
// etcd and, at the same time, through one lone `rdmagw run` over the same
// simulated devices (host sysfs trees, two Nexus leaves behind the
// simulator's NX-API over HTTPS). The members' verdict leaves, taken
// together, must flag exactly the ports the lone gateway flags, each port
// by one member only.
//
// The placement is chosen so that the two leaves and the hosts land on
// different members: every host's links to the leaves (rail-optimised
// cabling: mlx5_0 on leaf01, mlx5_1 on leaf02) cross members, as do the
// pause trees of the incasts. The simulator models no spine, so no link
// joins two monitored switches.
//
// The members' gNMI servers check users (users_file): each member's copy
// of the others' targets passes them as a member, the only way those links
// can be judged: with the fleet's member secret on plain text, or (the
// Tls cases) with its certificate over mutual TLS, signed by a CA the
// openssl CLI makes here.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cluster/placement.h"
#include "gateway/config/config.h"
#include "gateway/demo/demo_config.h"
#include "northbound/gnmi/user_auth.h"
#include "sim/etcd_launcher.h"
#include "sim/fabric.h"
#include "sim/gnmi/gnmi_tls.h"
#include "sim/naming.h"
#include "sim/nxapi/nxapi_server.h"
#include "sim/scenario.h"
#include "sim/sim_runner.h"
#include "tests/e2e/fleet/fleet_member_yaml.h"
#include "tests/e2e/fleet/test_ca.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using std::chrono::milliseconds;
using Verdicts = std::set<std::string>;

constexpr int kMembers = 3;
constexpr int kHosts = 4;

std::string memberName(int i) { return "m" + std::to_string(i + 1); }

std::string hostName(int h) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "host%02d", h);
  return buf;
}

// A placement_group whose rendezvous owner among m1..m3 is `member`: the
// test places each target where it wants it, through the same hashing the
// members use.
std::string groupOwnedBy(const std::string& member, int salt) {
  std::vector<std::string> members;
  for (int i = 0; i < kMembers; ++i) members.push_back(memberName(i));
  for (int n = 0;; ++n) {
    const std::string g = "g" + std::to_string(salt) + "-" + std::to_string(n);
    if (cluster::owner(g, members) == member) return g;
  }
}

// The metrics whose value flags a port, and the values that are quiet.
const std::map<std::string, std::set<std::string>>& verdictMetrics() {
  static const std::map<std::string, std::set<std::string>> m = {
      {"rdmagw_fabric_dcqcn_verdict_code", {"0", "1"}},   // idle, working
      {"rdmagw_fabric_pfc_pause_balance_code", {"0", "1"}},  // idle, balanced
      {"rdmagw_fabric_pfc_pause_storm_alarm", {"0"}},
      {"rdmagw_fabric_pfc_lossless_drop_alarm", {"0"}},
      {"rdmagw_fabric_pause_tree_state_code", {"0"}},  // clear
      {"rdmagw_fabric_pause_tree_size_ports", {"0"}},  // a tree across members counts every member's ports
      {"rdmagw_fabric_dcb_consistency_code", {"0"}},   // consistent
  };
  return m;
}

struct Series {
  std::string name;
  std::map<std::string, std::string> labels;
  std::string value;
};

// The series of `metrics` in a /metrics body.
std::vector<Series> parseSeries(const std::string& body, const std::set<std::string>& metrics) {
  std::vector<Series> out;
  size_t at = 0;
  while (at < body.size()) {
    size_t end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    const std::string line = body.substr(at, end - at);
    at = end + 1;
    const size_t brace = line.find('{');
    if (line.empty() || line[0] == '#' || brace == std::string::npos) continue;
    Series s;
    s.name = line.substr(0, brace);
    if (!metrics.count(s.name)) continue;
    const size_t close = line.find("} ", brace);
    if (close == std::string::npos) continue;
    const std::string text = line.substr(brace + 1, close - brace - 1);
    for (size_t p = 0; p < text.size();) {
      const size_t eq = text.find("=\"", p);
      if (eq == std::string::npos) break;
      const size_t q = text.find('"', eq + 2);
      if (q == std::string::npos) break;
      s.labels[text.substr(p, eq - p)] = text.substr(eq + 2, q - eq - 2);
      p = q + 2;  // past the quote and the comma
    }
    s.value = line.substr(close + 2);
    s.value = s.value.substr(0, s.value.find(' '));
    out.push_back(std::move(s));
  }
  return out;
}

// "metric target/port[/priority]" for every series of `metrics` in a
// /metrics body; flagged_only: "...=value", for values not among the quiet ones.
Verdicts parseVerdicts(const std::string& body, bool flagged_only, const std::set<std::string>& metrics) {
  Verdicts out;
  for (Series& s : parseSeries(body, metrics)) {
    auto quiet = verdictMetrics().find(s.name);
    if (flagged_only && quiet != verdictMetrics().end() && quiet->second.count(s.value)) continue;
    std::string key = s.name + " " + s.labels["target"];
    for (const char* l : {"interface", "device", "port", "priority"}) {
      if (s.labels.count(l)) key += "/" + s.labels[l];
    }
    out.insert(key + (flagged_only ? "=" + s.value : ""));
  }
  return out;
}

std::string show(const Verdicts& v) {
  std::string out;
  for (const std::string& s : v) out += "  " + s + "\n";
  return out.empty() ? "  (none)\n" : out;
}

Verdicts minus(const Verdicts& a, const Verdicts& b) {
  Verdicts out;
  for (const std::string& s : a) {
    if (!b.count(s)) out.insert(s);
  }
  return out;
}

// The analytics as the demo runs them: a window of ten polls, LLDP from the
// leaves for the cabling.
constexpr const char* kAnalytics =
    "analytics:\n  period: 1s\n  window: 10s\n  no_drop_priorities: [3]\n  pause_storm: {for: 5s}\n";

class FleetAnalyticsTest : public ::testing::TestWithParam<std::vector<sim::ScenarioKind>> {
 protected:
  void SetUp() override {
    sim::FabricConfig fc;
    fc.hosts = kHosts;
    fc.esxi_hosts = 0;
    fc.switches = 2;
    fc.calm = true;
    // A tick is a simulated second of pause durations: only a 1 s period
    // keeps paused ratios true against the collection times.
    sim_ = std::make_unique<sim::SimRunner>(fc, sim_dir_, milliseconds(1000));
    ASSERT_TRUE(sim_->start().isOk());
    ASSERT_TRUE(sim::generateGnmiTlsFiles(&tls_).isOk());
    ASSERT_TRUE(testing::writeFile(dir_ + "/nxapi-password", "fleet-nxapi\n"));
    ASSERT_TRUE(etcd_.start().isOk()) << etcd_.logText();

    // Where each target goes: the leaves on two members, the hosts over all
    // three, so that links and pause trees cross members.
    std::map<std::string, std::string> place = {{"leaf01", "m1"}, {"leaf02", "m2"}};
    for (int h = 1; h <= kHosts; ++h) place[hostName(h)] = memberName((h + 1) % kMembers);  // m3, m1, m2, m3
    std::string yaml;
    int salt = 0;
    for (int h = 1; h <= kHosts; ++h) {
      const std::string name = hostName(h);
      yaml += "- name: " + name + "\n  kind: rdma-host\n  interval: 1s\n  labels: {fabric: sim}\n" +
              "  placement_group: " + groupOwnedBy(place[name], ++salt) + "\n  rdma:\n    sysfs_root: " + sim_dir_ +
              "/" + name + "/sys\n    ethtool: text\n    ethtool_dir: " + sim_dir_ + "/" + name +
              "/ethtool\n    lldp: off\n    config_interval: 2s\n";  // trust-mismatch turns a knob
    }
    // The leaves over NX-API: a kept-alive HTTPS session per gateway. Over
    // SSH every command of every poll forks a session and a shell, which on
    // two cores cost the fabric's gateways a third of the machine.
    for (int l = 0; l < fc.switches; ++l) {
      const std::string name = sim::switchName(l, fc.switches);  // leaf01, leaf02
      sim::NxapiServerOptions o;
      o.device_dir = sim_dir_ + "/" + name;
      o.cert_file = tls_.server_cert;
      o.key_file = tls_.server_key;
      o.password = "fleet-nxapi";
      o.threads = 8;  // a kept-alive connection holds a worker: the lone gateway, the owner, one moving in
      nxapi_.push_back(std::make_unique<sim::NxapiServer>(o));
      ASSERT_TRUE(nxapi_.back()->start().isOk());
      yaml += "- name: " + name + "\n  kind: nexus\n  transport: nxapi\n  address: 127.0.0.1\n  interval: 1s\n" +
              "  labels: {fabric: sim}\n  placement_group: " + groupOwnedBy(place[name], ++salt) +
              "\n  credentials: {username: admin, password_file: " + dir_ + "/nxapi-password}\n" +
              "  nxapi: {port: " + std::to_string(nxapi_.back()->port()) + ", ca_file: " + tls_.ca_cert + "}\n";
      targets_.push_back(name);
    }
    for (int h = 1; h <= kHosts; ++h) targets_.push_back(hostName(h));
    expected_owner_ = place;
    std::filesystem::create_directories(dir_ + "/targets.d");
    ASSERT_TRUE(testing::writeFile(dir_ + "/targets.d/fabric.yaml", yaml));

    // Users on every member's gNMI server; the members pass them as members.
    ASSERT_TRUE(testing::writeFile(dir_ + "/users", "ops:" + northbound::gnmi::hashPassword("ops-pw", 1000) + "\n"));
    ASSERT_TRUE(testing::writeFile(dir_ + "/member-secret", "a3f1c9e07b2d4658a3f1c9e07b2d4658\n"));
    testing::Ca ca(dir_, "fleet-ca");
    if (member_tls_) {
      if (std::system("openssl version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no openssl CLI";
      ASSERT_EQ(ca.make(), "");
      for (int i = 0; i < kMembers; ++i) ASSERT_EQ(ca.sign(memberName(i), true), "");
    }
    for (int i = 0; i <= kMembers; ++i) {
      const bool lone = i == kMembers;
      const int port = testing::freeLoopbackPort();
      prom_ports_.push_back(port);
      std::string cfg = "targets_dir: targets.d\nadmin_socket: off\nnorthbound:\n  prometheus: {listen: \"127.0.0.1:" +
                        std::to_string(port) + "\"}\n";
      if (!lone) {
        const std::string m = dir_ + "/" + memberName(i);
        const std::string security =
            member_tls_ ? "tls: {cert: " + m + ".crt, key: " + m + ".key, client_ca: " + ca.cert() + "}"
                        : std::string("insecure: true");
        cfg += "  gnmi: {listen: \"127.0.0.1:" + std::to_string(testing::freeLoopbackPort()) + "\", " + security +
               ", users_file: " + dir_ + "/users}\n" +
               testing::clusterYaml(etcd_.endpoint(), "analytics-fleet", memberName(i), lease_ttl_);
        if (!member_tls_) cfg += "  member_secret_file: " + dir_ + "/member-secret\n";
      }
      if (lone || analytics_at_start_) cfg += kAnalytics;
      const std::string path = dir_ + "/" + (lone ? std::string("lone") : memberName(i)) + ".yaml";
      ASSERT_TRUE(testing::writeFile(path, cfg));
      pids_.push_back(spawn(path, dir_ + "/" + (lone ? std::string("lone") : memberName(i)) + ".log"));
    }
  }

  void TearDown() override {
    for (pid_t pid : pids_) {
      if (pid > 0) testing::stopChild(pid, SIGTERM);
    }
    etcd_.stop();
    for (auto& server : nxapi_) server->stop();
    if (sim_) sim_->stop();
  }

  static pid_t spawn(const std::string& cfg, const std::string& log) {
    const pid_t pid = testing::spawnLogged({RDMAGW_BIN, "run", "--config", cfg, "--log-level", "warn"}, log);
    return pid;
  }

  std::string metrics(int i) {
    return testing::httpGet("http://127.0.0.1:" + std::to_string(prom_ports_[i]) + "/metrics");
  }

  // Targets gateway i reports up.
  std::set<std::string> up(const std::string& body) {
    std::set<std::string> out;
    const std::string head = "rdmagw_target_up{target=\"";
    for (size_t at = body.find(head); at != std::string::npos; at = body.find(head, at + 1)) {
      const size_t name_end = body.find('"', at + head.size());
      const size_t line_end = body.find('\n', at);
      if (name_end == std::string::npos || line_end == std::string::npos) break;
      if (body.compare(line_end - 2, 2, " 1") == 0) out.insert(body.substr(at + head.size(), name_end - at - head.size()));
    }
    return out;
  }

  // The lone gateway's verdicts, and the members' together. `twice` gets
  // what more than one member wrote (a port judged twice).
  Verdicts lone(bool flagged, const std::set<std::string>& which) {
    return parseVerdicts(metrics(kMembers), flagged, which);
  }
  Verdicts fleet(bool flagged, const std::set<std::string>& which, Verdicts* twice = nullptr) {
    Verdicts all;
    for (int i = 0; i < kMembers; ++i) {
      for (const std::string& v : parseVerdicts(metrics(i), flagged, which)) {
        if (!all.insert(v).second && twice != nullptr) twice->insert(v);
      }
    }
    return all;
  }

  static std::set<std::string> flaggingMetrics() {
    std::set<std::string> out;
    for (const auto& [name, quiet] : verdictMetrics()) out.insert(name);
    return out;
  }

  std::string logs() {
    std::string out;
    for (int i = 0; i <= kMembers; ++i) {
      const std::string name = i == kMembers ? std::string("lone") : memberName(i);
      std::string text = testing::readFile(dir_ + "/" + name + ".log");
      if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
      out += "--- " + name + ".log\n" + text;
    }
    return out;
  }

  // Waits until the lone gateway's flags hold still (non-empty, or empty
  // when `quiet`), then until the fleet's equal them. False with the
  // difference in `why`.
  bool sameFlags(bool quiet, std::string* why) {
    const std::set<std::string> which = flaggingMetrics();
    Verdicts last;
    int still = 0;
    const bool settled = testing::waitUntil(
        [&] {
          Verdicts now = lone(true, which);
          still = (now == last && now.empty() == quiet) ? still + 1 : 0;
          last = std::move(now);
          return still >= 6;  // three seconds unchanged: three analytics runs
        },
        testing::kEventWait, milliseconds(500));
    if (!settled) {
      *why = "the lone gateway's flags did not settle" + std::string(quiet ? " to none" : "") + ":\n" + show(last);
      return false;
    }
    Verdicts l, f, twice;
    const bool same = testing::waitUntil(
        [&] {
          twice.clear();
          l = lone(true, which);
          f = fleet(true, which, &twice);
          return l == f && twice.empty();
        },
        std::chrono::seconds(60), milliseconds(500));
    if (same) {
      std::printf("%s (at %.0f s): %zu flag(s), the same through the fleet:\n%s", phase_.c_str(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count(), l.size(),
                  show(l).c_str());
    } else {
      *why = "lone gateway only:\n" + show(minus(l, f)) + "fleet only:\n" + show(minus(f, l)) +
             "written by two members:\n" + show(twice) + "both:\n" + show(l);
    }
    return same;
  }

  // Every target up on the member placement gives it (and on that one
  // only), and on the lone gateway.
  bool placed(std::string* who) {
    return testing::waitUntil(
        [&] {
          who->clear();
          std::map<std::string, std::set<std::string>> by;
          for (int i = 0; i < kMembers; ++i) {
            for (const std::string& t : up(metrics(i))) by[t].insert(memberName(i));
          }
          const std::set<std::string> lone_up = up(metrics(kMembers));
          bool ok = true;
          for (const std::string& t : targets_) {
            const std::set<std::string> want = {expected_owner_[t]};
            if (by[t] != want || !lone_up.count(t)) ok = false;
            *who += t + ": " + std::to_string(by[t].size()) + " member(s)" + (lone_up.count(t) ? ", lone" : "") + "\n";
          }
          return ok;
        },
        testing::kEventWait, milliseconds(500));
  }

  // Every link the lone gateway judges, the fleet judges too, once.
  bool linkedAsLone(std::string* why) {
    const std::set<std::string> link_metrics = {"rdmagw_fabric_dcb_consistency_code", "rdmagw_fabric_link_source_info"};
    Verdicts l, f, twice;
    const bool linked = testing::waitUntil(
        [&] {
          twice.clear();
          l = lone(false, link_metrics);
          f = fleet(false, link_metrics, &twice);
          // At least: two links per host (one to each leaf), both ends.
          return l.size() >= size_t(kHosts) * 2 * 2 && l == f && twice.empty();
        },
        testing::kEventWait, milliseconds(500));
    if (!linked) {
      *why = "lone only:\n" + show(minus(l, f)) + "fleet only:\n" + show(minus(f, l)) + "twice:\n" + show(twice);
    }
    return linked;
  }

  // A gauge of member i's /metrics with no labels, or -1 when absent.
  double gauge(int i, const std::string& name) {
    const std::string body = metrics(i);
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
    }
    return -1;
  }

  // The members started with no analytics: nothing is copied and nothing
  // judged. A reload (SIGHUP) switches analytics on; the copy of the peers'
  // far ends must follow without a restart.
  void switchAnalyticsOnByAReload() {
    std::string who;
    ASSERT_TRUE(placed(&who)) << who << logs();
    for (int i = 0; i < kMembers; ++i) {
      EXPECT_LE(gauge(i, "rdmagw_fleet_mirror_series"), 0) << memberName(i);
      EXPECT_TRUE(parseVerdicts(metrics(i), false, {"rdmagw_fabric_link_source_info"}).empty()) << memberName(i);
    }
    for (int i = 0; i < kMembers; ++i) {
      const std::string path = dir_ + "/" + memberName(i) + ".yaml";
      ASSERT_TRUE(testing::writeFile(path, testing::readFile(path) + kAnalytics));
      ASSERT_EQ(kill(pids_[i], SIGHUP), 0);
    }
  }

  // Calm, then each scenario of the test's parameter on and off: the
  // fleet's flags equal the lone gateway's throughout.
  void flagTheSamePortsThroughEveryScenario() {
    // Every target collected by the member the placement gives it, and by the
    // lone gateway.
    std::string who;
    ASSERT_TRUE(placed(&who)) << who << logs();
    // The cabling crosses members: each host has a device on each leaf, and
    // the leaves are on m1 and m2.
    ASSERT_NE(expected_owner_["leaf01"], expected_owner_["leaf02"]);

    // Calm: every link the lone gateway judges, the fleet judges too, once.
    std::string why;
    ASSERT_TRUE(linkedAsLone(&why)) << why << logs();
    // Links judged whose two ends different members own.
    std::set<std::string> crossing;
    for (Series& link : parseSeries(metrics(kMembers), {"rdmagw_fabric_link_peer_target_info"})) {
      const std::string& a = link.labels["target"];
      const std::string& b = link.labels["peer_target"];
      if (expected_owner_.count(a) && expected_owner_.count(b) && expected_owner_[a] != expected_owner_[b]) {
        crossing.insert(a + "/" + link.labels["interface"] + " - " + b);
      }
    }
    EXPECT_GE(crossing.size(), size_t(kHosts)) << show(crossing);

    std::printf("%zu link end(s) judged across members:\n%s", crossing.size(), show(crossing).c_str());

    // Each member copies the far ends of its own cables, not the others'
    // whole share: far fewer series than the targets it does not collect hold.
    std::map<std::string, double> target_series;  // as the lone gateway holds them
    for (Series& s : parseSeries(metrics(kMembers), {"rdmagw_target_series"})) {
      target_series[s.labels["target"]] = std::stod(s.value);
    }
    for (int i = 0; i < kMembers; ++i) {
      double elsewhere = 0;
      for (const auto& [target, owner] : expected_owner_) {
        if (owner != memberName(i)) elsewhere += target_series[target];
      }
      double copied = -1, ports = -1;
      const bool counted = testing::waitUntil(
          [&] {
            copied = gauge(i, "rdmagw_fleet_mirror_series");
            ports = gauge(i, "rdmagw_fleet_mirror_peer_ports");
            return copied > 0 && ports > 0;
          },
          testing::kEventWait, milliseconds(500));
      ASSERT_TRUE(counted) << memberName(i) << ": no mirror figures on /metrics";
      std::printf("%s copies %.0f series (%.0f peer ports) of the %.0f the targets it does not collect hold\n",
                  memberName(i).c_str(), copied, ports, elsewhere);
      EXPECT_LT(copied, elsewhere / 2) << memberName(i);
    }
    ASSERT_TRUE(sameFlags(true, &why)) << "calm fabric: " << why;
    for (sim::ScenarioKind kind : GetParam()) {
      SCOPED_TRACE(std::string(sim::scenarioName(kind)));
      // The receiver is host01's mlx5_0 (on leaf01, owned by m1; host01 by m3).
      sim_->setScenario({kind, 0});
      phase_ = std::string(sim::scenarioName(kind));
      EXPECT_TRUE(sameFlags(false, &why)) << why;
      sim_->setScenario({});
      phase_ = std::string(sim::scenarioName(kind)) + " switched off";
      EXPECT_TRUE(sameFlags(true, &why)) << "after the scenario: " << why;
    }
  }

  testing::TempDir tmp_{"rdmagw-fleet-analytics"};
  std::string dir_ = tmp_.path();
  std::string sim_dir_ = dir_ + "/sim";
  std::unique_ptr<sim::SimRunner> sim_;
  sim::GnmiTlsFiles tls_;
  std::vector<std::unique_ptr<sim::NxapiServer>> nxapi_;
  sim::EtcdLauncher etcd_;
  std::vector<pid_t> pids_;
  std::vector<int> prom_ports_;
  std::vector<std::string> targets_;
  std::map<std::string, std::string> expected_owner_;
  bool analytics_at_start_ = true;  // false: the members get their analytics by a reload
  bool member_tls_ = false;         // true: mutual TLS between members, no member secret
  int lease_ttl_ = 3;               // seconds
  std::string phase_ = "calm";  // printed with the flags compared
  const std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
};

TEST_P(FleetAnalyticsTest, ScenariosFlagTheSamePortsThroughTheFleetAsThroughOneGateway) {
  flagTheSamePortsThroughEveryScenario();
}

// The same over mutual TLS between the members: their copies of each other's
// far ends pass the users_file with their certificates alone. The members
// start without analytics and get them by a reload, which the copy must
// follow (no restart) before the scenarios run.
class FleetAnalyticsTlsTest : public FleetAnalyticsTest {
 protected:
  void SetUp() override {
    member_tls_ = true;
    analytics_at_start_ = false;
    FleetAnalyticsTest::SetUp();
  }
};

TEST_P(FleetAnalyticsTlsTest, AnalyticsSwitchedOnByAReloadThenScenariosFlagTheSamePortsOverMutualTls) {
  if (IsSkipped()) return;
  switchAnalyticsOnByAReload();
  if (HasFatalFailure()) return;
  flagTheSamePortsThroughEveryScenario();
}

// "incast_np_off_rp_off": a case's name, from its scenarios.
std::string scenarioNames(const ::testing::TestParamInfo<std::vector<sim::ScenarioKind>>& info) {
  std::string name;
  for (sim::ScenarioKind k : info.param) {
    for (char c : sim::scenarioName(k)) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    name += "_";
  }
  return name.substr(0, name.size() - 1);
}

// Every scenario in two fleets: each case starts its own fabric, etcd and
// four gateways, about a minute under ASan, so the cases are few and long.
INSTANTIATE_TEST_SUITE_P(Scenarios, FleetAnalyticsTest,
                         ::testing::Values(std::vector<sim::ScenarioKind>{
                             sim::ScenarioKind::kIncast, sim::ScenarioKind::kNpOff, sim::ScenarioKind::kRpOff,
                             sim::ScenarioKind::kPfcMismatch, sim::ScenarioKind::kPfcMismatchSwitch}),
                         scenarioNames);
INSTANTIATE_TEST_SUITE_P(Scenarios, FleetAnalyticsTlsTest,
                         ::testing::Values(std::vector<sim::ScenarioKind>{sim::ScenarioKind::kPauseStorm,
                                                                          sim::ScenarioKind::kTrustMismatch}),
                         scenarioNames);

// A member killed (kill -9) in the middle of a scenario: while its lease
// lives its targets are copied from nobody, so the other members report
// their cables' far ends there as stale (not judged on the last counters);
// once the targets move, the fleet flags what the lone gateway flags again.
class FleetAnalyticsKillTest : public FleetAnalyticsTest {
 protected:
  void SetUp() override {
    lease_ttl_ = 25;  // long enough to see the stale far ends (11 s) before the move
    FleetAnalyticsTest::SetUp();
  }

  // "target/interface" of the links member i reports with peer-state `state`.
  std::set<std::string> linksIn(int i, const std::string& state) {
    std::set<std::string> out;
    for (Series& s : parseSeries(metrics(i), {"rdmagw_fabric_link_peer_state_info"})) {
      for (const auto& [label, value] : s.labels) {
        if (label != "target" && label != "interface" && value == state) {
          out.insert(s.labels["target"] + "/" + s.labels["interface"]);
        }
      }
    }
    return out;
  }
};

TEST_P(FleetAnalyticsKillTest, AKilledMembersFarEndsAreStaleUntilTheyMoveThenTheFlagsAgreeAgain) {
  if (IsSkipped()) return;
  std::string who, why;
  ASSERT_TRUE(placed(&who)) << who << logs();
  ASSERT_TRUE(linkedAsLone(&why)) << why << logs();
  sim_->setScenario({sim::ScenarioKind::kIncast, 0});
  phase_ = "incast";
  ASSERT_TRUE(sameFlags(false, &why)) << why;

  // m3 owns host01 and host04, cabled to leaf01 (m1) and leaf02 (m2).
  const int victim = 2;
  ASSERT_EQ(expected_owner_["host01"], memberName(victim));
  ASSERT_EQ(kill(pids_[victim], SIGKILL), 0);
  testing::stopChild(pids_[victim], SIGKILL);
  pids_[victim] = -1;
  const auto killed = std::chrono::steady_clock::now();
  std::set<std::string> stale;
  const bool seen = testing::waitUntil(
      [&] {
        stale = linksIn(0, "stale");
        for (const std::string& l : linksIn(1, "stale")) stale.insert(l);
        // Each leaf's ports to host01 and host04.
        return stale.size() >= 4;
      },
      std::chrono::seconds(lease_ttl_ * 2), milliseconds(500));
  const double after = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
  ASSERT_TRUE(seen) << "stale far ends: " << stale.size() << "\n" << logs();
  std::printf("%.1f s after the kill, %zu link end(s) stale:\n", after, stale.size());
  for (const std::string& l : stale) std::printf("  %s\n", l.c_str());
  for (const std::string& l : stale) EXPECT_TRUE(l.rfind("leaf0", 0) == 0) << l;
  // The lease expires, the targets move, the far ends are current again.
  const bool current = testing::waitUntil([&] { return linksIn(0, "stale").empty() && linksIn(1, "stale").empty(); },
                                          testing::kEventWait, milliseconds(500));
  EXPECT_TRUE(current) << logs();
  // The survivors now hold m3's targets too: compare them with the lone
  // gateway without the dead member.
  const std::set<std::string> which = flaggingMetrics();
  Verdicts l, f, twice;
  const bool same = testing::waitUntil(
      [&] {
        twice.clear();
        l = lone(true, which);
        f.clear();
        for (int i = 0; i < kMembers; ++i) {
          if (i == victim) continue;
          for (const std::string& v : parseVerdicts(metrics(i), true, which)) {
            if (!f.insert(v).second) twice.insert(v);
          }
        }
        return l == f && twice.empty();
      },
      testing::kEventWait, milliseconds(500));
  EXPECT_TRUE(same) << "lone only:\n" << show(minus(l, f)) << "fleet only:\n" << show(minus(f, l)) << logs();
}

INSTANTIATE_TEST_SUITE_P(Kill, FleetAnalyticsKillTest, ::testing::Values(std::vector<sim::ScenarioKind>{}),
                         [](const auto&) { return std::string("member_killed_in_incast"); });

}  // namespace
}  // namespace rdmagw::gateway
