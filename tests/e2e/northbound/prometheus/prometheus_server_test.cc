#include "northbound/prometheus/prometheus_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "models/path.h"
#include "tests/northbound/prometheus/test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::prometheus {
namespace {

using testing::readFile;
using testing::runCommand;

std::string gunzip(const std::string& in) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return "<inflateInit2 failed>";
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[65536];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK);
  inflateEnd(&zs);
  return rc == Z_STREAM_END ? out : "<not gzip: " + std::to_string(rc) + ">";
}

// Drops the lines that legitimately differ between two builds: the
// previous build's duration and CPU time, and the build's own time.
std::string withoutScrapeDuration(const std::string& text) {
  std::string out;
  for (const std::string& line : testing::splitLines(text)) {
    if (line.rfind("rdmagw_exposition_duration_seconds ", 0) != 0 &&
        line.rfind("rdmagw_exposition_cpu_seconds ", 0) != 0 &&
        line.rfind("rdmagw_exposition_timestamp_seconds ", 0) != 0) {
      out += line + "\n";
    }
  }
  return out;
}

// civetweb's stop() waits out its 2 s poll quantum, so the tests share one
// server where they can and start their own only to test lifecycle.
class PrometheusServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_store_ = new Store();
    testing::fillStore(shared_store_);
    PrometheusConfig cfg;
    cfg.listen = "127.0.0.1:0";
    shared_server_ = new PrometheusServer(*shared_store_, cfg);
    Status st = shared_server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  static void TearDownTestSuite() {
    delete shared_server_;
    delete shared_store_;
    shared_server_ = nullptr;
    shared_store_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(shared_server_, nullptr);
    ASSERT_GT(shared_server_->port(), 0);
    server_ = shared_server_;
    ASSERT_FALSE(dir_.empty());
  }

  // A server of the test's own, on the shared store.
  void startOwnServer(std::string path = "/metrics", std::chrono::milliseconds refresh_period = {}) {
    PrometheusConfig cfg;
    cfg.listen = "127.0.0.1:0";
    cfg.path = std::move(path);
    cfg.refresh_period = refresh_period;
    own_server_ = std::make_unique<PrometheusServer>(*shared_store_, cfg);
    Status st = own_server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
    ASSERT_GT(own_server_->port(), 0);
    server_ = own_server_.get();
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(server_->port()) + path;
  }
  // curl exit code, HTTP status, headers and body of one request.
  struct Response {
    int exit_code = -1;
    int status = 0;
    std::string headers;
    std::string body;
  };
  Response fetch(const std::string& path, const std::string& curl_args = "") {
    Response r;
    const std::string hdr = dir_ + "/headers", body = dir_ + "/body";
    std::remove(hdr.c_str());
    std::remove(body.c_str());
    testing::CommandResult c = runCommand("curl -s --max-time 10 " + curl_args + " -D " + hdr + " -o " +
                                              body + " -w '%{http_code}' '" + url(path) + "'");
    r.exit_code = c.exit_code;
    r.status = std::atoi(c.output.c_str());
    r.headers = readFile(hdr);
    r.body = readFile(body);
    return r;
  }
  static bool hasHeader(const Response& r, const std::string& line) {
    return r.headers.find(line + "\r\n") != std::string::npos;
  }

  static Store* shared_store_;
  static PrometheusServer* shared_server_;
  PrometheusServer* server_ = nullptr;
  std::unique_ptr<PrometheusServer> own_server_;
  testing::TempDir tmp_{"rdmagw-prom"};
  std::string dir_ = tmp_.path();
};

Store* PrometheusServerTest::shared_store_ = nullptr;
PrometheusServer* PrometheusServerTest::shared_server_ = nullptr;

