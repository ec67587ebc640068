#include "southbound/nxos/nxos_lldp.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/lldp.h"
#include "southbound/nxos/nxos_emit.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {

using text::JsonParse;
using text::JsonNode;
using text::collectRows;

namespace {

constexpr std::string_view kFormat = "nxos-lldp-neighbors";

struct Neighbor {
  std::string local_port;  // as printed
  std::string chassis_id, port_id, port_type, port_desc, sys_name;
};

// NX-OS prints "null" or "not advertised" for a TLV the neighbour left out.
std::string advertised(std::string_view v) {
  v = trim(v);
  if (v == "null" || iequals(v, "not advertised")) return "";
  return std::string(v);
}

// Writes one neighbour; `ids` keeps the list key unique per local port.
void emitNeighbor(const Neighbor& n, size_t where, std::map<std::string, int>& ids, Emitter& em) {
  std::optional<std::string> ifname = normalizeIfName(n.local_port);
  if (!ifname) {
    em.error("neighbour " + std::to_string(where) + ": no usable local port id ('" + n.local_port + "'), skipped");
    return;
  }
  std::string id = !n.chassis_id.empty() ? n.chassis_id : !n.port_id.empty() ? n.port_id : n.sys_name;
  if (id.empty()) {
    em.error(*ifname + ": neighbour advertises no chassis, port or system name, skipped");
    return;
  }
  if (int seen = ++ids[*ifname + "\x1f" + id]; seen > 1) id += "#" + std::to_string(seen);
  std::string type = lldp::portIdType(n.port_type);
  if (type.empty() && n.port_type.empty() && !n.port_id.empty() && lldp::looksLikeMac(n.port_id)) type = "MAC_ADDRESS";
  const std::pair<std::string_view, const std::string*> leaves[] = {
      {"system-name", &n.sys_name}, {"port-id", &n.port_id},         {"port-id-type", &type},
      {"chassis-id", &n.chassis_id}, {"port-description", &n.port_desc},
  };
  for (const auto& [leaf, value] : leaves) {
    if (!value->empty()) em.text(lldp::neighborPath(*ifname, id, leaf), *value);
  }
}

std::string scalarText(const JsonNode& row, std::string_view key) {
  const JsonNode* v = row.get(key);
  return v != nullptr && v->isScalar() ? advertised(v->text) : "";
}

Status parseJsonForm(std::string_view text, Emitter& em) {
  std::optional<JsonParse> reply = openJsonReply(text, em);
  if (!reply) return em.finish("JSON document");
  std::vector<const JsonNode*> rows;
  collectRows(reply->root(), "ROW_nbor_detail", rows);
  std::map<std::string, int> ids;
  size_t n = 0;
  for (const JsonNode* r : rows) {
    Neighbor nb;
    nb.local_port = scalarText(*r, "l_port_id");
    nb.chassis_id = scalarText(*r, "chassis_id");
    nb.port_id = scalarText(*r, "port_id");
    nb.port_type = scalarText(*r, "port_type");
    nb.port_desc = scalarText(*r, "port_desc");
    nb.sys_name = scalarText(*r, "sys_name");
    emitNeighbor(nb, ++n, ids, em);
  }
  // A switch with no neighbours answers without the table: nothing to say.
  if (rows.empty() && reply->complete && reply->root().get("TABLE_nbor_detail") == nullptr &&
      reply->root().get("neigh_count") != nullptr) {
    return Status::ok();
  }
  return em.finish("ROW_nbor_detail row");
}

Status parseTextForm(std::string_view text, Emitter& em) {
  std::vector<Neighbor> found;
  std::map<std::string, int> ids;
  bool zero_entries = false;
  for (std::string_view raw : splitLines(text)) {
    std::string_view line = trim(raw);
    if (auto banner = deviceErrorLine(line)) {
      em.deviceError(*banner);
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = line.substr(colon + 1);
    if (iequals(key, "Chassis id")) {
      found.emplace_back();
      found.back().chassis_id = advertised(value);
      continue;
    }
    if (iequals(key, "Total entries displayed")) zero_entries = trim(value) == "0";
    if (found.empty()) continue;  // the header and capability legend
    Neighbor& nb = found.back();
    if (iequals(key, "Port id")) nb.port_id = advertised(value);
    if (iequals(key, "Local Port id")) nb.local_port = advertised(value);
    if (iequals(key, "Port Description")) nb.port_desc = advertised(value);
    if (iequals(key, "System Name")) nb.sys_name = advertised(value);
    // System Description continues over lines without a known key: ignored.
  }
  for (size_t i = 0; i < found.size(); ++i) emitNeighbor(found[i], i + 1, ids, em);
  if (found.empty() && zero_entries) return Status::ok();
  return em.finish("'Chassis id:' block");
}

}  // namespace

Status parseLldpNeighbors(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  if (jsonStart(text) != std::string_view::npos) return parseJsonForm(text, em);
  return parseTextForm(text, em);
}

}  // namespace rdmagw::southbound::nxos
