#pragma once
// Configuration of the Prometheus northbound: where /metrics listens.

#include <chrono>
#include <string>

#include "models/status.h"

namespace rdmagw::northbound::prometheus {

struct PrometheusConfig {
  // host:port or [v6-address]:port. Loopback by default: exposing telemetry
  // of the fabric on every interface is an explicit choice. Port 0 binds an
  // ephemeral port (tests); PrometheusServer::port() tells which.
  std::string listen = "127.0.0.1:9464";
  std::string path = "/metrics";
  // 0 (the default): every scrape builds the exposition from the store, the
  // freshest data. Above 0: one is prebuilt this often and every scrape gets
  // the latest, gzipped in advance (exposition_cache.h): a scrape's time then
  // stays flat however many series the gateway holds, and the data is up to
  // this old. For gateways of several hundred thousand series and more.
  // 100ms to 1m: rules/rdmagw-alerts.yml's RdmagwExpositionStale counts on
  // an exposition never older than that when the builder is healthy.
  std::chrono::milliseconds refresh_period{0};

  // Checks every field and reports all problems at once, each prefixed with
  // its key ("listen: ...; path: ...").
  Status validate() const;
};

}  // namespace rdmagw::northbound::prometheus
