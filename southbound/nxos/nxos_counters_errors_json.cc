// `show interface counters errors | json`. NX-OS answers with one
// TABLE_interface whose ROW_interface list holds a row per interface per
// section (Align-Err..OutDiscards, Single-Col..Runts, Giants..Symbol-Err,
// InDiscards, Stomped-CRC), each row carrying only that section's keys; a
// column the switch does not count on a port is left out of the row.

#include <map>
#include <string>
#include <vector>

#include "southbound/nxos/nxos_error_columns.h"
#include "southbound/nxos/nxos_if_counters.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {

using text::JsonParse;
using text::JsonNode;
using text::collectRows;

namespace {

constexpr std::string_view kFormat = "nxos-interface-counters-errors";

// Reads one row's counters into `c`; keys of other sections are absent.
void readRow(const JsonNode& row, const std::string& ifname, IfCounters& c, Emitter& em) {
  for (const ErrorColumn& col : nxosErrorColumns()) {
    const JsonNode* v = row.get(col.json_key);
    if (v == nullptr) continue;
    Result<uint64_t> parsed =
        v->isScalar() ? parseCount(v->text) : Result<uint64_t>(Status::corrupt("not a scalar"));
    if (parsed.status().code() == Status::Code::kNotFound) continue;  // "--" written as a string
    if (!parsed.isOk()) {
      em.error(ifname + " " + std::string(col.json_key) + ": " + parsed.status().message() + " (no value)");
      c.set(col.leaf, std::nullopt);
      continue;
    }
    c.set(col.leaf, parsed.value());
  }
}

}  // namespace

Status parseInterfaceCountersErrorsJson(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  std::optional<JsonParse> reply = openJsonReply(text, em);
  if (!reply) return em.finish("JSON document");
  std::vector<const JsonNode*> rows;
  collectRows(reply->root(), "ROW_interface", rows);
  std::vector<std::string> order;  // interfaces, first-seen order
  std::map<std::string, IfCounters> counters;
  size_t n = 0;
  for (const JsonNode* r : rows) {
    ++n;
    const JsonNode* name = r->get("interface");
    std::optional<std::string> ifname;
    if (name != nullptr && name->kind == JsonNode::Kind::kString) ifname = normalizeIfName(name->text);
    if (!ifname) {
      em.error("row " + std::to_string(n) + ": no usable interface name, skipped");
      continue;
    }
    auto [it, inserted] = counters.try_emplace(*ifname);
    if (inserted) order.push_back(*ifname);
    readRow(*r, *ifname, it->second, em);
  }
  for (const std::string& name : order) counters[name].emit(name, em);
  // Rows whose every counter is absent (a port that counts nothing): fine.
  if (!order.empty() && em.emitted() == 0 && reply->complete) return Status::ok();
  return em.finish("ROW_interface row");
}

}  // namespace rdmagw::southbound::nxos
