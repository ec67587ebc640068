// `rdmagw status` (the real binary) against `rdmagw-demo` (the real binary,
// with its simulated hosts, switch over gNMI, ESXi host over sshd and its own
// snmpd): the table and --json carry every target and northbound; hiding a
// host's sysfs tree takes it down (exit 1) and showing it again brings it
// back (exit 0); the demo's admin socket answers bad and oversized requests
// with an error and keeps serving; an open gNMI stream is counted; with the
// demo gone, exit 2. Plus the
// table rendered from crafted replies.

#include <fcntl.h>
#include <gtest/gtest.h>

#include "northbound/admin/status_report.h"
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "gateway/config/config.h"
#include "gateway/cli/status_table.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

using Json = nlohmann::json;
using testing::TempDir;
namespace fs = std::filesystem;

// stdout alone (the table or the JSON), with the exit status.
testing::CommandResult status(const std::string& socket, const std::string& flags = "") {
  return testing::runCommand("{ " + std::string(RDMAGW_BIN) + " status --socket " + socket + " " + flags +
                                 " 2>/dev/null; }");
}

// The raw reply of the admin socket to `bytes`.
std::string rawExchange(const std::string& path, const std::string& bytes) {
  const int fd = testing::connectUnix(path);
  if (fd < 0) return "";
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += size_t(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string reply;
  char buf[4096];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 90'000) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    reply.append(buf, size_t(n));
  }
  ::close(fd);
  return reply;
}

class Demo {
 public:
  explicit Demo(const TempDir& tmp) : dir_(tmp.file("sim")), stdout_(tmp.file("demo.out")) {
    metrics_port_ = testing::freeLoopbackPort();
    gnmi_port_ = testing::freeLoopbackPort();
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = ::open(stdout_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0) ::dup2(fd, 1);
      const std::string listen = "127.0.0.1:" + std::to_string(metrics_port_);
      const std::string gnmi = "127.0.0.1:" + std::to_string(gnmi_port_);
      execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--hosts", "2", "--devices", "1", "--switches", "1", "--esxi", "1",
            "--period", "1s", "--interval", "1s", "--listen", listen.c_str(), "--gnmi", "on", "--gnmi-listen",
            gnmi.c_str(), "--snmp", "on", "--dir", dir_.c_str(), "--log-level", "warn", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Demo() { stop(); }
  void stop() {
    if (pid_ > 0) testing::interruptChild(pid_);
    pid_ = -1;
  }
  // The socket the demo printed ("rdmagw status --socket PATH"), once it did.
  std::string socket() const {
    std::ifstream in(stdout_);
    const std::regex re("rdmagw status --socket (\\S+)");
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, re)) return m[1];
    }
    return "";
  }
  const std::string& dir() const { return dir_; }
  std::string metricsUrl() const { return "http://127.0.0.1:" + std::to_string(metrics_port_) + "/metrics"; }
  std::string gnmiAddress() const { return "127.0.0.1:" + std::to_string(gnmi_port_); }

 private:
  std::string dir_, stdout_;
  int metrics_port_ = 0, gnmi_port_ = 0;
  pid_t pid_ = -1;
};

Json statusJson(const std::string& socket) { return Json::parse(status(socket, "--json").output, nullptr, false); }

const Json* targetNamed(const Json& j, const std::string& name) {
  for (const Json& t : j["targets"]) {
    if (t["name"] == name) return &t;
  }
  return nullptr;
}

