#pragma once
// The fleet's members as Prometheus HTTP service discovery
// (http_sd_configs): one target group per live member that serves
// Prometheus, labelled with the member and the fleet. One scrape job
// pointed at any member's /sd follows the fleet as members come and go;
// the labels put `member` on every series a member serves, so a target
// that moved (or was briefly collected twice) shows where it came from.

#include <string>

#include "models/fleet_view.h"

namespace rdmagw::northbound::prometheus {

// `[{"targets": ["host:port"], "labels": {"member": "...", "cluster": "..."}}, ...]`;
// "[]" outside a fleet.
std::string fleetSdJson(const FleetSnapshot& fleet);

// The /healthz body: "ok", plus a line on the fleet when there is one
// ("cluster: degraded ..." while etcd does not answer).
std::string healthText(const FleetSnapshot& fleet);

}  // namespace rdmagw::northbound::prometheus
