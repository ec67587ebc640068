// `rdmagw-demo` walked with the real Net-SNMP tools: in a switch context and a
// host context (and an ESXi host's), every IF-MIB row has ifHighSpeed,
// ifSpeed, ifMtu and ifOperStatus, with the values the store holds, and
// ifHCInOctets/ifHCOutOctets (read
// through the demo's Prometheus endpoint: the same store, another
// northbound). Both switch transports: gNMI (the demo's default) and SSH.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

using testing::TempDir;

constexpr const char* kIfTable = ".1.3.6.1.2.1.2.2.1.";
constexpr const char* kIfXTable = ".1.3.6.1.2.1.31.1.1.1.";

// column -> ifIndex -> value, from `snmpwalk -On -Oq -Oe` of a table.
using Walk = std::map<int, std::map<std::string, std::string>>;

Walk walk(const std::string& env, const std::string& args, const std::string& table) {
  Walk out;
  testing::CommandResult r =
      testing::runCommand(env + " snmpbulkwalk -On -Oq -Oe -t 3 -r 1 " + args + " " + table.substr(0, table.size() - 1) + " 2>/dev/null");
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(table, 0) != 0) continue;
    const size_t sp = line.find(' ');
    if (sp == std::string::npos) continue;
    const std::string oid = line.substr(table.size(), sp - table.size());  // column.ifIndex
    const size_t dot = oid.find('.');
    if (dot == std::string::npos) continue;
    std::string value = line.substr(sp + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    out[std::stoi(oid.substr(0, dot))][oid.substr(dot + 1)] = value;
  }
  return out;
}

// What /metrics says of one target: family -> interface -> value (the
// label value for _info families).
using Metrics = std::map<std::string, std::map<std::string, std::string>>;

Metrics metricsOf(const std::string& body, const std::string& target) {
  Metrics out;
  const std::regex sample("^(rdmagw_[a-z_]+)\\{([^}]*)\\} (\\S+)$");
  const std::regex label("([a-z_]+)=\"([^\"]*)\"");
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, sample)) continue;
    const std::string family = m[1];
    const std::string labels = m[2];
    std::map<std::string, std::string> l;
    for (auto it = std::sregex_iterator(labels.begin(), labels.end(), label); it != std::sregex_iterator(); ++it) {
      l[(*it)[1]] = (*it)[2];
    }
    if (l["target"] != target) continue;
    const std::string name = l.count("interface") ? l["interface"] : l["nic"];
    if (name.empty()) continue;
    std::string value = m[3];
    if (family.ends_with("_info")) {
      // The string is the label named after the leaf (oper_status, link_state).
      for (const auto& [k, v] : l) {
        if (family.ends_with("_" + k + "_info")) value = v;
      }
    }
    out[family][name] = value;
  }
  return out;
}

class Demo {
 public:
  Demo(const TempDir& tmp, bool gnmi) {
    port_ = testing::freeLoopbackPort();
    stdout_ = tmp.file(gnmi ? "demo-gnmi.out" : "demo-ssh.out");
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = ::open(stdout_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0) ::dup2(fd, 1);
      const std::string listen = "127.0.0.1:" + std::to_string(port_);
      const std::string dir = tmp.file(gnmi ? "sim-gnmi" : "sim-ssh");
      execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--hosts", "1", "--devices", "2", "--switches", "1", "--esxi", "1",
            "--period", "1s", "--interval", "1s", "--listen", listen.c_str(), "--gnmi", gnmi ? "on" : "off",
            "--gnmi-listen", "off", "--snmp", "on", "--dir", dir.c_str(), "--log-level", "warn",
            static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Demo() {
    if (pid_ <= 0) return;
    testing::interruptChild(pid_);
  }
  // "snmpwalk -v2c -c '<prefix>leaf01' 127.0.0.1:PORT ...": the address and
  // the community prefix, once the demo printed them.
  bool snmpArgs(std::string* address, std::string* prefix) const {
    std::ifstream in(stdout_);
    const std::regex walk_re("snmpwalk -v2c -c '([^']*)' (\\S+) \\.1\\.3\\.6\\.1\\.4\\.1\\.9\\.9\\.813\\.1\\.2");
    const std::regex prefix_re("v2c community per device: (\\S+)<device>");
    bool have_address = false, have_prefix = false;
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, walk_re)) {
        *address = m[2];
        have_address = true;
      }
      if (std::regex_search(line, m, prefix_re)) {
        *prefix = m[1];
        have_prefix = true;
      }
    }
    return have_address && have_prefix;
  }
  std::string metricsUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/metrics"; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string stdout_;
};

struct Expect {
  const char* context;
  const char* speed_family;  // bytes per second in the store's Prometheus family
  const char* mtu_family;
  const char* oper_family;
  const char* admin_family;
  const char* alias_family;  // nullptr: the device has no description
};

