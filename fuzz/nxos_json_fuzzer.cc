// The JSON reader (southbound/text/json_reader.h) in its damage-tolerant
// form, as the NX-OS `| json` and iproute2/lldpd parsers call it: whatever
// the bytes, it returns what it read before the damage, never throws and
// never recurses past its depth cap. The row walk every NX-OS JSON parser
// runs after it is exercised on the result. The strict form (gNMI) runs on
// the same bytes: what it accepts, the tolerant form reads whole, alike.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

using namespace rdmagw::southbound::text;
using rdmagw::southbound::nxos::jsonStart;

namespace {

size_t walk(const JsonNode& v, int depth) {
  if (depth > kMaxJsonDepth) __builtin_trap();  // the reader caps nesting
  if (!v.isContainer() && v.firstChild() != nullptr) __builtin_trap();
  if (v.kind != JsonNode::Kind::kNull && v.isContainer() == v.isScalar()) __builtin_trap();
  size_t nodes = 1;
  for (const JsonNode& child : v.children()) {
    if (v.kind == JsonNode::Kind::kObject && v.get(child.key) == nullptr) __builtin_trap();
    if (v.kind == JsonNode::Kind::kArray && !child.key.empty()) __builtin_trap();
    nodes += walk(child, depth + 1);
  }
  return nodes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // As the parsers call it: on `| json` output past the prompt lines.
  const size_t start = jsonStart(text);
  for (std::string_view doc : {text, start == std::string_view::npos ? std::string_view() : text.substr(start)}) {
    JsonParse parsed = parseJson(doc);
    if (parsed.complete && !parsed.error.empty()) __builtin_trap();
    if (!parsed.complete && parsed.error.empty()) __builtin_trap();
    const size_t tolerant_nodes = walk(parsed.root(), 0);
    std::vector<const JsonNode*> rows;
    for (std::string_view key : {"ROW_interface", "ROW_qosgrp_egress_stats", "ROW_nbor_detail"}) {
      collectRows(parsed.root(), key, rows);
    }
    for (const JsonNode* row : rows) {
      if (row == nullptr || row->kind != JsonNode::Kind::kObject) __builtin_trap();
    }

    JsonDom strict;
    std::deque<std::string> arena;
    const rdmagw::Status st = strict.parse(doc, arena);
    if (st.isOk() != (strict.root() != nullptr)) __builtin_trap();
    // The tolerant form refuses a number that ends the input (it may be cut
    // off); otherwise it reads whole whatever the strict form accepts.
    if (st.isOk() && !parsed.complete) {
      const JsonNode* r = strict.root();
      if (!(r->kind == JsonNode::Kind::kNumber && !doc.empty() && doc.back() >= '0' && doc.back() <= '9')) {
        __builtin_trap();
      }
    }
    if (st.isOk() && parsed.complete && walk(*strict.root(), 0) != tolerant_nodes) __builtin_trap();
  }
  return 0;
}
