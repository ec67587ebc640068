// The subagent attached to a real snmpd: values per context through
// snmpget/snmpwalk/snmpbulkwalk (v2c communities mapped to contexts, v3
// authPriv), GETNEXT across table ends, large GETBULKs, refused
// credentials, an snmpd restart, and ifIndex across a subagent restart.

#include "northbound/snmp/snmp_agent.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <sstream>
#include <thread>

#include "sim/snmpd_launcher.h"
#include "tests/northbound/snmp/snmp_test_store.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

using testing::runCommand;

constexpr const char* kIfName = ".1.3.6.1.2.1.31.1.1.1.1";
constexpr const char* kIfHCInOctets = ".1.3.6.1.2.1.31.1.1.1.6";
constexpr const char* kIfInOctets = ".1.3.6.1.2.1.2.2.1.10";

class SnmpAgentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    store_ = new Store();
    testing::fillStore(store_);
    state_ = new testing::TempDir("rdmagw-snmp-state");
    sim::SnmpdOptions opts;
    opts.contexts = {testing::kSwitch, testing::kHost, testing::kEsxi};
    opts.mib_dirs = std::string(RDMAGW_SOURCE_DIR) + "/mibs:" + RDMAGW_SOURCE_DIR + "/mibs/standard";
    snmpd_ = new sim::SnmpdLauncher(opts);
    ASSERT_TRUE(snmpd_->prepare().isOk());
    // The subagent starts first, while snmpd is absent (as the gateway may),
    // and connects once snmpd is up.
    agent_ = new SnmpAgent(*store_, config());
    Status st = agent_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
    st = snmpd_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
    ASSERT_TRUE(waitServing(testing::kSwitch)) << snmpd_->logText();
  }
  static void TearDownTestSuite() {
    if (std::getenv("RDMAGW_SNMPD_LOG")) std::fprintf(stderr, "%s\n", snmpd_->logText().c_str());
    delete agent_;
    delete snmpd_;
    delete state_;
    delete store_;
  }

  static SnmpConfig config(bool fast_path = true) {
    SnmpConfig cfg;
    cfg.agentx_fast_path = fast_path;
    cfg.agentx_socket = snmpd_->agentxSocket();
    cfg.state_dir = state_->path();
    cfg.refresh_period = std::chrono::milliseconds(200);
    cfg.agentx_ping_interval = std::chrono::seconds(1);
    return cfg;
  }
  static void startAgent(bool fast_path = true) {
    agent_ = new SnmpAgent(*store_, config(fast_path));
    Status st = agent_->start();
    ASSERT_TRUE(st.isOk()) << st.message();
    ASSERT_TRUE(waitServing(testing::kSwitch)) << snmpd_->logText();
  }
  static void stopAgent() {
    delete agent_;
    agent_ = nullptr;
  }

  // Runs a net-snmp tool against our snmpd; numeric OIDs, "OID value" lines.
  static testing::CommandResult tool(const std::string& name, const std::string& args) {
    return runCommand(snmpd_->clientEnv() + " " + name + " -On -Oq -t 2 -r 1 " + args);
  }
  static testing::CommandResult v2c(const std::string& name, const std::string& ctx, const std::string& oids) {
    return tool(name, snmpd_->v2cArgs(ctx) + " " + oids);
  }

  // Waits (up to 60 s) until the context's ifName column answers.
  static bool waitServing(const std::string& ctx) {
    for (int i = 0; i < 120; ++i) {
      testing::CommandResult r = v2c("snmpwalk", ctx, kIfName);
      if (r.exit_code == 0 && r.output.find(kIfName) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return false;
  }

  // "OID value" lines of a walk, by OID.
  static std::map<std::string, std::string> parse(const std::string& out) {
    std::map<std::string, std::string> m;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] != '.') continue;
      size_t sp = line.find(' ');
      m[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1);
    }
    return m;
  }

  // The ifIndex the subagent gave `name` in `ctx` (walks ifName); 0 if none.
  // A walk that timed out (a loaded machine, the subagent just restarted)
  // is no answer: it is asked again, up to about a minute.
  static int ifIndexOf(const std::string& ctx, const std::string& name) {
    testing::CommandResult r = v2c("snmpwalk", ctx, kIfName);
    for (int i = 0; i < 15 && r.exit_code != 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      r = v2c("snmpwalk", ctx, kIfName);
    }
    for (const auto& [oid, value] : parse(r.output)) {
      if (value == "\"" + name + "\"" || value == name) return std::stoi(oid.substr(oid.rfind('.') + 1));
    }
    return 0;
  }

  static std::string getValue(const std::string& ctx, const std::string& oid) {
    testing::CommandResult r = v2c("snmpget", ctx, oid);
    std::map<std::string, std::string> m = parse(r.output);
    return m.count(oid) ? m[oid] : r.output;
  }

  static Store* store_;
  static testing::TempDir* state_;
  static sim::SnmpdLauncher* snmpd_;
  static SnmpAgent* agent_;
};

