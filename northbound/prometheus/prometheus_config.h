#pragma once
// Configuration of the Prometheus northbound: where /metrics listens.

#include <string>

#include "models/status.h"

namespace rdmagw::northbound {

struct PrometheusConfig {
  // host:port or [v6-address]:port. Loopback by default: exposing telemetry
  // of the fabric on every interface is an explicit choice. Port 0 binds an
  // ephemeral port (tests); PrometheusServer::port() tells which.
  std::string listen = "127.0.0.1:9464";
  std::string path = "/metrics";

  // Checks every field and reports all problems at once, each prefixed with
  // its key ("listen: ...; path: ...").
  Status validate() const;
};

}  // namespace rdmagw::northbound
