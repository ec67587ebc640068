// The admin socket served for real on a temp path: the status reply carries
// what the store, the self-metrics and the pipeline's probe hold; bad,
// empty, oversized and stalled requests get an error and serving goes on;
// the socket file is 0660, replaces only a dead socket and leaves with the
// server.

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "models/self_metrics.h"
#include "models/store.h"
#include "northbound/admin/admin_server.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::admin {
namespace {

using Json = nlohmann::json;
using testing::TempDir;

// Sends `bytes` as they are (no newline added), then reads until the server
// closes; a reset after some reply counts as the end (the server closes on
// bytes it did not read).
std::string ask(const std::string& path, const std::string& bytes, bool close_write = true) {
  const int fd = testing::connectUnix(path);
  if (fd < 0) return "<connect failed: " + std::string(std::strerror(errno)) + ">";
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server stopped reading: it has its answer
    sent += size_t(n);
  }
  if (close_write) ::shutdown(fd, SHUT_WR);
  std::string reply;
  char buf[4096];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, int(std::chrono::milliseconds(testing::kEventWait).count())) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    reply.append(buf, size_t(n));
  }
  ::close(fd);
  return reply;
}

Json parsed(const std::string& reply) { return Json::parse(reply, nullptr, false); }

class AdminServerTest : public ::testing::Test {
 protected:
  AdminServerTest() : path_(tmp_.file("admin.sock")) {}

  std::unique_ptr<AdminServer> server(const std::string& path, bool required = true) {
    AdminSocketConfig c;
    c.path = path;
    c.required = required;
    return std::make_unique<AdminServer>(store_, c, [this] { return states_; });
  }

  TempDir tmp_{"rdmagw-admin"};
  std::string path_;
  Store store_;
  admin::NorthboundStates states_;
};