TEST(StatusCommandTest, ShowsTheRunningDemoAndItsDownTargets) {
  TempDir tmp("rdmagw-status");
  Demo demo(tmp);
  std::string socket;
  ASSERT_TRUE(testing::waitUntil([&] { return !(socket = demo.socket()).empty(); })) << "the demo printed no socket";
  // Every target up (the switch over gNMI, the ESXi host over sshd) and the
  // subagent attached to the demo's snmpd.
  // A gNMI target is marked up on its first data and its last success
  // follows with the next health refresh (up to a second later): wait for both.
  ASSERT_TRUE(testing::waitUntil([&] {
    Json j = statusJson(socket);
    if (status(socket).exit_code != 0 || !j.is_object() || j["targets"].size() != 4) return false;
    for (const Json& t : j["targets"]) {
      if (!t["last_success"].is_number()) return false;
    }
    return j["northbounds"]["snmp"]["agentx_connected"] == true;
  })) << status(socket).output;
  ASSERT_FALSE(testing::httpGet(demo.metricsUrl()).empty());  // a scrape to show

  Json j = statusJson(socket);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["format"], 1);
  std::set<std::string> kinds;
  std::string host;  // an RDMA host, read from its sysfs tree
  for (const Json& t : j["targets"]) {
    kinds.insert(t["kind"].get<std::string>());
    EXPECT_TRUE(t["up"].get<bool>()) << t;
    EXPECT_GT(t["series"].get<uint64_t>(), 0u) << t;
    EXPECT_TRUE(t["last_success"].is_number()) << t;
    if (t["kind"] == "rdma-host" && host.empty()) host = t["name"];
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"rdma-host", "nexus", "esxi"})) << j;
  const Json& nb = j["northbounds"];
  EXPECT_EQ(nb["prometheus"]["enabled"], true);
  EXPECT_GE(nb["prometheus"]["scrapes"].get<uint64_t>(), 1u) << nb;
  EXPECT_TRUE(nb["prometheus"]["last_scrape"].is_number()) << nb;
  EXPECT_EQ(nb["snmp"]["enabled"], true);
  EXPECT_EQ(nb["gnmi"]["enabled"], true);
  EXPECT_EQ(nb["gnmi"]["address"], demo.gnmiAddress());
  EXPECT_TRUE(j["reload"]["last_successful"].is_null()) << j;

  testing::CommandResult text = status(socket);
  EXPECT_EQ(text.exit_code, 0) << text.output;
  for (const Json& t : j["targets"]) {
    EXPECT_TRUE(std::regex_search(text.output, std::regex("\n" + t["name"].get<std::string>() + " +" +
                                                          t["kind"].get<std::string>() + " +" +
                                                          t["transport"].get<std::string>() + " +up ")))
        << text.output;
  }
  EXPECT_TRUE(std::regex_search(text.output, std::regex("\nprometheus +127\\.0\\.0\\.1:[0-9]+ +last scrape "))) << text.output;
  EXPECT_TRUE(std::regex_search(text.output, std::regex("\nsnmp +agentx \\S+ +AgentX connected"))) << text.output;
  EXPECT_TRUE(std::regex_search(text.output, std::regex("\ngnmi +" + demo.gnmiAddress() + " +0 subscribers"))) << text.output;
  EXPECT_NE(text.output.find("reload: no reload yet"), std::string::npos) << text.output;

  // A gNMI subscriber (an independent Python client) is counted while its stream is open.
  {
    std::string error;
    ASSERT_TRUE(testing::preparePythonClient(&error)) << error;
    testing::PythonClient client(
        demo.gnmiAddress(), R"({"rpc": "sub", "mode": "STREAM", "encoding": "JSON", "timeout": 120, "target": "leaf01",
                               "subs": [{"path": "/interfaces/interface/state/mtu", "mode": "ON_CHANGE"}]})");
    const std::vector<std::string> lines = client.until("SYNC");
    ASSERT_TRUE(!lines.empty() && lines.back() == "SYNC") << (lines.empty() ? "" : lines.back());
    EXPECT_TRUE(testing::waitUntil([&] { return statusJson(socket)["northbounds"]["gnmi"]["subscribers"] == 1; }))
        << statusJson(socket);
    EXPECT_TRUE(std::regex_search(status(socket).output, std::regex("\\ngnmi +\\S+ +1 subscriber\\n")));
  }
  EXPECT_TRUE(testing::waitUntil([&] { return statusJson(socket)["northbounds"]["gnmi"]["subscribers"] == 0; }))
      << statusJson(socket);

  // Bad and oversized requests on the running gateway: an error each, and it goes on.
  for (const std::string& bad : {std::string("shutdown\n"), std::string(1 << 20, 'x')}) {
    Json e = Json::parse(rawExchange(socket, bad), nullptr, false);
    ASSERT_TRUE(e.is_object() && e.contains("error")) << e;
  }
  EXPECT_EQ(status(socket).exit_code, 0);

  // The host's sysfs tree hidden: its collection fails, the target is down.
  ASSERT_FALSE(host.empty());
  const fs::path sys = fs::path(demo.dir()) / host / "sys";
  fs::rename(sys, fs::path(demo.dir()) / host / "sys.hidden");
  ASSERT_TRUE(testing::waitUntil([&] { return status(socket).exit_code == 1; })) << status(socket).output;
  j = statusJson(socket);
  const Json* down = targetNamed(j, host);
  ASSERT_NE(down, nullptr) << j;
  EXPECT_EQ((*down)["up"], false);
  EXPECT_FALSE((*down)["last_error"].get<std::string>().empty()) << *down;
  text = status(socket);
  EXPECT_TRUE(std::regex_search(text.output, std::regex("\n" + host + " +rdma-host +sysfs +DOWN "))) << text.output;
  EXPECT_NE(text.output.find("targets 3/4 up"), std::string::npos) << text.output;

  // Back: up again.
  fs::rename(fs::path(demo.dir()) / host / "sys.hidden", sys);
  EXPECT_TRUE(testing::waitUntil([&] { return status(socket).exit_code == 0; })) << status(socket).output;

  // No gateway: exit 2 with a message on stderr, nothing on stdout.
  demo.stop();
  EXPECT_FALSE(fs::exists(socket)) << "the demo left its socket behind";
  testing::CommandResult gone = status(socket);
  EXPECT_EQ(gone.exit_code, 2);
  EXPECT_TRUE(gone.output.empty()) << gone.output;
  gone = testing::runCommand(std::string(RDMAGW_BIN) + " status --json --socket " + socket);
  EXPECT_EQ(gone.exit_code, 2);
  EXPECT_NE(gone.output.find("cannot reach the gateway"), std::string::npos) << gone.output;
}

