#pragma once
// Compact JSON text of a node our reader produced. NX-API hands a command's
// `| json` body over as a member of its envelope; the Nexus parsers take
// text (what SSH gives them), so the body is written back out once and the
// same parser code reads both transports.

#include <string>
#include <string_view>

#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxapi {

// No whitespace; strings re-escaped; numbers exactly as the reader kept their
// digits (a 64-bit counter never passes through a double). A container the
// reader marked partial is written closed: callers refuse damaged documents
// before they get here.
std::string jsonText(const text::JsonNode& node);

// `s` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view s);

}  // namespace rdmagw::southbound::nxapi
