#include "southbound/nxos/nxos_pfc_watchdog_json.h"

#include <optional>
#include <string>
#include <vector>

#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"
#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::nxos {

using text::Problems;
using text::parseBounded;

namespace {

using rdmagw::roce::PfcWatchdogPort;
using rdmagw::roce::PfcWatchdogQueue;
using text::JsonNode;

constexpr std::pair<std::string_view, std::string_view> kStats[] = {
    {"q-shutdown", "Shutdown"},
    {"q-restored", "Restored"},
    {"q-pkt-drained", "Total pkts drained"},
    {"q-pkt-dropped", "Total pkts dropped"},
    {"q-pkt-drained-n-dropped", "Total pkts drained + dropped"},
    {"q-aggr-pkt-dropped", "Aggregate pkts dropped"},
    {"q-ing-pkt-dropped", "Total Ingress pkts dropped"},
    {"q-ing-aggr-pkt-dropped", "Aggregate Ingress pkts dropped"},
};

std::optional<std::string> text(const JsonNode* v) {
  if (v == nullptr || !v->isScalar()) return std::nullopt;
  return std::string(v->text);
}

// "Enabled", "enabled", "on", "YES", true ... -> a flag; nullopt otherwise.
std::optional<bool> flag(const JsonNode* v) {
  std::optional<std::string> t = text(v);
  if (!t) return std::nullopt;
  const std::string w = toLower(*t);
  if (w == "enabled" || w == "enable" || w == "on" || w == "yes" || w == "true") return true;
  if (w == "disabled" || w == "disable" || w == "off" || w == "no" || w == "false") return false;
  return std::nullopt;
}

}  // namespace

Status parseNxosPfcWatchdogJson(std::string_view json, rdmagw::roce::SwitchQos& qos) {
  const size_t start = jsonStart(json);
  if (start == std::string_view::npos) return Status::corrupt("show queuing pfc-queue | json: no JSON object");
  const text::JsonParse doc = text::parseJson(json.substr(start));
  if (!doc.complete) return Status::corrupt("show queuing pfc-queue | json: " + doc.error);
  Problems p("show queuing pfc-queue | json");
  bool seen = false;
  if (const JsonNode* g = doc.root().get("glb-wd-status")) {
    seen = true;
    if (std::optional<bool> on = flag(g)) qos.watchdog_global_enabled = on;
    else p.add("glb-wd-status '" + text(g).value_or("?").substr(0, 16) + "' is not enabled/disabled");
  }
  std::vector<const JsonNode*> rows;
  text::collectRows(doc.root(), "ROW_queuing_interface", rows);
  for (const JsonNode* row : rows) {
    std::optional<std::string> raw = text(row->get("if_name_str"));
    std::optional<std::string> ifn = raw ? normalizeIfName(*raw) : std::nullopt;
    if (!ifn) {
      p.add("an interface row without a valid if_name_str");
      continue;
    }
    seen = true;
    PfcWatchdogPort& port = qos.watchdog[*ifn];
    if (const JsonNode* st = row->get("wd-status")) {
      if (std::optional<bool> on = flag(st)) port.enabled = on;
      else p.add(*ifn + " wd-status '" + text(st).value_or("?").substr(0, 16) + "' is not enabled/disabled");
    }
    if (std::optional<std::string> a = text(row->get("disable-action"))) port.disable_action = a;
    if (std::optional<std::string> m = text(row->get("intf-multi"))) {
      Result<uint64_t> n = parseBounded(*m, UINT32_MAX);
      if (n.isOk()) port.interface_multiplier = *n;
      else p.add(*ifn + " intf-multi: " + n.status().message());
    }
    std::vector<const JsonNode*> groups;
    text::collectRows(*row, "ROW_qosgrp_stats", groups);
    for (const JsonNode* g : groups) {
      std::optional<std::string> id = text(g->get("eq-qosgrp"));
      Result<uint64_t> n = id ? parseBounded(*id, 7) : Result<uint64_t>(Status::corrupt("missing"));
      if (!n.isOk()) {
        p.add(*ifn + " eq-qosgrp: " + n.status().message());
        continue;
      }
      PfcWatchdogQueue q;
      q.qos_group = uint32_t(*n);
      q.state = text(g->get("eq-qosgrp-state")).value_or("");
      if (const JsonNode* pc = g->get("pfc-configured")) q.pfc = flag(pc);
      if (std::optional<std::string> cos = text(g->get("pfc-cos"))) {
        Result<uint64_t> c = parseBounded(*cos, 7);
        if (c.isOk()) q.pfc_cos = uint32_t(*c);
        else p.add(*ifn + " qos-group " + std::to_string(q.qos_group) + " pfc-cos: " + c.status().message());
      }
      std::vector<const JsonNode*> entries;
      text::collectRows(*g, "ROW_qosgrp_stats_entry", entries);
      for (const JsonNode* e : entries) {
        for (const auto& [key, name] : kStats) {
          std::optional<std::string> v = text(e->get(key));
          if (!v) continue;
          Result<uint64_t> c = parseCount(*v);
          if (c.isOk()) q.stats[std::string(name)] = *c;
          else if (c.status().code() != Status::Code::kNotFound) {
            p.add(*ifn + " qos-group " + std::to_string(q.qos_group) + " " + std::string(key) + ": " +
                  c.status().message());
          }
        }
      }
      port.queues.push_back(std::move(q));
    }
  }
  if (!seen) return Status::corrupt("show queuing pfc-queue | json: neither glb-wd-status nor an interface row");
  return p.status();
}

}  // namespace rdmagw::southbound::nxos