TEST(StatusCommandTest, NothingListeningIsExitTwo) {
  TempDir tmp("rdmagw-status");
  // A socket file nobody accepts on, as a killed gateway leaves it.
  const std::string path = tmp.file("dead.sock");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);
  testing::CommandResult r = testing::runCommand(std::string(RDMAGW_BIN) + " status --socket " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("nothing is listening"), std::string::npos) << r.output;
  r = testing::runCommand(std::string(RDMAGW_BIN) + " status --socket " + tmp.file("none.sock"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no such socket"), std::string::npos) << r.output;
}

TEST(StatusTableTest, RendersTargetsNorthboundsAndReload) {
  const std::string reply = R"({"format":1,"gateway":{"version":"1.2.3","pid":42,"started":1000,"now":1330},
    "reload":{"last_successful":false,"last_success_time":1300},
    "targets":[{"name":"host01","kind":"rdma-host","transport":"sysfs","up":true,"last_success":1329,
                "last_error":"","series":12},
               {"name":"leaf01","kind":"nexus","transport":"ssh","up":false,"last_success":null,
                "last_error":"connect: Connection refused\nsecond line","series":0}],
    "northbounds":{"prometheus":{"enabled":true,"listen":"127.0.0.1:9464","scrapes":0,"last_scrape":null},
                   "snmp":{"enabled":true,"agentx_socket":"/var/agentx/master","agentx_connected":false},
                   "gnmi":{"enabled":false}}})";
  Result<StatusView> v = viewStatus(reply);
  ASSERT_TRUE(v.isOk()) << v.status().toString();
  EXPECT_EQ(v->exit_code, 1);
  EXPECT_EQ(v->targets_down, 1u);
  const std::string& t = v->table;
  EXPECT_NE(t.find("rdmagw 1.2.3  pid 42  uptime 5m30s  targets 1/2 up"), std::string::npos) << t;
  EXPECT_TRUE(std::regex_search(t, std::regex("\nhost01 +rdma-host +sysfs +up +1s ago +12 +-\n"))) << t;
  EXPECT_TRUE(std::regex_search(t, std::regex("\nleaf01 +nexus +ssh +DOWN +never +0 +connect: Connection refused\n"))) << t;
  EXPECT_TRUE(std::regex_search(t, std::regex("\nprometheus +127.0.0.1:9464 +not scraped yet\n"))) << t;
  EXPECT_TRUE(std::regex_search(t, std::regex("\nsnmp +agentx /var/agentx/master +AgentX NOT connected"))) << t;
  EXPECT_TRUE(std::regex_search(t, std::regex("\ngnmi +- +off\n"))) << t;
  EXPECT_NE(t.find("reload: LAST RELOAD FAILED (running the previous configuration); last success 30s ago"), std::string::npos) << t;

  // All up: exit 0; no reload fields: none yet.
  Result<StatusView> up = viewStatus(R"({"format":1,"gateway":{"now":5},"targets":[{"name":"a","up":true}]})");
  ASSERT_TRUE(up.isOk());
  EXPECT_EQ(up->exit_code, 0);
  EXPECT_NE(up->table.find("reload: no reload yet"), std::string::npos) << up->table;
}

