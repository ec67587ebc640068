#include "southbound/nxos/nxos_queuing_json.h"

#include <string>
#include <vector>

#include "southbound/nxos/nxos_emit.h"
#include "southbound/nxos/nxos_queue_stats.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {

using text::JsonParse;
using text::JsonNode;
using text::collectRows;

namespace {

constexpr std::string_view kFormat = "nxos-queuing-json";

std::optional<std::string_view> scalar(const JsonNode& row, std::string_view key) {
  const JsonNode* v = row.get(key);
  if (v == nullptr || !v->isScalar()) return std::nullopt;
  return std::string_view(v->text);
}

// Parses row[key] as a counter; NotFound when absent.
Result<uint64_t> count(const JsonNode& row, std::string_view key) {
  std::optional<std::string_view> s = scalar(row, key);
  if (!s) return Status::notFound("absent");
  return parseCount(*s);
}

void emitCount(Emitter& em, const std::string& where, std::string_view key, const Result<uint64_t>& v,
               const std::string& path) {
  if (v.isOk()) {
    em.counter(path, v.value());
  } else if (v.status().code() != Status::Code::kNotFound) {
    em.error(where + " " + std::string(key) + ": " + v.status().message() + " (no value)");
  }
}

void egress(const JsonNode& row, const std::string& ifname, Emitter& em) {
  std::vector<const JsonNode*> groups;
  collectRows(row, "ROW_qosgrp_egress_stats", groups);
  for (const JsonNode* g : groups) {
    std::optional<std::string_view> qos = scalar(*g, "eq-qosgrp");
    if (!qos || !parseCount(*qos).isOk() || qos->find(',') != std::string_view::npos) continue;
    std::string where = ifname + " qos-group " + std::string(*qos);
    QueueAccumulator acc;
    acc.reset(ifname, std::string(*qos));
    std::vector<const JsonNode*> entries;
    collectRows(*g, "ROW_qosgrp_egress_stats_entry", entries);
    for (const JsonNode* e : entries) {
      std::optional<std::string_view> type = scalar(*e, "eq-stat-type");
      std::optional<std::string_view> units = scalar(*e, "eq-stat-units");
      if (!type || !units) continue;
      std::optional<QueueLeaf> leaf = queueLeaf(*type, *units);
      if (!leaf) continue;
      if (e->partial) {
        em.error(where + ": entry '" + std::string(*type) + "' cut short, skipped");
        continue;
      }
      std::optional<uint64_t> sum;
      bool bad = false;
      for (std::string_view key : {"eq-uc-stat-value", "eq-oobfc-uc-stat-value", "eq-mc-stat-value"}) {
        Result<uint64_t> v = count(*e, key);
        if (v.status().code() == Status::Code::kNotFound) continue;
        if (!v.isOk()) {
          em.error(where + " " + std::string(*type) + " " + std::string(key) + ": " + v.status().message() +
                   " (no value)");
          bad = true;
          continue;
        }
        sum = sum ? addChecked(*sum, v.value()) : v.value();
        if (!sum) bad = true;
      }
      acc.add(*leaf, sum, bad);
    }
    acc.flush(em);
  }
}

void ingress(const JsonNode& row, const std::string& ifname, Emitter& em) {
  std::vector<const JsonNode*> entries;
  collectRows(row, "ROW_ingress_stats_entry", entries);
  IngressAccumulator acc;
  for (const JsonNode* e : entries) {
    std::optional<std::string_view> type = scalar(*e, "ip-stat-type");
    std::optional<std::string_view> units = scalar(*e, "ip-stat-units");
    if (!type || !units || !iequals(*units, "Pkts")) continue;
    std::string lt = toLower(*type);
    if (lt.find("drop") == std::string::npos || lt.find("slice") != std::string::npos) continue;
    if (e->partial) {
      em.error(ifname + ": ingress entry '" + std::string(*type) + "' cut short, skipped");
      acc.add(ifname, std::nullopt, true);
      continue;
    }
    Result<uint64_t> v = count(*e, "ip-stat-value");
    if (v.status().code() == Status::Code::kNotFound) continue;
    if (!v.isOk()) em.error(ifname + " " + std::string(*type) + ": " + v.status().message() + " (no value)");
    acc.add(ifname, v.isOk() ? std::optional<uint64_t>(v.value()) : std::nullopt, !v.isOk());
  }
  acc.flush(em);
}

void pfc(const JsonNode& row, const std::string& ifname, Emitter& em) {
  emitCount(em, ifname, "tx-ppp", count(row, "tx-ppp"), pfcCounterPath(ifname, "out-pfc-frames"));
  emitCount(em, ifname, "rx-ppp", count(row, "rx-ppp"), pfcCounterPath(ifname, "in-pfc-frames"));
  std::vector<const JsonNode*> entries;
  collectRows(row, "ROW_pfc_stats", entries);
  for (const JsonNode* e : entries) {
    Result<uint64_t> cos = count(*e, "cos");
    if (!cos.isOk() || cos.value() > 7) {
      em.error(ifname + ": PFC row without a cos 0-7, skipped");
      continue;
    }
    int prio = static_cast<int>(cos.value());
    std::string where = ifname + " cos " + std::to_string(prio);
    emitCount(em, where, "tx-pause-count", count(*e, "tx-pause-count"),
              priorityCounterPath(ifname, prio, "out-pause-frames"));
    emitCount(em, where, "rx-pause-count", count(*e, "rx-pause-count"),
              priorityCounterPath(ifname, prio, "in-pause-frames"));
  }
}

}  // namespace

Status parseQueuingJson(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  std::optional<JsonParse> reply = openJsonReply(text, em);
  if (!reply) return em.finish("JSON document");
  const JsonParse& doc = *reply;
  std::vector<const JsonNode*> rows;
  collectRows(doc.root(), "ROW_queuing_interface", rows);
  size_t n = 0;
  for (const JsonNode* row : rows) {
    ++n;
    std::optional<std::string_view> name = scalar(*row, "if_name_str");
    std::optional<std::string> ifname = name ? normalizeIfName(*name) : std::nullopt;
    if (!ifname) {
      em.error("ROW_queuing_interface " + std::to_string(n) + ": no usable if_name_str, skipped");
      continue;
    }
    egress(*row, *ifname, em);
    ingress(*row, *ifname, em);
    pfc(*row, *ifname, em);
  }
  return em.finish("ROW_queuing_interface row");
}

}  // namespace rdmagw::southbound::nxos
