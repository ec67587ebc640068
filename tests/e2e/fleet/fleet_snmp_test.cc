// Two real `rdmagw run` members of one fleet on a real etcd, each the
// AgentX subagent of its own real snmpd, as an NMS sees them: the default
// context of either snmpd lists every target of the fleet with its owner
// and the owner's SNMP address, and each device answers in its context at
// exactly the address its row gives. When a member is killed, the survivor
// lists every target as its own and serves them all, each interface under
// the ifIndex the dead member served it with.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "northbound/snmp/if_index_derivation.h"
#include "sim/etcd_launcher.h"
#include "sim/snmpd_launcher.h"
#include "sim/tree_writer.h"
#include "tests/e2e/fleet/fleet_member_yaml.h"
#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

using testing::TempDir;

constexpr const char* kIfName = ".1.3.6.1.2.1.31.1.1.1.1";
constexpr const char* kFleetTable = ".1.3.6.1.4.1.32473.1.1.11.1";  // rdmagwFleetTargetEntry
constexpr int kTargets = 6;
constexpr int kLeaseTtlS = 3;

std::string targetName(int i) { return "h0" + std::to_string(i + 1); }

struct Row {
  std::string owner, snmp, owned_here;
};

// The fleet table of one snmpd's default context, by target: one numeric
// walk (OID value per line), the target decoded from the row index.
std::map<std::string, Row> fleetTable(const sim::SnmpdLauncher& snmpd, std::string* raw) {
  testing::CommandResult r = testing::runCommand(snmpd.clientEnv() + " snmpwalk -On -Oq -t 2 -r 1 " +
                                                         snmpd.v2cArgs("") + " " + kFleetTable);
  *raw = r.output;
  std::map<std::string, Row> rows;
  std::istringstream in(r.output);
  std::string line;
  const std::string prefix = std::string(kFleetTable) + ".";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const size_t sp = line.find(' ');
    std::string value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    // <column>.<length>.<octets...>
    std::istringstream arcs(line.substr(prefix.size(), sp - prefix.size()));
    std::string arc;
    std::getline(arcs, arc, '.');
    const int column = std::stoi(arc);
    std::getline(arcs, arc, '.');
    std::string target;
    while (std::getline(arcs, arc, '.')) target += char(std::stoi(arc));
    Row& row = rows[target];
    if (column == 3) row.owner = value;
    if (column == 4) row.snmp = value;
    if (column == 6) row.owned_here = value;
  }
  return rows;
}

// ifName of one context, by ifIndex (numeric walk: OID value per line).
std::map<uint32_t, std::string> ifNames(const sim::SnmpdLauncher& snmpd, const std::string& context, std::string* raw) {
  testing::CommandResult r =
      testing::runCommand(snmpd.clientEnv() + " snmpwalk -On -Oq -t 1 -r 0 " + snmpd.v2cArgs(context) + " " + kIfName);
  *raw = r.output;
  std::map<uint32_t, std::string> names;
  std::istringstream in(r.output);
  std::string line;
  const std::string prefix = std::string(kIfName) + ".";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const size_t sp = line.find(' ');
    if (sp == std::string::npos) continue;
    std::string value = line.substr(sp + 1);
    if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    names[uint32_t(std::stoul(line.substr(prefix.size(), sp - prefix.size())))] = value;
  }
  return names;
}

class FleetSnmpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::string> host = sim::writeOneHostTree(tmp_.file("sim"));
    ASSERT_TRUE(host.isOk()) << host.status().message();
    Status st = etcd_.start();
    ASSERT_TRUE(st.isOk()) << "etcd: " << st.message();
    // Six targets on one simulated host tree: placement hashes the names.
    std::string targets = "targets:\n";
    sim::SnmpdOptions opts;
    for (int i = 0; i < kTargets; ++i) {
      targets += "  - name: " + targetName(i) + "\n    kind: rdma-host\n    interval: 500ms\n" +
                 "    rdma: {sysfs_root: " + tmp_.file("sim/" + host.value() + "/sys") +
                 ", ethtool: text, ethtool_dir: " + tmp_.file("sim/" + host.value() + "/ethtool") + ", lldp: off}\n";
      opts.contexts.push_back(targetName(i));  // any member may own any target: every snmpd maps every context
    }
    for (int m = 0; m < 2; ++m) {
      snmpd_.push_back(std::make_unique<sim::SnmpdLauncher>(opts));
      st = snmpd_[m]->start();
      ASSERT_TRUE(st.isOk()) << st.message();
      const std::string name = member(m);
      if (seed_history_) {
        // Each member's own past: m2 once saw one NIC more of every device
        // than m1 did (as after earlier moves). Numbers kept per member in
        // its state file would give a moved target's interfaces new ones.
        std::string history;
        for (int i = 0; i < kTargets; ++i) {
          for (int k = 0; k <= m; ++k) {
            history += targetName(i) + "\tretired-nic" + std::to_string(k) + "\t" + std::to_string(k + 1) + "\n";
          }
        }
        std::filesystem::create_directories(tmp_.file(name + "-state"));
        testing::writeFile(tmp_.file(name + "-state/snmp-ifindex.tsv"), history);
      }
      testing::writeFile(tmp_.file(name + ".yaml"),
                             targets + "admin_socket: off\nnorthbound:\n  snmp:\n    agentx_socket: " +
                                 snmpd_[m]->agentxSocket() + "\n    state_dir: " + tmp_.file(name + "-state") +
                                 "\n    refresh_period: 200ms\n" +
                                 testing::clusterYaml(etcd_.endpoint(), "snmp-fleet", name, kLeaseTtlS) +
                                 "  advertise: {snmp: \"" + snmpd_[m]->address() + "\"}\n");
      pids_.push_back(startMember(m));
    }
  }
  void TearDown() override {
    for (pid_t& pid : pids_) {
      if (pid > 0) testing::stopChild(pid, SIGTERM);
      pid = -1;
    }
    if (HasFailure()) {
      for (int m = 0; m < 2; ++m) std::fprintf(stderr, "--- %s\n%s\n", member(m).c_str(), log(m).c_str());
    }
  }

  static std::string member(int m) { return "m" + std::to_string(m + 1); }
  std::string log(int m) { return testing::readFile(tmp_.file(member(m) + ".log")); }

  pid_t startMember(int m) {
    const std::string cfg = tmp_.file(member(m) + ".yaml");
    const std::string log = tmp_.file(member(m) + ".log");
    const pid_t pid = testing::spawnLogged({RDMAGW_BIN, "run", "--config", cfg}, log);
    return pid;
  }

  // Whether member m's snmpd serves the target's context (its ifName
  // column). snmpd does not answer a v2c request for a context nobody
  // registered: a short timeout, the callers retry.
  bool servesContext(int m, const std::string& target) {
    testing::CommandResult r = testing::runCommand(
        snmpd_[m]->clientEnv() + " snmpwalk -On -Oq -t 1 -r 0 " + snmpd_[m]->v2cArgs(target) + " " + kIfName);
    return r.output.find(std::string(kIfName) + ".") != std::string::npos;
  }

  int memberAt(const std::string& address) {
    for (int m = 0; m < 2; ++m) {
      if (snmpd_[m]->address() == address) return m;
    }
    return -1;
  }

  // The owner of `target` both members agree on (-1 if none in time).
  int agreedOwner(const std::string& target) {
    std::string raw[2];
    int owner = -1;
    testing::waitUntil(
        [&] {
          std::map<std::string, Row> t0 = fleetTable(*snmpd_[0], &raw[0]);
          std::map<std::string, Row> t1 = fleetTable(*snmpd_[1], &raw[1]);
          const Row& a = t0[target];
          if (a.owner.empty() || a.owner != t1[target].owner || a.snmp != t1[target].snmp) return false;
          owner = memberAt(a.snmp);
          return owner >= 0;
        },
        std::chrono::seconds(60), std::chrono::milliseconds(500));
    return owner;
  }

  bool seed_history_ = false;  // set by a fixture before SetUp
  TempDir tmp_{"rdmagw-fleet-snmp"};
  sim::EtcdLauncher etcd_;
  std::vector<std::unique_ptr<sim::SnmpdLauncher>> snmpd_;
  std::vector<pid_t> pids_;
};

