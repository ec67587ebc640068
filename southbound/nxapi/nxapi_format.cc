#include "southbound/nxapi/nxapi_format.h"

#include <array>
#include <cctype>
#include <optional>
#include <string>

#include "southbound/nxapi/nxapi_commands.h"
#include "southbound/nxapi/nxapi_envelope.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_lldp.h"
#include "southbound/nxos/nxos_pfc.h"
#include "southbound/nxos/nxos_pfc_watchdog_leaves.h"
#include "southbound/nxos/nxos_queuing_json.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxapi {
namespace {

using text::JsonNode;

// A JSON-RPC reply does not echo its command, so a body is matched to the
// parser that reads it by member names only that parser's command carries.
// The names are the row keys each parser collects (its collectRows key) or,
// where two commands share a row key, the columns it reads:
//  - `show interface` and `show interface counters errors` both answer
//    TABLE_interface/ROW_interface; the error columns (eth_fcs_err ...,
//    nxos_error_columns.cc) exist only in the second, the counters and
//    state keys of nxos_interface_json.cc only in the first. Errors are
//    tried first.
//  - `show queuing interface` and `show queuing pfc-queue detail` both
//    answer TABLE_queuing_interface; the egress qos-group table is the
//    first's, the watchdog state the second's.
// The first top-level key alone cannot tell them apart: most bodies start
// with TABLE_module or TABLE_interface, and LLDP's with neigh_hdr.
struct BodyMarks {
  ssh::CliParseFn parse;
  std::array<std::string_view, 8> names;  // unused slots empty
};

const std::array<BodyMarks, 6>& bodyMarks() {
  static const std::array<BodyMarks, 6> marks = {{
      {nxos::parseInterfaceCountersErrorsJson,
       {"eth_fcs_err", "eth_align_err", "eth_xmit_err", "eth_rcv_err", "eth_undersize", "eth_outdisc", "eth_indisc",
        "eth_symbol_err"}},
      {nxos::parseInterfaceJson,
       {"ROW_rx_counters", "ROW_tx_counters", "eth_inbytes", "vdc_lvl_in_bytes", "mgmt_in_bytes", "admin_state",
        "eth_mtu"}},
      {nxos::parsePfc, {"ROW_pfc_interface", "TABLE_pfc_interface"}},
      {nxos::parseNxosPfcWatchdogJsonLeaves, {"glb-wd-status", "ROW_qosgrp_stats", "wd-status"}},
      {nxos::parseQueuingJson, {"ROW_qosgrp_egress_stats", "TABLE_qosgrp_egress_stats"}},
      {nxos::parseLldpNeighbors, {"ROW_nbor_detail", "TABLE_nbor_detail", "neigh_count"}},
  }};
  return marks;
}

// Whether any member anywhere below `body` has one of `names`. Iterative:
// the body is as deep as the switch made it (up to the reader's cap).
bool hasMember(const JsonNode& body, const std::array<std::string_view, 8>& names) {
  std::vector<const JsonNode*> stack = {&body};
  while (!stack.empty()) {
    const JsonNode* n = stack.back();
    stack.pop_back();
    for (const JsonNode& c : n->children()) {
      if (n->kind == JsonNode::Kind::kObject) {
        for (std::string_view name : names) {
          if (!name.empty() && c.key == name) return true;
        }
      }
      if (c.isContainer()) stack.push_back(&c);
    }
  }
  return false;
}

// "show  interface | json" and "show interface" name the same command.
std::string normalized(std::string_view command) {
  std::string out;
  for (char c : command) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.ends_with("| json")) out.resize(out.size() - 6);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::optional<NxapiVariant> byInput(std::string_view input, OutputFormat format,
                                    const std::vector<ssh::CliCommand>& commands) {
  const std::string want = normalized(input);
  for (const ssh::CliCommand& c : commands) {
    for (NxapiVariant& v : nxapiVariants(c)) {
      if (v.format == format && normalized(v.command) == want) return std::move(v);
    }
  }
  return std::nullopt;
}

std::optional<NxapiVariant> byBody(const JsonNode& body, const std::vector<ssh::CliCommand>& commands) {
  for (const BodyMarks& m : bodyMarks()) {
    if (!hasMember(body, m.names)) continue;
    for (const ssh::CliCommand& c : commands) {
      for (NxapiVariant& v : nxapiVariants(c)) {
        if (v.format == OutputFormat::kJson && v.parse == m.parse) return std::move(v);
      }
    }
  }
  return std::nullopt;
}

std::string_view skipComments(std::string_view text) {
  while (true) {
    size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != '#') return text;
    const size_t nl = text.find('\n', i);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
}

}  // namespace

Status parseCollectorEnvelope(std::string_view text, const std::vector<ssh::CliCommand>& commands, TimestampNs ts,
                              PollBatch& out) {
  Result<Envelope> env = parseEnvelope(skipComments(text));
  if (!env.isOk()) return env.status();
  size_t parsed = 0;
  size_t n = 0;
  for (const CommandOutput& o : env->outputs) {
    ++n;
    const text::JsonParse body =
        env->format == OutputFormat::kJson && !o.body.empty() ? text::parseJson(o.body) : text::JsonParse();
    std::string label = o.input;
    if (label.empty() && body.root().kind == JsonNode::Kind::kObject && body.root().firstChild() != nullptr) {
      label = std::string(body.root().firstChild()->key);
    }
    if (label.empty()) label = o.ok() ? "no command echoed" : "error";
    const std::string where = "output " + std::to_string(n) + " (" + ssh::commandLabel(label) + "): ";
    if (!o.ok()) {
      // The switch's words, whether or not a collector would have read it.
      out.error(where + describeFailure(o));
      continue;
    }
    std::optional<NxapiVariant> variant;
    if (!o.input.empty()) {
      variant = byInput(o.input, env->format, commands);
    } else if (body.root().kind == JsonNode::Kind::kObject) {
      variant = byBody(body.root(), commands);
    }
    if (!variant) {
      out.error(where + "no Nexus collector reads this");
      continue;
    }
    if (Status st = parseOutput(o, *variant, ts, out); st.isOk()) {
      ++parsed;
    } else {
      out.error(where + st.message());
    }
  }
  if (parsed > 0) return Status::ok();
  return Status::corrupt(std::string(kEnvelopeFormat) + ": none of the " + std::to_string(n) +
                         " outputs is one a Nexus collector reads and parses");
}

}  // namespace rdmagw::southbound::nxapi