Store* SnmpAgentTest::store_ = nullptr;
testing::TempDir* SnmpAgentTest::state_ = nullptr;
sim::SnmpdLauncher* SnmpAgentTest::snmpd_ = nullptr;
SnmpAgent* SnmpAgentTest::agent_ = nullptr;

TEST_F(SnmpAgentTest, V2cCommunityPerContextServesThatDevice) {
  int eth11 = ifIndexOf(testing::kSwitch, "eth1/1");
  ASSERT_GT(eth11, 0);
  std::string idx = "." + std::to_string(eth11);
  EXPECT_EQ(getValue(testing::kSwitch, kIfHCInOctets + idx), std::to_string(testing::kEth11InOctetsValue));
  EXPECT_EQ(getValue(testing::kSwitch, kIfInOctets + idx),
            std::to_string(testing::kEth11InOctetsValue % (uint64_t{1} << 32)));
  // The host's context has no eth1/1.
  EXPECT_EQ(ifIndexOf(testing::kHost, "eth1/1"), 0);
  EXPECT_GT(ifIndexOf(testing::kHost, "ens6"), 0);
  EXPECT_GT(ifIndexOf(testing::kEsxi, "vmnic0"), 0);
}

TEST_F(SnmpAgentTest, EveryTableAnswersWithTheStoreValues) {
  std::string sw = "." + std::to_string(ifIndexOf(testing::kSwitch, "eth1/1"));
  std::string vm = "." + std::to_string(ifIndexOf(testing::kEsxi, "vmnic0"));
  std::string ens6 = "." + std::to_string(ifIndexOf(testing::kHost, "ens6"));
  const std::string mlx_port = ".6.109.108.120.53.95.48.1";  // "mlx5_0", port 1
  struct Check {
    const char* ctx;
    std::string oid;
    std::string value;
  };
  const std::string R = ".1.3.6.1.4.1.32473.1.1";
  std::vector<Check> checks = {
      {"sw1", ".1.3.6.1.2.1.2.2.1.2" + sw, "\"eth1/1\""},               // ifDescr
      {"sw1", ".1.3.6.1.2.1.2.2.1.14" + sw, "3"},                       // ifInErrors
      {"sw1", ".1.3.6.1.2.1.2.2.1.8" + sw, "up"},                       // ifOperStatus, from "UP"
      {"sw1", ".1.3.6.1.2.1.31.1.1.1.18" + sw, "\"host01:mlx5_0\""},    // ifAlias
      {"sw1", ".1.3.6.1.2.1.31.1.1.1.10" + sw, "1234"},                 // ifHCOutOctets
      {"sw1", ".1.3.6.1.2.1.10.7.10.1.5" + sw, "77"},                   // dot3HCInPauseFrames
      {"sw1", ".1.3.6.1.2.1.10.7.10.1.4" + sw, "78"},                   // dot3OutPauseFrames
      {"sw1", ".1.3.111.2.802.1.1.21.1.1.1.2" + sw, "600"},             // ieee8021PfcRequests
      {"sw1", ".1.3.111.2.802.1.1.21.1.1.1.3" + sw, "500"},             // ieee8021PfcIndications
      {"sw1", ".1.3.6.1.4.1.9.9.813.1.1.1.1" + sw, "600"},              // cpfcIfRequests
      {"sw1", ".1.3.6.1.4.1.9.9.813.1.2.1.3" + sw + ".3", "31"},        // cpfcIfPriorityIndications
      {"sw1", ".1.3.6.1.4.1.9.9.813.1.2.1.2" + sw + ".3", "32"},        // cpfcIfPriorityRequests
      {"sw1", R + ".2.1.1" + sw, "11"},                                 // rdmagwIfInPkts
      {"sw1", R + ".2.1.12" + sw, "\"on\""},                            // rdmagwIfPfcAdminMode
      {"sw1", R + ".3.1.2" + sw + ".4", "41"},                          // rdmagwPfcPrioInPauseFrames
      {"sw1", R + ".4.1.6" + sw + ".2.113.51", "12"},                   // rdmagwQueueEcnMarkedPkts, "q3"
      {"host1", R + ".6.1.41" + mlx_port, "42"},                        // rdmagwRdmaPortNpCnpSent
      {"host1", R + ".6.1.19" + mlx_port, "5"},                         // rdmagwRdmaPortSymbolError
      {"host1", R + ".6.1.6" + mlx_port, "100000"},                     // rate, Mbit/s
      {"host1", R + ".5.1.2.6.109.108.120.53.95.48", "\"28.39.1002\""}, // firmware
      {"host1", R + ".3.1.4" + ens6 + ".3", "1500000"},                 // pause duration, us
      {"esxi1", ".1.3.6.1.2.1.2.2.1.8" + vm, "up"},                     // ifOperStatus
      {"esxi1", ".1.3.6.1.2.1.31.1.1.1.15" + vm, "25000"},              // ifHighSpeed
      {"esxi1", R + ".7.1.5" + vm, "100"},                              // rdmagwVmnicBytesReceived
      {"esxi1", R + ".2.1.8" + vm, "2"},                                // pause storm warnings
      {"esxi1", R + ".3.1.2" + vm + ".3", "9"},                         // per-priority rx pause
      {"", R + ".1.1.2.3.115.119.49", "\"nexus\""},                     // rdmagwTargetKind."sw1"
      {"", R + ".1.1.4.3.115.119.49", "1"},                             // up: true(1)
  };
  for (const Check& c : checks) {
    std::string got = getValue(c.ctx, c.oid);
    // ifOperStatus prints as up(1) or 1 depending on MIB loading.
    if (c.value == "up") {
      EXPECT_TRUE(got == "1" || got.find("up") != std::string::npos) << c.ctx << " " << c.oid << ": " << got;
    } else {
      EXPECT_EQ(got, c.value) << c.ctx << " " << c.oid;
    }
  }
}

