#pragma once
// A real Prometheus server scraping one endpoint every second, for tests
// that check what a scraper sees across an event (after
// tests/e2e/northbound/prometheus/prometheus_scrape_test.cc).

#include <sys/types.h>

#include <optional>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::testing {

class PrometheusProcess {
 public:
  static constexpr const char* kBinary = "/usr/bin/prometheus";
  static bool installed();

  explicit PrometheusProcess(int scrape_port);
  // `scrape_config`: one job's YAML under `scrape_configs:` (indented by
  // four, starting with "  - job_name: ..."), scraped every second.
  explicit PrometheusProcess(const std::string& scrape_config);
  ~PrometheusProcess();  // SIGTERM, then SIGKILL
  bool started() const { return pid_ > 0; }

  // The value of an instant query with one result; nothing when the result
  // is empty or the query failed (lastResponse() says which).
  std::optional<std::string> query(const std::string& promql);
  // The whole JSON response of an instant query (for range selectors).
  std::string queryJson(const std::string& promql);
  // Waits until the query gives `want` ("" : an empty result).
  bool waitFor(const std::string& promql, const std::string& want);
  const std::string& lastResponse() const { return last_response_; }
  std::string log() const;

 private:
  testing::TempDir tmp_{"rdmagw-reload-prom"};
  int port_ = 0;
  pid_t pid_ = -1;
  std::string last_response_;
};

}  // namespace rdmagw::testing