// Walks `context` until every ifName row has the four columns (or the wait
// ends), then compares each with the store.
void checkContext(const Demo& demo, const std::string& env, const std::string& address, const std::string& prefix,
                  const Expect& e, size_t min_rows) {
  SCOPED_TRACE(e.context);
  const std::string args = "-v2c -c '" + prefix + e.context + "' " + address;
  Walk ift, ifx;
  auto complete = [&] {
    ift = walk(env, args, kIfTable);
    ifx = walk(env, args, kIfXTable);
    if (ifx[1].size() < min_rows) return false;
    for (const auto& [index, name] : ifx[1]) {
      if (!ifx[15].count(index) || !ift[5].count(index) || !ift[4].count(index) || !ift[8].count(index) ||
          !ifx[6].count(index)) {
        return false;
      }
    }
    return true;
  };
  const bool done = testing::waitUntil(complete, testing::kEventWait, std::chrono::milliseconds(1000));
  ASSERT_GE(ifx[1].size(), min_rows) << "rows: " << ifx[1].size();
  // The store, after the walk: values that were there are there still (the
  // simulator's line rate, MTU and states do not change).
  const Metrics m = metricsOf(testing::httpGet(demo.metricsUrl()), e.context);
  for (const auto& [index, name] : ifx[1]) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(ifx[15].count(index)) << "no ifHighSpeed";
    ASSERT_TRUE(ift[5].count(index)) << "no ifSpeed";
    ASSERT_TRUE(ift[4].count(index)) << "no ifMtu";
    ASSERT_TRUE(ift[8].count(index)) << "no ifOperStatus";
    // Every row counts its octets too (the internal ii links included).
    EXPECT_TRUE(ifx[6].count(index)) << "no ifHCInOctets";
    EXPECT_TRUE(ifx[10].count(index)) << "no ifHCOutOctets";
    const std::string& port = name;  // clang 14 cannot capture a structured binding
    auto family = [&](const char* f) -> std::string {
      auto it = m.find(f);
      if (it == m.end() || !it->second.count(port)) return "absent";
      return it->second.at(port);
    };
    const std::string speed = family(e.speed_family);
    ASSERT_NE(speed, "absent") << e.speed_family;
    const double bps = std::stod(speed) * 8;
    EXPECT_EQ(ifx[15][index], std::to_string(uint64_t(std::llround(bps / 1e6))));
    EXPECT_EQ(ift[5][index], std::to_string(uint64_t(std::min(bps, 4294967295.0))));
    EXPECT_EQ(ift[4][index], family(e.mtu_family));
    const std::string oper = family(e.oper_family);
    std::string lower = oper;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    EXPECT_EQ(ift[8][index], lower == "up" ? "1" : lower == "down" ? "2" : lower == "testing" ? "3" : "4") << oper;
    // ifAdminStatus and ifAlias wherever the store has them, and only there.
    const std::string admin = family(e.admin_family);
    if (admin == "absent") {
      EXPECT_FALSE(ift[7].count(index)) << "ifAdminStatus without a store value";
    } else {
      std::string a = admin;
      std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return std::tolower(c); });
      // ifAdminStatus has no unknown(4): another word leaves the cell absent.
      if (a == "up" || a == "down" || a == "testing") {
        EXPECT_EQ(ift[7][index], a == "up" ? "1" : a == "down" ? "2" : "3") << admin;
      } else {
        EXPECT_FALSE(ift[7].count(index)) << "ifAdminStatus " << ift[7][index] << " for " << admin;
      }
    }
    const std::string alias = e.alias_family ? family(e.alias_family) : "absent";
    if (alias == "absent") {
      EXPECT_FALSE(ifx[18].count(index)) << "ifAlias without a store value";
    } else {
      EXPECT_EQ(ifx[18][index], alias);
    }
  }
  EXPECT_TRUE(done);
}

class SnmpInterfaceRowsTest : public ::testing::TestWithParam<bool> {};

TEST_P(SnmpInterfaceRowsTest, EveryRowHasSpeedMtuAndOperStatusAsTheStore) {
  TempDir tmp("rdmagw-snmp-rows");
  Demo demo(tmp, GetParam());
  std::string address, prefix;
  ASSERT_TRUE(testing::waitUntil([&] { return demo.snmpArgs(&address, &prefix); })) << "no SNMP how-to printed";
  // The tools read no user or system configuration and load no MIB.
  const std::string env = "SNMPCONFPATH=" + tmp.path() + " MIBS=";
  // leaf01: 2 host ports of host01, 1 of esx01 (vmnic0), 4 ii ports, and mgmt0 over SSH.
  checkContext(demo, env, address, prefix,
               {"leaf01", "rdmagw_interface_speed_bytes", "rdmagw_interface_mtu_bytes",
                "rdmagw_interface_oper_status_info", "rdmagw_interface_admin_status_info",
                "rdmagw_interface_description_info"},
               7);
  checkContext(demo, env, address, prefix,
               {"host01", "rdmagw_interface_speed_bytes", "rdmagw_interface_mtu_bytes",
                "rdmagw_interface_oper_status_info", "rdmagw_interface_admin_status_info", nullptr},
               2);
  checkContext(demo, env, address, prefix,
               {"esx01", "rdmagw_hypervisor_nic_speed_bytes_per_second", "rdmagw_hypervisor_nic_mtu_bytes",
                "rdmagw_hypervisor_nic_link_state_info", "rdmagw_hypervisor_nic_admin_status_info", nullptr},
               2);
}

INSTANTIATE_TEST_SUITE_P(Transports, SnmpInterfaceRowsTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Gnmi" : "Ssh"; });

}  // namespace
}  // namespace rdmagw