TEST_F(SnmpAgentTest, LeafWithoutValueIsNoSuchInstance) {
  std::string eth12 = std::to_string(ifIndexOf(testing::kSwitch, "eth1/2"));
  testing::CommandResult r = v2c("snmpget", testing::kSwitch, ".1.3.6.1.2.1.31.1.1.1.10." + eth12);
  EXPECT_NE(r.output.find("No Such Instance"), std::string::npos) << r.output;
}

TEST_F(SnmpAgentTest, GetNextCrossesTableEndsIntoTheNextTable) {
  // The last object of ifTable is followed by the first of dot3PauseTable
  // (nothing registered between them in a device context).
  std::string walk = v2c("snmpwalk", testing::kSwitch, ".1.3.6.1.2.1.2.2").output;
  ASSERT_FALSE(parse(walk).empty()) << walk;
  std::string tail = walk.substr(walk.rfind("\n.") + 1);  // the walk's last line: OID order, not string order
  std::string last = tail.substr(0, tail.find(' '));
  testing::CommandResult r = v2c("snmpgetnext", testing::kSwitch, last);
  EXPECT_EQ(r.output.rfind(".1.3.6.1.2.1.10.7.10.1.", 0), 0u) << r.output;
  // And from the last object of the last table in the context: out of the view.
  testing::CommandResult end = v2c("snmpgetnext", testing::kSwitch, ".1.3.111.2.802.1.1.21.1.1.1.3.999");
  EXPECT_NE(end.output.find("No more variables"), std::string::npos) << end.output;
}

