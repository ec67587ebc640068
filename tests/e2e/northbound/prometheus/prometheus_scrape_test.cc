// End to end: the real Prometheus server scrapes our endpoint every second
// and we read the values back through its HTTP API.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "models/path.h"
#include "northbound/prometheus/prometheus_server.h"
#include "tests/northbound/prometheus/test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::prometheus {
namespace {

constexpr const char* kPrometheus = "/usr/bin/prometheus";
constexpr auto kWait = rdmagw::testing::kEventWait;

// Run twice: built on every scrape, and prebuilt (refresh_period, the large
// gateway's setting): Prometheus must read both bodies alike.
class PrometheusScrapeTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (access(kPrometheus, X_OK) != 0) GTEST_SKIP() << kPrometheus << " not installed";
    testing::fillStore(&store_);
    PrometheusConfig cfg;
    cfg.listen = "127.0.0.1:0";
    cfg.refresh_period = std::chrono::milliseconds(GetParam());
    server_ = std::make_unique<PrometheusServer>(store_, cfg);
    ASSERT_TRUE(server_->start().isOk());

    ASSERT_FALSE(dir_.empty());
    ASSERT_TRUE(testing::writeFile(dir_ + "/prometheus.yml",
        "global:\n"
        "  scrape_interval: 1s\n"
        "  scrape_timeout: 1s\n"
        "  evaluation_interval: 1s\n"
        "scrape_configs:\n"
        "  - job_name: rdmagw\n"
        "    static_configs:\n"
        "      - targets: ['127.0.0.1:" + std::to_string(server_->port()) + "']\n"));
    prom_port_ = testing::freeLoopbackPort();
    ASSERT_GT(prom_port_, 0);
    startPrometheus();
  }

  void TearDown() override {
    if (pid_ > 0) {
      testing::stopChild(pid_, SIGTERM, std::chrono::seconds(5));
      pid_ = -1;
    }
    if (server_) server_->stop();
  }

  void startPrometheus() {
    const std::string log = dir_ + "/prometheus.log";
    std::vector<std::string> args = {kPrometheus,
                                     "--config.file=" + dir_ + "/prometheus.yml",
                                     "--storage.tsdb.path=" + dir_ + "/data",
                                     "--web.listen-address=127.0.0.1:" + std::to_string(prom_port_),
                                     "--log.level=warn"};
    pid_ = fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      FILE* out = freopen(log.c_str(), "w", stdout);
      if (out != nullptr) dup2(fileno(stdout), STDERR_FILENO);
      chdir(dir_.c_str());  // the console templates and anything else relative stay in the temp dir
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(kPrometheus, argv.data());
      _exit(127);
    }
  }

  // The value of an instant query with one result, or nothing yet.
  std::optional<std::string> query(const std::string& promql) {
    testing::CommandResult r = testing::runCommand(
        "curl -s --max-time 5 -G 'http://127.0.0.1:" + std::to_string(prom_port_) +
        "/api/v1/query' --data-urlencode 'query=" + promql + "'");
    if (r.exit_code != 0) return std::nullopt;
    last_response_ = r.output;
    // {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[1700000000.1,"42"]}]}}
    size_t v = r.output.find("\"value\":[");
    if (v == std::string::npos) return std::nullopt;
    size_t open = r.output.find('"', r.output.find(',', v));
    size_t close = r.output.find('"', open + 1);
    if (open == std::string::npos || close == std::string::npos) return std::nullopt;
    return r.output.substr(open + 1, close - open - 1);
  }

  // Polls until the query returns `want` (or nothing, when want is empty).
  bool waitFor(const std::string& promql, const std::string& want) {
    auto deadline = std::chrono::steady_clock::now() + kWait;
    while (std::chrono::steady_clock::now() < deadline) {
      std::optional<std::string> got = query(promql);
      if (want.empty() ? (!got && last_response_.find("\"result\":[]") != std::string::npos)
                       : (got && *got == want)) {
        return true;
      }
      int status;
      if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        ADD_FAILURE() << "prometheus exited; log:\n" << readLog();
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    ADD_FAILURE() << promql << " never became '" << want << "'; last response: " << last_response_
                  << "\nprometheus log:\n" << readLog();
    return false;
  }

  std::string readLog() {
    return testing::runCommand("tail -n 20 " + dir_ + "/prometheus.log").output;
  }

  Store store_;
  std::unique_ptr<PrometheusServer> server_;
  testing::TempDir tmp_{"rdmagw-prom"};
  std::string dir_ = tmp_.path();
  int prom_port_ = 0;
  pid_t pid_ = -1;
  std::string last_response_;
};

TEST_P(PrometheusScrapeTest, RealPrometheusScrapesOurValues) {
  EXPECT_TRUE(waitFor("up{job=\"rdmagw\"}", "1"));
  EXPECT_TRUE(waitFor(
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\"}", "42"));
  EXPECT_TRUE(waitFor("rdmagw_target_up{target=\"down1\"}", "0"));
  EXPECT_TRUE(waitFor("rdmagw_target_up{target=\"host01\",rack=\"r1\"}", "1"));
  EXPECT_TRUE(waitFor(
      "rdmagw_interface_pfc_in_pause_duration_seconds_total{interface=\"ens1f0\",priority=\"3\"}", "1.5"));
  EXPECT_TRUE(waitFor("rdmagw_rdma_device_fw_version_info{fw_version=\"14.28.2006\"}", "1"));
  // Prometheus read every sample we wrote.
  ExpositionWriter writer;
  size_t samples = 0;
  for (const std::string& line : testing::splitLines(writer.build(store_))) samples += line[0] != '#';
  EXPECT_TRUE(waitFor("scrape_samples_scraped{job=\"rdmagw\"}", std::to_string(samples)));
}

TEST_P(PrometheusScrapeTest, UpdatesAndRemovalsShowInLaterScrapes) {
  const std::string cnp =
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\"}";
  ASSERT_TRUE(waitFor(cnp, "42"));
  testing::put(&store_, "host01", testing::kCnpPath, uint64_t{4242});
  EXPECT_TRUE(waitFor(cnp, "4242"));

  // A series that leaves the store goes stale in Prometheus at the next scrape.
  const std::string pfc = "rdmagw_interface_pfc_in_pause_frames_total{target=\"host01\"}";
  ASSERT_TRUE(waitFor(pfc, "7"));
  Result<Path> prefix = Path::parse("/interfaces/interface[name=ens1f0]");
  ASSERT_TRUE(prefix.isOk());
  store_.remove("host01", *prefix);
  EXPECT_TRUE(waitFor(pfc, ""));
  EXPECT_TRUE(waitFor(cnp, "4242"));  // the rest is untouched

  // A target going down keeps its up series, now 0.
  TargetHealth h;
  h.up = false;
  h.labels = {{"rack", "r1"}};
  store_.setHealth("host01", h);
  EXPECT_TRUE(waitFor("rdmagw_target_up{target=\"host01\"}", "0"));
}

INSTANTIATE_TEST_SUITE_P(BuiltPerScrapeAndPrebuilt, PrometheusScrapeTest, ::testing::Values(0, 300),
                         [](const ::testing::TestParamInfo<int>& p) {
                           return p.param == 0 ? std::string("PerScrape") : "PrebuiltEvery" + std::to_string(p.param) + "ms";
                         });

}  // namespace
}  // namespace rdmagw::northbound::prometheus
