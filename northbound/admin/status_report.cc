#include "northbound/admin/status_report.h"

#include <nlohmann/json.hpp>

namespace rdmagw::northbound::admin {
namespace {

using Json = nlohmann::ordered_json;

// A collector's error text can be long (a whole device reply); the status
// line needs its gist, and the reply must stay bounded per target.
constexpr size_t kMaxErrorBytes = 1024;

Json secondsOrNull(TimestampNs ns) {
  if (ns <= 0) return nullptr;
  return double(ns) / 1e9;
}

// A cut inside a UTF-8 character is harmless: dump() replaces invalid bytes.
std::string boundedText(const std::string& s) { return s.size() > kMaxErrorBytes ? s.substr(0, kMaxErrorBytes) : s; }

const SelfMetricSample* findSample(const std::vector<SelfMetricSample>& self, std::string_view id) {
  for (const SelfMetricSample& s : self) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

}  // namespace

std::string buildStatusJson(const std::vector<TargetStatus>& targets, const NorthboundStates& nb,
                            const std::vector<SelfMetricSample>& self, const GatewayFacts& facts) {
  Json root;
  root["format"] = 1;
  root["gateway"] = {{"version", RDMAGW_VERSION},
                     {"pid", facts.pid},
                     {"started", secondsOrNull(facts.started_ns)},
                     {"now", secondsOrNull(facts.now_ns)}};

  // Written by the config reload as self-metrics; absent until the first.
  Json reload = {{"last_successful", nullptr}, {"last_success_time", nullptr}};
  if (const SelfMetricSample* ok = findSample(self, "config_last_reload_successful")) {
    reload["last_successful"] = ok->value != 0;
  }
  if (const SelfMetricSample* t = findSample(self, "config_last_reload_success_timestamp"); t && t->value > 0) {
    reload["last_success_time"] = t->value;
  }
  root["reload"] = reload;

  // In a fleet, reported by the membership as self-metrics: absent outside one.
  if (const SelfMetricSample* info = findSample(self, "cluster_member_info"); info && info->label_values.size() == 3) {
    const SelfMetricSample* members = findSample(self, "cluster_members");
    const SelfMetricSample* owned = findSample(self, "cluster_owned_targets");
    root["cluster"] = {{"name", info->label_values[0]},
                       {"member", info->label_values[1]},
                       {"state", info->label_values[2]},
                       {"members", members ? uint64_t(members->value) : 0},
                       {"owned_targets", owned ? uint64_t(owned->value) : 0}};
  }

  Json list = Json::array();
  for (const TargetStatus& t : targets) {
    list.push_back({{"name", t.name},
                    {"kind", t.health.kind},
                    {"transport", t.health.transport},
                    {"up", t.health.up},
                    {"last_success", secondsOrNull(t.health.last_success_ns)},
                    {"last_attempt", secondsOrNull(t.health.last_attempt_ns)},
                    {"last_error", boundedText(t.health.last_error)},
                    {"series", t.series},
                    {"polls", t.health.polls},
                    {"poll_errors", t.health.poll_errors},
                    {"read_errors", t.health.read_errors}});
  }
  root["targets"] = std::move(list);

  uint64_t subscribers = 0;
  for (const SelfMetricSample& s : self) {
    if (s.id == "gnmi_subscribers" && s.value > 0) subscribers += uint64_t(s.value);
  }
  root["northbounds"] = {
      {"prometheus",
       {{"enabled", nb.prometheus.enabled},
        {"listen", nb.prometheus.listen},
        {"scrapes", nb.prometheus.scrapes},
        {"last_scrape", secondsOrNull(nb.prometheus.last_scrape_ns)}}},
      {"snmp",
       {{"enabled", nb.snmp.enabled},
        {"agentx_socket", nb.snmp.agentx_socket},
        {"agentx_connected", nb.snmp.agentx_connected}}},
      {"gnmi", {{"enabled", nb.gnmi.enabled}, {"address", nb.gnmi.address}, {"subscribers", subscribers}}}};
  // Invalid UTF-8 (a device's bytes in an error) is replaced, not thrown on.
  return root.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace rdmagw::northbound::admin