TEST_F(PrometheusServerTest, ServesMetricsWithTextFormatContentType) {
  Response r = fetch("/metrics");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(hasHeader(r, "Content-Type: text/plain; version=0.0.4; charset=utf-8")) << r.headers;
  EXPECT_NE(r.body.find("rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\","
                        "port=\"1\",rack=\"r1\"} 42\n"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("rdmagw_target_up{target=\"down1\"} 0\n"), std::string::npos);
  EXPECT_EQ(r.headers.find("Content-Encoding"), std::string::npos);
}

TEST_F(PrometheusServerTest, GzipWhenTheClientAcceptsIt) {
  Response plain = fetch("/metrics");
  Response gz = fetch("/metrics", "-H 'Accept-Encoding: gzip'");
  ASSERT_EQ(gz.status, 200);
  EXPECT_TRUE(hasHeader(gz, "Content-Encoding: gzip")) << gz.headers;
  EXPECT_LT(gz.body.size(), plain.body.size());
  EXPECT_EQ(withoutScrapeDuration(gunzip(gz.body)), withoutScrapeDuration(plain.body));
  // curl's own decoder agrees.
  Response decoded = fetch("/metrics", "--compressed");
  EXPECT_TRUE(hasHeader(decoded, "Content-Encoding: gzip"));
  EXPECT_EQ(withoutScrapeDuration(decoded.body), withoutScrapeDuration(plain.body));
  // A refused coding is honoured.
  Response refused = fetch("/metrics", "-H 'Accept-Encoding: gzip;q=0, identity'");
  EXPECT_EQ(refused.headers.find("Content-Encoding"), std::string::npos);
}

TEST_F(PrometheusServerTest, IndexAndHealthz) {
  Response index = fetch("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.body.find("href=\"/metrics\""), std::string::npos) << index.body;
  Response health = fetch("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
}

TEST_F(PrometheusServerTest, UnknownPathIs404) {
  EXPECT_EQ(fetch("/nope").status, 404);
  EXPECT_EQ(fetch("/metrics/extra").status, 404);
}

TEST_F(PrometheusServerTest, OtherMethodsAre405) {
  Response post = fetch("/metrics", "-X POST -d x=1");
  EXPECT_EQ(post.status, 405);
  EXPECT_TRUE(hasHeader(post, "Allow: GET, HEAD")) << post.headers;
  EXPECT_EQ(fetch("/", "-X DELETE").status, 405);
  Response head = fetch("/metrics", "-I");
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty() || head.body.rfind("HTTP/", 0) == 0);
}

TEST_F(PrometheusServerTest, CustomPathMovesTheMetrics) {
  startOwnServer("/custom/metrics");
  EXPECT_EQ(fetch("/custom/metrics").status, 200);
  EXPECT_EQ(fetch("/metrics").status, 404);
  EXPECT_NE(fetch("/").body.find("href=\"/custom/metrics\""), std::string::npos);
}

TEST_F(PrometheusServerTest, ServesFreshDataOnEveryScrape) {
  testing::put(shared_store_, "host09", testing::kCnpPath, uint64_t{1000});
  EXPECT_NE(fetch("/metrics").body.find("{target=\"host09\",device=\"mlx5_0\",port=\"1\"} 1000\n"),
            std::string::npos);
  Result<Path> all = Path::parse("/rdma");
  ASSERT_TRUE(all.isOk());
  shared_store_->remove("host09", *all);
  EXPECT_EQ(fetch("/metrics").body.find("target=\"host09\",device"), std::string::npos);
}

// The build's time as the exposition states it ("" when absent).
std::string buildTime(const std::string& text) {
  for (const std::string& line : testing::splitLines(text)) {
    if (line.rfind("rdmagw_exposition_timestamp_seconds ", 0) == 0) return line.substr(line.find(' ') + 1);
  }
  return "";
}

// refresh_period: every scrape is served the exposition last prebuilt, and
// the store's changes reach scrapes only with the next build.
TEST_F(PrometheusServerTest, PrebuiltExpositionIsServedUntilTheNextBuild) {
  startOwnServer("/metrics", std::chrono::minutes(1));  // one build in this test's life
  Response first = fetch("/metrics", "--compressed");
  ASSERT_EQ(first.status, 200);
  ASSERT_NE(buildTime(first.body), "");
  testing::put(shared_store_, "host08", testing::kCnpPath, uint64_t{808});
  Response second = fetch("/metrics", "--compressed");
  EXPECT_EQ(buildTime(second.body), buildTime(first.body));
  EXPECT_EQ(second.body.find("target=\"host08\""), std::string::npos);
  // A scrape built on demand (the shared server) has it.
  server_ = shared_server_;
  EXPECT_NE(fetch("/metrics").body.find("{target=\"host08\",device=\"mlx5_0\",port=\"1\"} 808\n"),
            std::string::npos);
  Result<Path> all = Path::parse("/rdma");
  ASSERT_TRUE(all.isOk());
  shared_store_->remove("host08", *all);
}

TEST_F(PrometheusServerTest, PrebuiltExpositionFollowsTheStoreEveryPeriod) {
  startOwnServer("/metrics", std::chrono::milliseconds(200));
  testing::put(shared_store_, "host07", testing::kCnpPath, uint64_t{707});
  const std::string line = "{target=\"host07\",device=\"mlx5_0\",port=\"1\"} 707\n";
  EXPECT_TRUE(testing::waitUntil([&] { return fetch("/metrics").body.find(line) != std::string::npos; }));
  Result<Path> all = Path::parse("/rdma");
  ASSERT_TRUE(all.isOk());
  shared_store_->remove("host07", *all);
  EXPECT_TRUE(testing::waitUntil(
      [&] { return fetch("/metrics", "--compressed").body.find("target=\"host07\",device") == std::string::npos; }));
}