TEST_F(AdminServerTest, StatusCarriesTargetsNorthboundsAndTheLastReload) {
  TargetHealth up;
  up.kind = "rdma-host";
  up.transport = "sysfs";
  up.up = true;
  up.last_success_ns = 1'700'000'000'000'000'000;
  up.polls = 7;
  store_.setHealth("host01", up);
  store_.apply("host01", std::vector<Update>{{"/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent", Value(uint64_t(5)), 1, {}}});
  TargetHealth down;
  down.kind = "nexus";
  down.transport = "ssh";
  down.last_error = "connect: Connection refused";
  store_.setHealth("leaf01", down);
  states_.prometheus = {true, "127.0.0.1:9464", 3, 1'700'000'001'000'000'000};
  states_.snmp = {true, "/var/agentx/master", true};
  states_.gnmi = {true, "127.0.0.1:9339"};

  auto s = server(path_);
  ASSERT_TRUE(s->start().isOk());
  ASSERT_TRUE(s->serving());

  Json j = parsed(ask(path_, "status\n"));
  ASSERT_TRUE(j.is_object()) << j;
  EXPECT_EQ(j["format"], 1);
  EXPECT_EQ(j["gateway"]["pid"], ::getpid());
  ASSERT_EQ(j["targets"].size(), 2u) << j;
  const Json& h = j["targets"][0];
  EXPECT_EQ(h["name"], "host01");
  EXPECT_EQ(h["kind"], "rdma-host");
  EXPECT_EQ(h["transport"], "sysfs");
  EXPECT_EQ(h["up"], true);
  EXPECT_EQ(h["series"], 1);
  EXPECT_EQ(h["polls"], 7);
  EXPECT_DOUBLE_EQ(h["last_success"].get<double>(), 1'700'000'000.0);
  const Json& l = j["targets"][1];
  EXPECT_EQ(l["name"], "leaf01");
  EXPECT_EQ(l["up"], false);
  EXPECT_TRUE(l["last_success"].is_null());
  EXPECT_EQ(l["last_error"], "connect: Connection refused");
  EXPECT_EQ(j["northbounds"]["prometheus"]["scrapes"], 3);
  EXPECT_DOUBLE_EQ(j["northbounds"]["prometheus"]["last_scrape"].get<double>(), 1'700'000'001.0);
  EXPECT_EQ(j["northbounds"]["snmp"]["agentx_connected"], true);
  EXPECT_EQ(j["northbounds"]["gnmi"]["address"], "127.0.0.1:9339");
  // No reload has reported itself yet.
  EXPECT_TRUE(j["reload"]["last_successful"].is_null()) << j;
  EXPECT_TRUE(j["reload"]["last_success_time"].is_null()) << j;

  // gNMI subscribers and the reload come from the self-metrics, whoever wrote them.
  const uint64_t id = SelfMetrics::instance().add([](std::vector<SelfMetricSample>* out) {
    out->push_back({"gnmi_subscribers", {"stream"}, 2});
    out->push_back({"gnmi_subscribers", {"once"}, 1});
    out->push_back({"config_last_reload_successful", {}, 0});
    out->push_back({"config_last_reload_success_timestamp", {}, 1'700'000'002});
  });
  j = parsed(ask(path_, "status\n"));
  SelfMetrics::instance().remove(id);
  EXPECT_EQ(j["northbounds"]["gnmi"]["subscribers"], 3) << j;
  EXPECT_EQ(j["reload"]["last_successful"], false) << j;
  EXPECT_DOUBLE_EQ(j["reload"]["last_success_time"].get<double>(), 1'700'000'002.0);
}

TEST_F(AdminServerTest, BadRequestsGetAnErrorAndServingGoesOn) {
  auto s = server(path_);
  ASSERT_TRUE(s->start().isOk());
  struct Case {
    std::string bytes;
    const char* error_part;
  };
  for (const Case& c : {Case{"bogus\n", "unknown request"}, Case{"", "empty request"}, Case{"\n", "empty request"},
                        Case{std::string(300, 'x') + "\n", "longer than 256"},
                        Case{std::string(1 << 20, 's'), "longer than 256"},
                        Case{std::string("sta\0tus\n", 8), "unknown request"},
                        Case{"\xff\xfe status\n", "unknown request"}}) {
    const std::string reply = ask(path_, c.bytes);
    Json j = parsed(reply);
    ASSERT_TRUE(j.is_object()) << reply;
    ASSERT_TRUE(j.contains("error")) << reply;
    EXPECT_NE(j["error"].get<std::string>().find(c.error_part), std::string::npos) << reply;
  }
  // A client that connects and never sends holds the server only for its
  // deadline: the next client is answered after it.
  const int idle = testing::connectUnix(path_);
  ASSERT_GE(idle, 0);
  Json j = parsed(ask(path_, "status\n"));
  EXPECT_TRUE(j.contains("targets")) << j;
  ::close(idle);
  // Still serving, with CRLF and surrounding blanks tolerated.
  j = parsed(ask(path_, "  status\r\n"));
  EXPECT_TRUE(j.contains("targets")) << j;
}

TEST_F(AdminServerTest, SocketIsGroupOnlyAndLeavesWithTheServer) {
  auto s = server(path_);
  ASSERT_TRUE(s->start().isOk());
  struct stat st {};
  ASSERT_EQ(::lstat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  s->stop();
  EXPECT_NE(::lstat(path_.c_str(), &st), 0);
}

TEST_F(AdminServerTest, ReplacesADeadSocketButNotALiveOneNorAnotherFile) {
  // A dead gateway's socket: bound, never unlinked, nobody listening.
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
    ::close(fd);
  }
  auto first = server(path_);
  ASSERT_TRUE(first->start().isOk());
  ASSERT_TRUE(first->serving());

  // A second gateway at the same path: refused when it asked for the path,
  // running without the socket when it was the default; the first goes on.
  auto second = server(path_, true);
  Status st = second->start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("served by a running process"), std::string::npos) << st.message();
  auto optional = server(path_, false);
  EXPECT_TRUE(optional->start().isOk());
  EXPECT_FALSE(optional->serving());
  optional.reset();
  second.reset();
  EXPECT_TRUE(parsed(ask(path_, "status\n")).contains("targets"));

  // Not a socket: never replaced.
  const std::string file = tmp_.file("not-a-socket");
  ASSERT_TRUE(testing::writeFile(file, "keep me"));
  st = server(file)->start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("not a socket"), std::string::npos) << st.message();
  EXPECT_EQ(testing::readFile(file), "keep me");
}

TEST_F(AdminServerTest, AMissingDirectoryFailsOnlyWhenThePathWasAskedFor) {
  const std::string path = tmp_.file("no-such-dir/admin.sock");
  Status st = server(path, true)->start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("no-such-dir"), std::string::npos) << st.message();
  auto optional = server(path, false);
  EXPECT_TRUE(optional->start().isOk());
  EXPECT_FALSE(optional->serving());
  // Too long for a unix socket address: a clear error, not a truncated path.
  st = server(tmp_.file(std::string(200, 'a')), true)->start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("at most"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace rdmagw::northbound::admin