// A fleet member's reply: built from the membership's self-metrics, shown
// as one line; a degraded member says so.
TEST(StatusTableTest, AFleetMemberShowsItsClusterState) {
  const std::vector<SelfMetricSample> self = {{"cluster_member_info", {"fabric-a", "gw2", "degraded"}, 1},
                                              {"cluster_members", {}, 3},
                                              {"cluster_owned_targets", {}, 41}};
  const std::string reply = northbound::admin::buildStatusJson({}, {}, self, {});
  EXPECT_NE(reply.find(R"("cluster":{"name":"fabric-a","member":"gw2","state":"degraded","members":3,"owned_targets":41})"),
            std::string::npos) << reply;
  Result<StatusView> v = viewStatus(reply);
  ASSERT_TRUE(v.isOk()) << v.status().toString();
  EXPECT_NE(v->table.find("cluster: member gw2 of fleet fabric-a, NOT HEALTHY: degraded, 3 members, owns 41 targets"),
            std::string::npos) << v->table;
  EXPECT_EQ(northbound::admin::buildStatusJson({}, {}, {}, {}).find("cluster"), std::string::npos)
      << "no cluster outside a fleet";
}

TEST(StatusTableTest, RefusesWhatIsNotAStatus) {
  for (const char* bad : {"", "not json", "[1,2]", R"({"error":"unknown request"})", R"({"format":2,"gateway":{},"targets":[]})",
                          R"({"format":1,"gateway":{"now":"x"},"targets":[{"name":1,"up":"yes","series":"many"}]})",
                          R"({"format":1,"gateway":{},"targets":[],"northbounds":{"prometheus":{"enabled":true,"scrapes":"x"}}})"}) {
    Result<StatusView> v = viewStatus(bad);
    if (std::string(bad).find("\"name\":1") != std::string::npos) {
      // Odd field types inside a target render as blanks rather than fail.
      EXPECT_TRUE(v.isOk()) << bad;
      continue;
    }
    EXPECT_FALSE(v.isOk()) << bad;
  }
  Result<StatusView> e = viewStatus(R"({"error":"unknown request \"x\""})");
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().message().find("unknown request"), std::string::npos);
  EXPECT_EQ(shortDuration(59), "59s");
  EXPECT_EQ(shortDuration(3600 * 26 + 5), "1d02h");
}

// The config key: absent is the default path, served when it can be; a path
// is required; off is none; a path too long for a socket is refused.
TEST(AdminSocketConfigTest, ReadsTheKey) {
  Result<GatewayConfig> c = parseConfig("log_level: info\n", "a.yaml");
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  EXPECT_EQ(c->admin.path, "/run/rdmagw/admin.sock");
  EXPECT_FALSE(c->admin.required);
  c = parseConfig("admin_socket: /tmp/gw.sock\n", "a.yaml");
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  EXPECT_EQ(c->admin.path, "/tmp/gw.sock");
  EXPECT_TRUE(c->admin.required);
  c = parseConfig("admin_socket: off\n", "a.yaml");
  ASSERT_TRUE(c.isOk()) << c.status().toString();
  EXPECT_TRUE(c->admin.path.empty());
  c = parseConfig("log_level: info\nadmin_socket: /" + std::string(120, 'a') + "\n", "a.yaml");
  ASSERT_FALSE(c.isOk());
  EXPECT_NE(c.status().message().find("a.yaml:2:15: admin_socket: a unix socket path has at most"), std::string::npos)
      << c.status().message();
  c = parseConfig("admin_socket: \"\"\n", "a.yaml");
  EXPECT_FALSE(c.isOk());
  c = parseConfig("admin_socket: false\n", "a.yaml");
  ASSERT_FALSE(c.isOk());
  EXPECT_NE(c.status().message().find("must be an absolute path"), std::string::npos) << c.status().message();
}

}  // namespace
}  // namespace rdmagw::gateway
