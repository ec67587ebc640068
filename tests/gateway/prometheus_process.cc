#include "tests/gateway/prometheus_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace rdmagw::testing {

bool PrometheusProcess::installed() { return access(kBinary, X_OK) == 0; }

PrometheusProcess::PrometheusProcess(int scrape_port)
    : PrometheusProcess("  - job_name: rdmagw\n    static_configs:\n      - targets: ['127.0.0.1:" +
                        std::to_string(scrape_port) + "']\n") {}

PrometheusProcess::PrometheusProcess(const std::string& scrape_config) {
  const std::string dir = tmp_.path();
  testing::writeFile(dir + "/prometheus.yml",
                         "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n" + scrape_config);
  port_ = testing::freeLoopbackPort();
  std::vector<std::string> args = {kBinary, "--config.file=" + dir + "/prometheus.yml",
                                   "--storage.tsdb.path=" + dir + "/data",
                                   "--web.listen-address=127.0.0.1:" + std::to_string(port_), "--log.level=warn"};
  const std::string log_file = dir + "/prometheus.log";
  pid_ = fork();
  if (pid_ == 0) {
    FILE* out = freopen(log_file.c_str(), "w", stdout);
    if (out != nullptr) dup2(fileno(stdout), STDERR_FILENO);
    if (chdir(dir.c_str()) != 0) _exit(126);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(kBinary, argv.data());
    _exit(127);
  }
}

PrometheusProcess::~PrometheusProcess() {
  if (pid_ <= 0) return;
  testing::stopChild(pid_, SIGTERM, std::chrono::seconds(10));
}

std::string PrometheusProcess::queryJson(const std::string& promql) {
  testing::CommandResult r = testing::runCommand(
      "curl -s --max-time 5 -G 'http://127.0.0.1:" + std::to_string(port_) + "/api/v1/query' --data-urlencode 'query=" +
      promql + "'");
  last_response_ = r.output;
  return r.exit_code == 0 ? r.output : std::string();
}

std::optional<std::string> PrometheusProcess::query(const std::string& promql) {
  testing::CommandResult r = testing::runCommand(
      "curl -s --max-time 5 -G 'http://127.0.0.1:" + std::to_string(port_) + "/api/v1/query' --data-urlencode 'query=" +
      promql + "'");
  if (r.exit_code != 0) return std::nullopt;
  last_response_ = r.output;
  const size_t v = r.output.find("\"value\":[");
  if (v == std::string::npos) return std::nullopt;
  const size_t open = r.output.find('"', r.output.find(',', v));
  const size_t close = r.output.find('"', open + 1);
  if (open == std::string::npos || close == std::string::npos) return std::nullopt;
  return r.output.substr(open + 1, close - open - 1);
}

bool PrometheusProcess::waitFor(const std::string& promql, const std::string& want) {
  return testing::waitUntil(
      [&] {
        std::optional<std::string> got = query(promql);
        if (want.empty()) return !got && last_response_.find("\"result\":[]") != std::string::npos;
        return got && *got == want;
      },
      testing::kEventWait, std::chrono::milliseconds(250));
}

std::string PrometheusProcess::log() const {
  return testing::runCommand("tail -n 20 " + tmp_.path() + "/prometheus.log").output;
}

}  // namespace rdmagw::testing
