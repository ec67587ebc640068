#pragma once
// The NX-OS CLI parsers as named formats, for the SSH collector and
// `rdmagw parse --format NAME FILE`.

#include <span>

#include "southbound/parser_format.h"

namespace rdmagw::southbound::nxos {

// nxos-pfc, nxos-pfc-detail, nxos-queuing, nxos-queuing-json, nxos-interface,
// nxos-interface-json, nxos-interface-counters, nxos-interface-counters-errors,
// nxos-lldp-neighbors.
std::span<const ParserFormat> nxosParserFormats();

}  // namespace rdmagw::southbound::nxos