TEST_F(SnmpAgentTest, BulkWalkEqualsWalkWithLargeMaxRepetitions) {
  for (const char* ctx : {testing::kSwitch, testing::kHost, testing::kEsxi}) {
    testing::CommandResult walk = v2c("snmpwalk", ctx, ".1");
    testing::CommandResult bulk10 = tool("snmpbulkwalk", "-Cr10 " + snmpd_->v2cArgs(ctx) + " .1");
    testing::CommandResult bulk500 = tool("snmpbulkwalk", "-Cr500 " + snmpd_->v2cArgs(ctx) + " .1");
    ASSERT_EQ(walk.exit_code, 0) << walk.output;
    std::map<std::string, std::string> w = parse(walk.output);
    EXPECT_GT(w.size(), 5u) << ctx;
    EXPECT_EQ(parse(bulk10.output), w) << ctx;
    EXPECT_EQ(parse(bulk500.output), w) << ctx;
  }
}

TEST_F(SnmpAgentTest, V3AuthPrivReachesEveryContext) {
  std::string eth11 = std::to_string(ifIndexOf(testing::kSwitch, "eth1/1"));
  testing::CommandResult r = tool("snmpget", snmpd_->v3Args(testing::kSwitch) + " " + kIfHCInOctets + "." + eth11);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::to_string(testing::kEth11InOctetsValue)), std::string::npos) << r.output;
  testing::CommandResult table = tool("snmpwalk", snmpd_->v3Args("") + " .1.3.6.1.4.1.32473.1.1.1");
  EXPECT_NE(table.output.find("\"rdma-host\""), std::string::npos) << table.output;
}

TEST_F(SnmpAgentTest, WrongCredentialsAreRefused) {
  testing::CommandResult community = tool("snmpget", "-v2c -c wrong " + snmpd_->address() + " " + kIfName + ".1");
  EXPECT_NE(community.exit_code, 0);
  EXPECT_NE(community.output.find("Timeout"), std::string::npos) << community.output;
  std::string bad_v3 = "-v3 -l authPriv -u rdmagw -a SHA-256 -A not-the-password -x AES -X not-the-password -n sw1 " +
                       snmpd_->address();
  testing::CommandResult v3 = tool("snmpget", bad_v3 + " " + kIfName + ".1");
  EXPECT_NE(v3.exit_code, 0);
  EXPECT_NE(v3.output.find("uthentication"), std::string::npos) << v3.output;
}