// Plain scrapes of a prebuilt exposition are inflated from its gzip as they
// are sent: the same text, with its own length, and HEAD says that length.
TEST_F(PrometheusServerTest, PrebuiltExpositionPlainAndGzipAgree) {
  startOwnServer("/metrics", std::chrono::minutes(1));
  Response gz = fetch("/metrics", "-H 'Accept-Encoding: gzip'");
  Response plain = fetch("/metrics");
  ASSERT_EQ(gz.status, 200);
  ASSERT_EQ(plain.status, 200);
  EXPECT_TRUE(hasHeader(gz, "Content-Encoding: gzip")) << gz.headers;
  EXPECT_EQ(plain.headers.find("Content-Encoding"), std::string::npos) << plain.headers;
  EXPECT_EQ(gunzip(gz.body), plain.body);  // one build: even its timestamp is the same
  EXPECT_TRUE(hasHeader(plain, "Content-Length: " + std::to_string(plain.body.size()))) << plain.headers;
  EXPECT_NE(plain.body.find("rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\""), std::string::npos);
  Response head = fetch("/metrics", "-I");
  EXPECT_TRUE(hasHeader(head, "Content-Length: " + std::to_string(plain.body.size()))) << head.headers;
  Response head_gz = fetch("/metrics", "-I -H 'Accept-Encoding: gzip'");
  EXPECT_TRUE(hasHeader(head_gz, "Content-Length: " + std::to_string(gz.body.size()))) << head_gz.headers;
}

TEST_F(PrometheusServerTest, ConcurrentScrapesAllSucceed) {
  std::vector<std::thread> threads;
  std::vector<std::string> codes(6);
  for (size_t i = 0; i < codes.size(); ++i) {
    threads.emplace_back([&, i] {
      codes[i] = runCommand("curl -s --max-time 10 --compressed -o /dev/null -w '%{http_code}' '" +
                            url("/metrics") + "'").output;
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& code : codes) EXPECT_EQ(code, "200");
}

TEST_F(PrometheusServerTest, BusyPortIsAnErrorNamingTheAddress) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 4), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const std::string listen_addr = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));

  PrometheusConfig cfg;
  cfg.listen = listen_addr;
  PrometheusServer server(*shared_store_, cfg);
  Status st = server.start();
  close(fd);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find(listen_addr), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("in use"), std::string::npos) << st.message();
  EXPECT_EQ(server.port(), 0);
}

TEST_F(PrometheusServerTest, SecondServerOnTheSamePortFails) {
  PrometheusConfig cfg;
  cfg.listen = "127.0.0.1:" + std::to_string(shared_server_->port());
  PrometheusServer second(*shared_store_, cfg);
  Status st = second.start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find(cfg.listen), std::string::npos) << st.message();
  EXPECT_EQ(fetch("/healthz").status, 200);  // the first one is unharmed
}

// Debian's civetweb has no IPv6: [::1]:port is valid config but must fail
// start() with a reason, not a crash or a silent IPv4 bind.
TEST_F(PrometheusServerTest, Ipv6ListenEitherServesOrSaysWhy) {
  PrometheusConfig cfg;
  cfg.listen = "[::1]:0";
  PrometheusServer server(*shared_store_, cfg);
  Status st = server.start();
  if (st.isOk()) {
    EXPECT_GT(server.port(), 0);
  } else {
    EXPECT_NE(st.message().find("[::1]:0"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("IPv6"), std::string::npos) << st.message();
  }
}

TEST_F(PrometheusServerTest, InvalidConfigIsAnError) {
  PrometheusConfig cfg;
  cfg.listen = "nowhere";
  PrometheusServer server(*shared_store_, cfg);
  Status st = server.start();
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("listen"), std::string::npos) << st.message();
}

TEST_F(PrometheusServerTest, StopClosesThePortAndStartAgainWorks) {
  startOwnServer();
  const int port = server_->port();
  server_->stop();
  EXPECT_EQ(server_->port(), 0);
  testing::CommandResult c =
      runCommand("curl -s --max-time 5 -o /dev/null http://127.0.0.1:" + std::to_string(port) + "/metrics");
  EXPECT_NE(c.exit_code, 0);
  server_->stop();  // idempotent
  ASSERT_TRUE(server_->start().isOk());
  EXPECT_EQ(fetch("/healthz").status, 200);
}

}  // namespace
}  // namespace rdmagw::northbound::prometheus
