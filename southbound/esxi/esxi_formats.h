#pragma once
// The ESXi parsers as named formats for `rdmagw parse --format NAME FILE` and
// the SSH collector: "esxi-nic-list", "esxi-nic-stats", "esxi-vsish-stats".

#include <span>

#include "southbound/parser_format.h"

namespace rdmagw::southbound::esxi {

std::span<const southbound::ParserFormat> esxiParserFormats();

}  // namespace rdmagw::southbound::esxi