TEST_F(SnmpAgentTest, SnmptableShowsIfXTable) {
  testing::CommandResult r = runCommand(snmpd_->clientEnv() + " snmptable -m +IF-MIB -Cf , -t 2 " +
                                            snmpd_->v2cArgs(testing::kSwitch) + " IF-MIB::ifXTable");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("eth1/1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(std::to_string(testing::kEth11InOctetsValue)), std::string::npos) << r.output;
}

TEST_F(SnmpAgentTest, NewStoreValuesAreServedAfterARefresh) {
  testing::put(store_, testing::kSwitch, testing::kEth12InOctets, uint64_t{123456});
  std::string oid = std::string(kIfHCInOctets) + "." + std::to_string(ifIndexOf(testing::kSwitch, "eth1/2"));
  agent_->refreshNow();
  bool seen = false;
  for (int i = 0; i < 120 && !seen; ++i) {
    seen = getValue(testing::kSwitch, oid) == "123456";
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(seen);
}

TEST_F(SnmpAgentTest, ContextsFollowTheStoreTargets) {
  // A new target gets its context at the next refresh; a removed one loses it.
  testing::put(store_, "late1", "/interfaces/interface[name=eth9]/state/counters/in-octets", uint64_t{99});
  agent_->refreshNow();
  const std::string get = snmpd_->v3Args("late1") + " .1.3.6.1.2.1.31.1.1.1.1.1";
  bool served = false;
  for (int i = 0; i < 120 && !served; ++i) {
    served = tool("snmpget", get).output.find("\"eth9\"") != std::string::npos;
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(served);
  store_->removeTarget("late1");
  agent_->refreshNow();
  bool gone = false;
  for (int i = 0; i < 120 && !gone; ++i) {
    gone = tool("snmpget", get).output.find("\"eth9\"") == std::string::npos;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(gone);
}

TEST_F(SnmpAgentTest, ReconnectsWhenSnmpdRestarts) {
  snmpd_->stopServer();
  Status st = snmpd_->start();
  ASSERT_TRUE(st.isOk()) << st.message();
  EXPECT_TRUE(waitServing(testing::kSwitch)) << snmpd_->logText();
  EXPECT_TRUE(waitServing(testing::kEsxi));
  // The reconnect made a new AgentX session: the fast path answers on it too.
  const uint64_t before = agent_->fastPathAnswered();
  EXPECT_GT(parse(v2c("snmpwalk", testing::kSwitch, kIfName).output).size(), 0u);
  EXPECT_GT(agent_->fastPathAnswered(), before);
}

TEST_F(SnmpAgentTest, IfIndexSameAfterSubagentRestart) {
  int before = ifIndexOf(testing::kSwitch, "eth1/2");
  ASSERT_GT(before, 0);
  stopAgent();
  startAgent();
  EXPECT_EQ(ifIndexOf(testing::kSwitch, "eth1/2"), before);
}

// The same requests through the fast path (answers on the AgentX session)
// and through Net-SNMP's own agent (the table handlers): walks, bulk walks
// with several repetition counts, GETs of present, absent and unregistered
// objects, GETNEXT off the end. Every answer must be identical.
TEST_F(SnmpAgentTest, FastPathAnswersExactlyAsNetSnmpsAgent) {
  const std::string eth11 = std::to_string(ifIndexOf(testing::kSwitch, "eth1/1"));
  const std::string eth12 = std::to_string(ifIndexOf(testing::kSwitch, "eth1/2"));
  auto sample = [&] {
    std::vector<std::string> out;
    for (const char* ctx : {testing::kSwitch, testing::kHost, testing::kEsxi}) {
      out.push_back(v2c("snmpwalk", ctx, ".1").output);
      for (const char* r : {"-Cr1 ", "-Cr7 ", "-Cr60 "}) {
        out.push_back(tool("snmpbulkwalk", r + snmpd_->v2cArgs(ctx) + " .1").output);
      }
    }
    out.push_back(v2c("snmpwalk", "", ".1.3.6.1.4.1.32473").output);  // the default context: ours only
    out.push_back(v2c("snmpget", testing::kSwitch,
                      std::string(kIfHCInOctets) + "." + eth11 + " .1.3.6.1.2.1.31.1.1.1.10." + eth12 +  // absent leaf
                          " .1.3.6.1.2.1.31.1.1.1.6.999999" +                                           // no such row
                          " .1.3.6.1.2.1.31.1.1.1.77." + eth11)                                         // no such column
                      .output);
    out.push_back(v2c("snmpgetnext", testing::kSwitch, ".1.3.6.1.2.1.31.1.1.1.10." + eth11 + " .1.3.111.2.802.1.1.21.1.1.1.3.999").output);
    out.push_back(v2c("snmpgetnext", testing::kHost, ".1.3.6.1.4.1.32473.1.1.5.1.2.6.109.108.120.53.95").output);
    return out;
  };
  const uint64_t before = agent_->fastPathAnswered();
  std::vector<std::string> fast = sample();
  EXPECT_GT(agent_->fastPathAnswered(), before);  // the fast path did answer them
  stopAgent();
  startAgent(/*fast_path=*/false);
  std::vector<std::string> net_snmp = sample();
  EXPECT_EQ(agent_->fastPathAnswered(), 0u);
  stopAgent();
  startAgent();
  ASSERT_EQ(fast.size(), net_snmp.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    EXPECT_FALSE(fast[i].empty()) << i;
    EXPECT_EQ(fast[i], net_snmp[i]) << "request set " << i;
  }
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
