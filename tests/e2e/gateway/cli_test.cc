// Drives the real `rdmagw` binary as an operator would.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

using rdmagw::testing::TempDir;

struct Output {
  int exit_code;
  std::string text;  // stdout and stderr together
};

Output run(const std::string& args) {
  rdmagw::testing::CommandResult r = rdmagw::testing::runCommand(std::string(RDMAGW_BIN) + " " + args);
  return Output{r.exit_code, r.output};
}

std::string fixture(const std::string& rel) { return std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/" + rel; }

TEST(CliTest, HelpVersionAndUnknownCommand) {
  Output help = run("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* cmd : {"run --config", "demo", "check-config", "parse --format", "fabric", "status", "check roce"}) {
    EXPECT_NE(help.text.find(cmd), std::string::npos) << cmd;
  }
  Output v = run("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_TRUE(std::regex_search(v.text, std::regex("^rdmagw [0-9]+\\.[0-9]+\\.[0-9]+")));
  EXPECT_EQ(run("frobnicate").exit_code, 2);
  EXPECT_EQ(run("run").exit_code, 2);
}

// Every subcommand, and the demo's program: --help and -h print its usage on
// stdout, exit 0 and do nothing else (the demo would otherwise start a fabric
// and never return, and run would need a config); a wrong option prints the
// usage and exits 2.
TEST(CliTest, EverySubcommandHasHelpAndRejectsWrongOptions) {
  struct Case {
    const char* program;  // the daemon, or the demo's own program
    const char* command;
    const char* usage_line;
    const char* an_option;  // an option its help must describe
  };
  for (const Case& c : {Case{RDMAGW_BIN, "run", "usage: rdmagw run --config FILE", "--log-level"},
                        Case{RDMAGW_DEMO_BIN, "", "usage: rdmagw-demo [options]", "--gnmi-delay"},
                        Case{RDMAGW_BIN, "check-config", "usage: rdmagw check-config FILE", "--help"},
                        Case{RDMAGW_BIN, "parse", "usage: rdmagw parse --format FORMAT FILE", "--list-formats"},
                        Case{RDMAGW_BIN, "fabric", "usage: rdmagw fabric", "--address"},
                        Case{RDMAGW_BIN, "status", "usage: rdmagw status", "--socket"},
                        Case{RDMAGW_BIN, "check roce", "usage: rdmagw check roce", "--group"}}) {
    const std::string cmd = std::string(c.program) + (*c.command != '\0' ? std::string(" ") + c.command : "");
    auto runIt = [&cmd](const std::string& args) {
      rdmagw::testing::CommandResult r = rdmagw::testing::runCommand(cmd + " " + args);
      return Output{r.exit_code, r.output};
    };
    for (const char* flag : {"--help", "-h"}) {
      rdmagw::testing::CommandResult r = rdmagw::testing::runCommand(cmd + " " + flag + " 2>/dev/null");
      EXPECT_EQ(r.exit_code, 0) << cmd << " " << flag << ": " << r.output;
      EXPECT_EQ(r.output.rfind(c.usage_line, 0), 0u) << cmd << " " << flag << ": " << r.output;
      EXPECT_NE(r.output.find(c.an_option), std::string::npos) << cmd << ": " << r.output;
    }
    // Help wins even after other arguments, and the demo does not start.
    Output late = runIt("--log-level info --help");
    EXPECT_EQ(late.exit_code, 0) << cmd << ": " << late.text;
    EXPECT_EQ(late.text.find("simulat" "ed switches"), std::string::npos) << late.text;
    Output wrong = runIt("--no-such-option");
    EXPECT_EQ(wrong.exit_code, 2) << cmd << ": " << wrong.text;
    EXPECT_NE(wrong.text.find("unknown option '--no-such-option'"), std::string::npos) << wrong.text;
    EXPECT_NE(wrong.text.find(c.usage_line), std::string::npos) << wrong.text;
  }
  Output missing_value = run("run --config");
  EXPECT_EQ(missing_value.exit_code, 2);
  EXPECT_NE(missing_value.text.find("option --config needs a value"), std::string::npos) << missing_value.text;
  Output extra = run("check-config a.yaml b.yaml");
  EXPECT_EQ(extra.exit_code, 2);
  EXPECT_NE(extra.text.find("unexpected argument 'b.yaml'"), std::string::npos) << extra.text;
}

// The daemon carries no simulator: its `demo` names the demo's program,
// answers --help like every command, and refuses to run anything (exit 2).
TEST(CliTest, DaemonDemoNamesTheDemoProgram) {
  Output help = run("demo --help");
  EXPECT_EQ(help.exit_code, 0) << help.text;
  EXPECT_EQ(help.text.rfind("usage: rdmagw demo", 0), 0u) << help.text;
  EXPECT_NE(help.text.find("rdmagw-demo"), std::string::npos) << help.text;
  Output refused = run("demo --hosts 2");
  EXPECT_EQ(refused.exit_code, 2) << refused.text;
  EXPECT_NE(refused.text.find("rdmagw-demo"), std::string::npos) << refused.text;
  EXPECT_EQ(refused.text.find("metrics at"), std::string::npos) << refused.text;
}

TEST(CliTest, CheckConfigReportsFileLineAndKey) {
  TempDir tmp("rdmagw-cli");
  const fs::path dir = tmp.path();
  std::ofstream(dir / "good.yaml") << "targets:\n  - name: h1\n    kind: rdma-host\n    rdma: {sysfs_root: /sys}\n";
  std::ofstream(dir / "bad.yaml") << "targets:\n  - name: h1\n    kind: rdma-host\n    colour: blue\n";
  Output good = run("check-config " + (dir / "good.yaml").string());
  EXPECT_EQ(good.exit_code, 0) << good.text;
  EXPECT_NE(good.text.find("OK (1 target(s)"), std::string::npos) << good.text;
  Output bad = run("check-config " + (dir / "bad.yaml").string());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.text.find("bad.yaml:4:5: targets[0].colour: unknown key"), std::string::npos) << bad.text;
  Output missing = run("check-config " + (dir / "none.yaml").string());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.text.find("none.yaml: cannot open"), std::string::npos);
}

