#pragma once
// What `rdmagw status` shows, as the JSON the admin socket answers with.
// The shape is documented in docs/status.md and kept stable for scripts:
// fields may be added, none renamed or removed without a new "format".
//
//   {"format": 1,
//    "gateway": {"version", "pid", "started", "now"},
//    "reload": {"last_successful": bool|null, "last_success_time": number|null},
//    "cluster": {"name", "member", "state", "members", "owned_targets"},  (in a fleet only)
//    "targets": [{"name", "kind", "transport", "up", "last_success": number|null,
//                 "last_attempt": number|null, "last_error", "series", "polls",
//                 "poll_errors", "read_errors"}],
//    "northbounds": {
//      "prometheus": {"enabled", "listen", "scrapes", "last_scrape": number|null},
//      "snmp": {"enabled", "agentx_socket", "agentx_connected"},
//      "gnmi": {"enabled", "address", "subscribers"}}}
//
// Times are Unix seconds (fractional). Nothing here comes from the config's
// credentials: targets' errors are scrubbed by their collectors.

#include <cstdint>
#include <string>
#include <vector>

#include "models/self_metrics.h"
#include "models/target_health.h"
#include "models/value.h"

namespace rdmagw::northbound::admin {

// The northbounds as the pipeline that runs them sees them; what the store
// and the self-metrics hold is read by buildStatusJson itself.
struct NorthboundStates {
  struct Prometheus {
    bool enabled = false;
    std::string listen;  // host:port as bound
    uint64_t scrapes = 0;
    TimestampNs last_scrape_ns = 0;  // 0: none yet
  } prometheus;
  struct Snmp {
    bool enabled = false;
    std::string agentx_socket;
    bool agentx_connected = false;
  } snmp;
  struct Gnmi {
    bool enabled = false;
    std::string address;  // host:port as bound
  } gnmi;
};

struct GatewayFacts {
  int64_t pid = 0;
  TimestampNs started_ns = 0;
  TimestampNs now_ns = 0;
};

// The reply to a "status" request: one JSON object, no trailing newline.
std::string buildStatusJson(const std::vector<TargetStatus>& targets, const NorthboundStates& northbounds,
                            const std::vector<SelfMetricSample>& self_metrics, const GatewayFacts& facts);

}  // namespace rdmagw::northbound::admin
