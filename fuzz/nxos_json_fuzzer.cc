// The tolerant JSON reader of the NX-OS `| json` and iproute2/lldpd
// parsers (southbound/text/json_reader.h): whatever the bytes, it
// returns what it read before the damage, never throws and never recurses
// past its depth cap. The row walk every NX-OS JSON parser runs after it
// is exercised on the result.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

using namespace rdmagw::southbound::text;
using rdmagw::southbound::nxos::jsonStart;

namespace {

void walk(const JsonValue& v, int depth) {
  if (depth > 70) __builtin_trap();  // the reader caps nesting at 64
  if (v.type != JsonValue::Type::kObject && !v.members.empty()) __builtin_trap();
  if (v.type != JsonValue::Type::kArray && !v.items.empty()) __builtin_trap();
  for (const JsonValue& item : v.items) walk(item, depth + 1);
  for (const auto& [key, member] : v.members) {
    if (v.get(key) == nullptr) __builtin_trap();
    walk(member, depth + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // As the parsers call it: on `| json` output past the prompt lines.
  const size_t start = jsonStart(text);
  for (std::string_view doc : {text, start == std::string_view::npos ? std::string_view() : text.substr(start)}) {
    JsonParse parsed = parseJson(doc);
    if (parsed.complete && !parsed.error.empty()) __builtin_trap();
    walk(parsed.root, 0);
    std::vector<const JsonValue*> rows;
    for (std::string_view key : {"ROW_interface", "ROW_qosgrp_egress_stats", "ROW_nbor_detail"}) {
      collectRows(parsed.root, key, rows);
    }
    for (const JsonValue* row : rows) {
      if (row == nullptr || row->type != JsonValue::Type::kObject) __builtin_trap();
    }
  }
  return 0;
}
