#pragma once
// Writes the gateway self-metrics components report through
// models/self_metrics.h (the gNMI server's, for one), named by their
// GatewayMetric rows. A row with no sample writes nothing, not even HELP.

#include <string>

namespace rdmagw::northbound::prometheus {

void appendSelfMetrics(std::string* out);

}  // namespace rdmagw::northbound::prometheus
