#pragma once
// HTTP endpoint Prometheus scrapes, on civetweb.
//
//   GET <path>    the exposition, built fresh from the store per request,
//                 or with refresh_period set the prebuilt one
//                 (exposition_cache.h); gzip when the client accepts it
//                 (Prometheus always does)
//   GET /         a small page linking <path>
//   GET /healthz  "ok" (and, in a fleet, this member's cluster state)
//   GET /sd       in a fleet: every live member's /metrics as Prometheus
//                 HTTP service discovery (fleet_sd.h); 404 otherwise
//   other methods 405, other paths 404
//
// Lifetime: the Store must outlive the server. stop() (or the destructor)
// returns after in-flight requests finished.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "models/fleet_view.h"
#include "models/status.h"
#include "models/store.h"
#include "northbound/prometheus/exposition.h"
#include "northbound/prometheus/exposition_cache.h"
#include "northbound/prometheus/prometheus_config.h"

struct mg_context;
struct mg_connection;

namespace rdmagw::northbound::prometheus {

class PrometheusServer {
 public:
  // `fleet`, when given, must outlive the server: /sd and /healthz read it.
  PrometheusServer(const Store& store, PrometheusConfig config, const FleetView* fleet = nullptr);
  ~PrometheusServer();
  PrometheusServer(const PrometheusServer&) = delete;
  PrometheusServer& operator=(const PrometheusServer&) = delete;

  // Binds and starts serving. A bad config or a failed bind is an error
  // naming the address; nothing is left running then.
  Status start();
  void stop();
  // The bound port (the real one when the config asked for port 0); 0 when
  // not running.
  int port() const { return port_; }
  // Scrapes of the exposition path served since start(), and the Unix time
  // (ns) of the last one's arrival, 0 before any: whether Prometheus is
  // really scraping (`rdmagw status`).
  uint64_t scrapes() const { return scrapes_.load(std::memory_order_relaxed); }
  int64_t lastScrapeNs() const { return last_scrape_ns_.load(std::memory_order_relaxed); }

 private:
  static int onRequest(mg_connection* conn);
  void serveMetrics(mg_connection* conn, bool head_only);
  // A scrape from the prebuilt exposition; false when there is none yet.
  bool servePrebuilt(mg_connection* conn, bool head_only);

  const Store& store_;
  const PrometheusConfig config_;
  const FleetView* fleet_;
  ExpositionWriter writer_;
  std::unique_ptr<ExpositionCache> cache_;  // with refresh_period > 0 only
  mg_context* ctx_ = nullptr;
  int port_ = 0;
  std::atomic<uint64_t> scrapes_{0};
  std::atomic<int64_t> last_scrape_ns_{0};
};

}  // namespace rdmagw::northbound::prometheus