// The example shipped for operators must stay valid.
TEST(CliTest, ShippedExampleConfigIsValid) {
  Output o = run("check-config " + std::string(RDMAGW_SOURCE_DIR) + "/examples/rdmagw.yaml");
  EXPECT_EQ(o.exit_code, 0) << o.text;
  EXPECT_NE(o.text.find("OK (5 target(s)"), std::string::npos) << o.text;  // four, and one of its targets_dir
  EXPECT_NE(o.text.find("target leaf1: kind nexus, transport auto"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("target leaf2: kind nexus, transport gnmi"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("gnmi: 0.0.0.0:9339, TLS cert /etc/rdmagw/gnmi-server.crt, client certificates from "
                        "/etc/rdmagw/gnmi-clients-ca.crt"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("users: file /etc/rdmagw/gnmi-users"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("- 10.0.0.20:162: SNMPv3 inform, user rdmagw authPriv SHA-256/AES"), std::string::npos) << o.text;
}

TEST(CliTest, ParseListsFormats) {
  Output o = run("parse --list-formats");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.text.find("sysfs-dump"), std::string::npos);
  EXPECT_NE(o.text.find("ethtool-s"), std::string::npos);
  EXPECT_EQ(run("parse --format nosuch " + fixture("rdma/sysfs_infiniband_mlx5_procfs_fixture.txt")).exit_code, 2);
}

// The recorded procfs fixture: port_xmit_data counts 4-octet words.
TEST(CliTest, ParseSysfsDumpFixture) {
  Output o = run("parse --format sysfs-dump " + fixture("rdma/sysfs_infiniband_mlx5_procfs_fixture.txt"));
  ASSERT_EQ(o.exit_code, 0) << o.text;
  const std::string port = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/";
  EXPECT_NE(o.text.find(port + "counters/port-xmit-octets = 11523046035392\n"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find(port + "counters/port-rcv-octets = 72505381512\n"), std::string::npos);
  EXPECT_NE(o.text.find(port + "hw-counters/duplicate-request = 41\n"), std::string::npos);
  EXPECT_NE(o.text.find(port + "rate = 25000000000\n"), std::string::npos);
  EXPECT_NE(o.text.find("/rdma/devices/device[name=mlx5_0]/state/fw-version = \"14.28.2006\"\n"), std::string::npos);
}

TEST(CliTest, ParseEthtoolFixture) {
  Output o = run("parse --format ethtool-s " +
                 fixture("rdma/LINUX_PROXY_mlx5_ethtool_S_pause_counters__cx4lx_blog.txt"));
  ASSERT_EQ(o.exit_code, 0) << o.text;
  EXPECT_NE(o.text.find("/ethernet/pfc/state/counters/out-pause-ctrl-frames = 1266552\n"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("/ethernet/pfc/state/counters/out-global-pause-duration = 555665182\n"), std::string::npos);
}

// A recorded NX-API JSON-RPC answer: the body reaches the collector's
// `show interface counters errors` parser (told from `show interface` by its
// columns); outputs no collector reads are warnings, an HTML page a failure.
TEST(CliTest, ParseNxapiEnvelopeFixture) {
  Output o = run("parse --format nxapi-envelope " +
                 fixture("nxapi/show_interface_counters_errors_jsonrpc_split_rows__go-cisco-nx-api.json"));
  ASSERT_EQ(o.exit_code, 0) << o.text;
  EXPECT_NE(o.text.find("/interfaces/interface[name=Ethernet1/1]/state/counters/out-errors = 29983041\n"),
            std::string::npos)
      << o.text;
  EXPECT_NE(o.text.find("/interfaces/interface[name=Ethernet1/1]/state/counters/out-discards = 35393307\n"),
            std::string::npos);
  Output version = run("parse --format nxapi-envelope " +
                       fixture("nxapi/jsonrpc_batch_resp_show_hostname+show_version_nxosv7.3__nxapi-plumbing.json"));
  EXPECT_EQ(version.exit_code, 1) << version.text;
  EXPECT_NE(version.text.find("warning: output 1 (hostname): no Nexus collector reads this\n"), std::string::npos)
      << version.text;
  Output html = run("parse --format nxapi-envelope " + fixture("nxapi/http_401_nginx_html_body__go-cisco-nx-api.html"));
  EXPECT_EQ(html.exit_code, 1);
  EXPECT_NE(html.text.find("401 Authorization Required"), std::string::npos) << html.text;
}

TEST(CliTest, ParseGarbageNeverCrashes) {
  TempDir tmp("rdmagw-cli");
  const fs::path dir = tmp.path();
  std::ofstream(dir / "junk.txt") << "\x01\x02 not: a: counter\n% Invalid command at '^' marker.\n/sys/class/infiniband/x/ports/1/counters/symbol_error: 12ab\n";
  for (const char* fmt : {"sysfs-dump", "ethtool-s", "nxapi-envelope"}) {
    Output o = run(std::string("parse --format ") + fmt + " " + (dir / "junk.txt").string());
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1) << fmt << ": " << o.exit_code << " " << o.text;
  }
}

// The README's demo: simulator + gateway in one process; /metrics shows the
// RDMA congestion counters with host/device/port/priority labels, they move,
// and Ctrl-C (SIGINT) stops both cleanly.
TEST(CliTest, DemoServesMovingMetricsAndStopsOnSigint) {
  TempDir tmp("rdmagw-cli");
  const fs::path dir = tmp.path();
  const int port = rdmagw::testing::freeLoopbackPort();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string listen = "127.0.0.1:" + std::to_string(port);
    std::string d = (dir / "sim").string();
    execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--hosts", "3", "--period", "200ms", "--interval", "300ms",
          "--listen", listen.c_str(), "--gnmi-listen", "127.0.0.1:0", "--dir", d.c_str(), "--log-level", "warn",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  const std::regex cnp(R"(rdmagw_rdma_port_np_cnp_sent_total\{target="host01",device="mlx5_0",port="1"[^}]*\} ([0-9]+))");
  std::string body;
  std::smatch m;
  // Polls /metrics until `re` matches (generous limit: see kEventWait).
  auto scrapeUntil = [&](const std::regex& re) {
    return rdmagw::testing::waitUntil(
        [&] {
          body = rdmagw::testing::httpGet(url);
          return std::regex_search(body, re);
        },
        rdmagw::testing::kEventWait, std::chrono::milliseconds(250));
  };
  // Every host polls on its own schedule: the last one's first poll may land
  // after host01's counters do.
  scrapeUntil(std::regex(R"(rdmagw_target_up\{target="host03",fabric="sim"\} 1)"));
  scrapeUntil(cnp);
  ASSERT_TRUE(std::regex_search(body, m, cnp)) << body.substr(0, 2000);
  for (const char* family : {"rdmagw_rdma_port_np_ecn_marked_roce_packets_total{", "rdmagw_rdma_port_rp_cnp_handled_total{",
                             "rdmagw_rdma_port_xmit_bytes_total{", "rdmagw_rdma_port_symbol_error_total{",
                             "rdmagw_target_up{target=\"host03\",fabric=\"sim\"} 1"}) {
    EXPECT_NE(body.find(family), std::string::npos) << family;
  }
  EXPECT_TRUE(std::regex_search(body, std::regex(R"(rdmagw_interface_pfc_(in|out)_pause_frames_total\{target="host0[1-3]",interface="ens1f0np0",priority="3")")));

  // The simulated Nexus and ESXi hosts answer over a real sshd (root only).
  if (geteuid() == 0) {
    const std::regex switch_up(R"(rdmagw_target_up\{target="leaf01"[^}]*\} 1)");
    scrapeUntil(switch_up);
    EXPECT_TRUE(std::regex_search(body, switch_up)) << "leaf01 not up";
    const std::regex esx_up(R"(rdmagw_target_up\{target="esx01"[^}]*\} 1)");
    scrapeUntil(esx_up);
    EXPECT_TRUE(std::regex_search(body, esx_up));
    // The leaf streams over gNMI (TLS, credentials by reference); SSH is its fallback.
    const std::regex leaf_gnmi(R"(rdmagw_target_info\{target="leaf01",kind="nexus",transport="gnmi")");
    scrapeUntil(leaf_gnmi);
    EXPECT_TRUE(std::regex_search(body, leaf_gnmi));
    // Switch PFC per port and priority, internal ii ports included.
    EXPECT_TRUE(std::regex_search(body, std::regex(R"(rdmagw_interface_pfc_(in|out)_pause_frames_total\{target="leaf01",interface="ii1/1/1",priority="3")")));
    EXPECT_TRUE(std::regex_search(body, std::regex(R"(rdmagw_interface_pfc_(in|out)_pause_frames_total\{target="leaf01",interface="Ethernet1/[0-9]+",priority="3")")));
    EXPECT_NE(body.find("rdmagw_qos_queue_dropped_packets_total{target=\"leaf01\""), std::string::npos);
    EXPECT_NE(body.find("rdmagw_qos_queue_ecn_marked_packets_total{target=\"leaf01\""), std::string::npos);
    // ESXi vmnic pause counters.
    EXPECT_TRUE(std::regex_search(body, std::regex(R"(rdmagw_hypervisor_nic_pfc_rx_pause_frames_total\{target="esx01",nic="vmnic0",priority="3")")));
  }

  // Sum CNPs over the fabric twice: the simulated congestion makes it grow.
  auto total = [&](const std::string& text) {
    unsigned long long sum = 0;
    std::regex any(R"(rdmagw_rdma_port_np_cnp_sent_total\{[^}]*\} ([0-9]+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), any); it != std::sregex_iterator(); ++it) {
      sum += std::stoull((*it)[1]);
    }
    return sum;
  };
  const unsigned long long first = total(body);
  unsigned long long later = first;
  rdmagw::testing::waitUntil([&] {
    later = total(rdmagw::testing::httpGet(url));
    return later > first;
  });
  EXPECT_GT(later, first);

  const std::optional<int> status = rdmagw::testing::interruptChild(pid);
  ASSERT_TRUE(status) << "demo did not stop on SIGINT";
  EXPECT_TRUE(WIFEXITED(*status));
  EXPECT_EQ(WEXITSTATUS(*status), 0);
}

}  // namespace
