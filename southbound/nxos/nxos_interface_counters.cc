#include <map>
#include <span>
#include <string>
#include <vector>

#include "southbound/nxos/nxos_error_columns.h"
#include "southbound/nxos/nxos_if_counters.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_table.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {
namespace {

struct ColumnLeaf {
  std::string_view column;  // header name, case-insensitive
  std::string_view leaf;
};

constexpr ColumnLeaf kCounters[] = {
    {"InOctets", "in-octets"},           {"OutOctets", "out-octets"},
    {"InUcastPkts", "in-unicast-pkts"},  {"OutUcastPkts", "out-unicast-pkts"},
    {"InMcastPkts", "in-multicast-pkts"}, {"OutMcastPkts", "out-multicast-pkts"},
    {"InBcastPkts", "in-broadcast-pkts"}, {"OutBcastPkts", "out-broadcast-pkts"},
    {"InPkts", "in-pkts"},               {"OutPkts", "out-pkts"},
};

// `show interface counters errors`: every column, from nxos_error_columns.
const std::vector<ColumnLeaf>& errorColumnLeaves() {
  static const std::vector<ColumnLeaf> kErrors = [] {
    std::vector<ColumnLeaf> out;
    for (const ErrorColumn& c : nxosErrorColumns()) out.push_back({c.header, c.leaf});
    return out;
  }();
  return kErrors;
}

// Reads every "Port <col> <col>..." table; values are gathered per interface
// (one interface spans several tables) and emitted at the end.
Status parseTables(std::string_view format, std::span<const ColumnLeaf> map, std::string_view text,
                   TimestampNs ts, PollBatch& out) {
  Emitter em(format, ts, out);
  std::vector<std::string> cols;
  std::vector<std::string_view> leaf_of;  // per column; empty: not mapped
  std::vector<std::string> order;         // interfaces, first-seen order
  std::map<std::string, IfCounters> counters;
  std::vector<std::string_view> lines = splitLines(text);
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string_view t = trim(lines[n]);
    if (t.empty() || isRuleLine(t) || t == "^") continue;
    if (auto banner = deviceErrorLine(t)) {
      em.deviceError(*banner);
      continue;
    }
    if (isPromptLine(t)) continue;
    std::vector<std::string_view> tok = splitWs(t);
    if (iequals(tok[0], "Port")) {
      cols = headerColumns(t);
      leaf_of.assign(cols.size(), std::string_view());
      for (size_t c = 1; c < cols.size(); ++c) {
        for (const ColumnLeaf& m : map) {
          if (iequals(cols[c], m.column)) leaf_of[c] = m.leaf;
        }
      }
      continue;
    }
    if (cols.empty()) continue;
    std::string ref = "line " + std::to_string(n + 1);
    if (tok.size() != cols.size()) {
      em.error(ref + ": " + std::to_string(tok.size()) + " cells under " + std::to_string(cols.size()) +
               " columns, row skipped: '" + std::string(t.substr(0, 80)) + "'");
      continue;
    }
    std::optional<std::string> ifname = normalizeIfName(tok[0]);
    bool fits = ifname.has_value();
    for (size_t c = 1; fits && c < tok.size(); ++c) fits = isNumberToken(tok[c]);
    if (!fits) {
      em.error(ref + ": row does not fit the header, skipped: '" + std::string(t.substr(0, 80)) + "'");
      continue;
    }
    auto [it, inserted] = counters.try_emplace(*ifname);
    if (inserted) order.push_back(*ifname);
    for (size_t c = 1; c < tok.size(); ++c) {
      if (leaf_of[c].empty()) continue;
      Result<uint64_t> v = parseCount(tok[c]);
      if (v.status().code() == Status::Code::kNotFound) continue;  // "--": no such counter
      if (!v.isOk()) em.badCell(n + 1, cols[c], v.status());
      it->second.set(leaf_of[c], v.isOk() ? std::optional<uint64_t>(v.value()) : std::nullopt);
    }
  }
  for (const std::string& name : order) counters[name].emit(name, em);
  if (em.emitted() == 0 && !order.empty()) return Status::ok();  // rows, all "--"
  return em.finish("'Port ...' counter table");
}

}  // namespace

Status parseInterfaceCounters(std::string_view text, TimestampNs ts, PollBatch& out) {
  if (jsonStart(text) != std::string_view::npos) return parseInterfaceJson(text, ts, out);
  return parseTables("nxos-interface-counters", kCounters, text, ts, out);
}

Status parseInterfaceCountersErrors(std::string_view text, TimestampNs ts, PollBatch& out) {
  if (jsonStart(text) != std::string_view::npos) return parseInterfaceCountersErrorsJson(text, ts, out);
  return parseTables("nxos-interface-counters-errors", errorColumnLeaves(), text, ts, out);
}

}  // namespace rdmagw::southbound::nxos
