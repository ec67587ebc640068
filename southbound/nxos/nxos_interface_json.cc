#include <cctype>
#include <initializer_list>
#include <string>
#include <vector>

#include "southbound/nxos/nxos_emit.h"
#include "southbound/nxos/nxos_if_counters.h"
#include "southbound/nxos/nxos_if_state.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {

using text::JsonParse;
using text::JsonNode;
using text::collectRows;

namespace {

constexpr std::string_view kFormat = "nxos-interface-json";

struct KeyLeaf {
  std::string_view key;
  std::string_view leaf;
};

// NX-API keys of `show interface | json` (eth_* for Ethernet ports, vdc_lvl_*
// for mgmt0), `show interface counters detailed | json` (eth_*, mgmt_*) and
// `show interface counters | json` (ROW_rx_counters / ROW_tx_counters, eth_*).
// When a row has several keys for one leaf the first listed wins.
constexpr KeyLeaf kKeys[] = {
    {"eth_inbytes", "in-octets"},         {"vdc_lvl_in_bytes", "in-octets"},
    {"mgmt_in_bytes", "in-octets"},       {"eth_outbytes", "out-octets"},
    {"vdc_lvl_out_bytes", "out-octets"},  {"mgmt_out_bytes", "out-octets"},
    {"eth_inpkts", "in-pkts"},            {"vdc_lvl_in_pkts", "in-pkts"},
    {"mgmt_in_pkts", "in-pkts"},          {"eth_outpkts", "out-pkts"},
    {"vdc_lvl_out_pkts", "out-pkts"},     {"mgmt_out_pkts", "out-pkts"},
    {"eth_inucast", "in-unicast-pkts"},   {"vdc_lvl_in_ucast", "in-unicast-pkts"},
    {"eth_outucast", "out-unicast-pkts"}, {"vdc_lvl_out_ucast", "out-unicast-pkts"},
    {"eth_inmcast", "in-multicast-pkts"}, {"vdc_lvl_in_mcast", "in-multicast-pkts"},
    {"mgmt_in_mcast", "in-multicast-pkts"}, {"eth_outmcast", "out-multicast-pkts"},
    {"vdc_lvl_out_mcast", "out-multicast-pkts"}, {"mgmt_out_mcast", "out-multicast-pkts"},
    {"eth_inbcast", "in-broadcast-pkts"}, {"vdc_lvl_in_bcast", "in-broadcast-pkts"},
    {"eth_outbcast", "out-broadcast-pkts"}, {"vdc_lvl_out_bcast", "out-broadcast-pkts"},
    {"eth_indiscard", "in-discards"},     {"eth_outdiscard", "out-discards"},
    {"eth_inerr", "in-errors"},           {"eth_outerr", "out-errors"},
    {"eth_inpause", "in-mac-pause-frames"}, {"eth_outpause", "out-mac-pause-frames"},
    // The text's "CRC" column: frames with a bad FCS.
    {"eth_crc", "in-fcs-errors"},
};

constexpr std::string_view kNameKeys[] = {"interface", "interface_rx", "interface_tx", "if_name_str"};
constexpr std::string_view kRowKeys[] = {"ROW_interface", "ROW_rx_counters", "ROW_tx_counters"};

const JsonNode* firstOf(const JsonNode& r, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys) {
    const JsonNode* v = r.get(k);
    if (v != nullptr && v->isScalar()) return v;
  }
  return nullptr;
}

// `show interface | json` rows carry the port's state, description, MTU,
// bandwidth and speed (the counters tables do not): eth_* keys on ports,
// port-channels and mgmt0, svi_* on Vlans.
void emitState(const JsonNode& r, const std::string& ifname, Emitter& em) {
  NxosIfState st;
  auto text = [&](std::initializer_list<std::string_view> keys) -> std::optional<std::string> {
    const JsonNode* v = firstOf(r, keys);
    if (v == nullptr || v->kind != JsonNode::Kind::kString) return std::nullopt;
    return std::string(v->text);
  };
  auto number = [&](std::initializer_list<std::string_view> keys) -> std::optional<uint64_t> {
    const JsonNode* v = firstOf(r, keys);
    if (v == nullptr) return std::nullopt;
    Result<uint64_t> n = parseCount(v->text);
    if (n.isOk()) return *n;
    // A bad cell is an error line; the other leaves stay.
    if (n.status().code() != Status::Code::kNotFound) em.error(ifname + " " + std::string(*keys.begin()) + ": " + n.status().message() + " (no value)");
    return std::nullopt;
  };
  st.oper = text({"state", "svi_line_proto"});
  st.admin = text({"admin_state", "svi_admin_state"});
  st.description = text({"desc", "svi_desc"});
  st.mtu = number({"eth_mtu", "svi_mtu"});
  st.bw_kbit = number({"eth_bw", "svi_bw"});
  st.speed = text({"eth_speed"});
  emitIfState(ifname, st, em);
}

void row(const JsonNode& r, size_t n, Emitter& em) {
  std::optional<std::string> ifname;
  for (std::string_view k : kNameKeys) {
    const JsonNode* v = r.get(k);
    if (v != nullptr && v->kind == JsonNode::Kind::kString) {
      ifname = normalizeIfName(v->text);
      break;
    }
  }
  if (!ifname) {
    em.error("row " + std::to_string(n) + ": no usable interface name, skipped");
    return;
  }
  emitState(r, *ifname, em);
  IfCounters c;
  for (const KeyLeaf& kl : kKeys) {
    if (c.has(kl.leaf)) continue;
    const JsonNode* v = r.get(kl.key);
    if (v == nullptr) continue;
    Result<uint64_t> parsed = v->isScalar() ? parseCount(v->text) : Result<uint64_t>(Status::corrupt("not a scalar"));
    if (parsed.status().code() == Status::Code::kNotFound) continue;
    if (!parsed.isOk()) {
      em.error(*ifname + " " + std::string(kl.key) + ": " + parsed.status().message() + " (no value)");
      c.set(kl.leaf, std::nullopt);
      continue;
    }
    c.set(kl.leaf, parsed.value());
  }
  c.emit(*ifname, em);
}

}  // namespace

Status parseInterfaceJson(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  std::optional<JsonParse> reply = openJsonReply(text, em);
  if (!reply) return em.finish("JSON document");
  const JsonParse& doc = *reply;
  size_t n = 0;
  size_t rows_seen = 0;
  for (std::string_view key : kRowKeys) {
    std::vector<const JsonNode*> rows;
    collectRows(doc.root(), key, rows);
    rows_seen += rows.size();
    for (const JsonNode* r : rows) row(*r, ++n, em);
  }
  if (rows_seen > 0 && em.emitted() == 0 && doc.complete) return Status::ok();  // rows without counters (Vlan, down ports)
  return em.finish("ROW_interface row");
}

}  // namespace rdmagw::southbound::nxos