TEST_F(FleetSnmpTest, AnyMembersTableFindsEveryDeviceAndFollowsAMove) {
  // Both members agree on every target's owner, each owner is a member and
  // its row carries that member's snmpd.
  std::map<std::string, Row> tables[2];
  std::string raw[2];
  auto agreed = [&] {
    for (int m = 0; m < 2; ++m) tables[m] = fleetTable(*snmpd_[m], &raw[m]);
    if (tables[0].size() != size_t(kTargets) || tables[1].size() != size_t(kTargets)) return false;
    for (const auto& [target, row] : tables[0]) {
      const Row& other = tables[1][target];
      if (row.owner.empty() || row.owner != other.owner || row.snmp != other.snmp) return false;
    }
    return true;
  };
  ASSERT_TRUE(testing::waitUntil(agreed, std::chrono::seconds(60), std::chrono::milliseconds(500)))
      << "m1:\n" << raw[0] << "\nm2:\n" << raw[1];
  std::map<std::string, int> owned;
  for (const auto& entry : tables[0]) {
    const std::string& target = entry.first;  // a name, not a binding: the lambdas below capture it (clang 14)
    const Row& row = entry.second;
    const int owner = memberAt(row.snmp);
    ASSERT_GE(owner, 0) << target << " at " << row.snmp;
    EXPECT_EQ(row.owner, member(owner)) << target;
    ++owned[row.owner];
    // The row of the member asked says whether it is the owner.
    for (int m = 0; m < 2; ++m) EXPECT_EQ(tables[m][target].owned_here, m == owner ? "1" : "2") << target;
    // The NMS follows the row: the device answers in its context there.
    EXPECT_TRUE(testing::waitUntil([&] { return servesContext(owner, target); }, std::chrono::seconds(30),
                                       std::chrono::milliseconds(500)))
        << target << " not served by " << member(owner);
    EXPECT_TRUE(testing::waitUntil([&] { return !servesContext(1 - owner, target); }, std::chrono::seconds(30),
                                       std::chrono::milliseconds(500)))
        << target << " still served by " << member(1 - owner) << ", which does not own it";
  }
  std::printf("placement: m1 owns %d, m2 owns %d of %d targets\n", owned["m1"], owned["m2"], kTargets);

  // m2 dies: after its lease expires, m1 lists every target as its own and
  // serves every device.
  ::kill(pids_[1], SIGKILL);
  ::waitpid(pids_[1], nullptr, 0);
  pids_[1] = -1;
  std::map<std::string, Row> after;
  std::string after_raw;
  auto all_m1 = [&] {
    after = fleetTable(*snmpd_[0], &after_raw);
    if (after.size() != size_t(kTargets)) return false;
    for (const auto& [target, row] : after) {
      if (row.owner != "m1" || row.snmp != snmpd_[0]->address() || row.owned_here != "1") return false;
    }
    return true;
  };
  EXPECT_TRUE(testing::waitUntil(all_m1, std::chrono::seconds(60), std::chrono::milliseconds(500))) << after_raw;
  for (int i = 0; i < kTargets; ++i) {
    EXPECT_TRUE(testing::waitUntil([&] { return servesContext(0, targetName(i)); }, std::chrono::seconds(30),
                                       std::chrono::milliseconds(500)))
        << targetName(i) << " not served by m1 after the move";
  }
}

class FleetSnmpIfIndexTest : public FleetSnmpTest {
 protected:
  void SetUp() override {
    seed_history_ = true;
    FleetSnmpTest::SetUp();
  }
};

// An NMS keyed on ifIndex: a target's interfaces walked on its owner, the
// owner killed, walked again on the member that took the target over: the
// same ifIndex for every interface, whatever each member saw before.
TEST_F(FleetSnmpIfIndexTest, AMovedTargetKeepsItsIfIndexes) {
  const std::string target = targetName(0);
  const int owner = agreedOwner(target);
  ASSERT_GE(owner, 0) << "no agreed owner of " << target;
  std::map<uint32_t, std::string> before, again;
  std::string raw;
  // Every interface polled: two walks a refresh apart give the same rows.
  ASSERT_TRUE(testing::waitUntil(
      [&] {
        before = ifNames(*snmpd_[owner], target, &raw);
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        again = ifNames(*snmpd_[owner], target, &raw);
        return !before.empty() && before == again;
      },
      std::chrono::seconds(60), std::chrono::milliseconds(500)))
      << target << " on " << member(owner) << ":\n"
      << raw;
  for (const auto& [if_index, name] : before) {
    std::printf("%s on %s: ifIndex %u = %s\n", target.c_str(), member(owner).c_str(), if_index, name.c_str());
    // The rule a fleet uses: the number comes from the name alone.
    EXPECT_EQ(if_index, northbound::snmp::homeIfIndex(name)) << name;
  }

  const int survivor = 1 - owner;
  ::kill(pids_[owner], SIGKILL);
  ::waitpid(pids_[owner], nullptr, 0);
  pids_[owner] = -1;
  std::map<uint32_t, std::string> after;
  EXPECT_TRUE(testing::waitUntil(
      [&] {
        after = ifNames(*snmpd_[survivor], target, &raw);
        return after.size() >= before.size();
      },
      std::chrono::seconds(60), std::chrono::milliseconds(500)))
      << target << " not served by " << member(survivor) << " after the move:\n"
      << raw;
  EXPECT_EQ(after, before) << target << " renumbered by " << member(survivor);
}

}  // namespace
}  // namespace rdmagw
