#pragma once
// iproute2 `dcb ets|pfc|buffer|app show dev X`, as JSON (`dcb -j`) or as
// the text the tool prints without -j, into one host port's RoCE
// configuration:
//   ets     prio_tc / prio-tc, tc_tsa / tc-tsa, tc_bw / tc-bw
//   pfc     prio_pfc / prio-pfc (pg-pfc before iproute2 5.11)
//   buffer  prio_buffer / prio-buffer, buffer_size / buffer-size, total_size
//   app     dscp_prio / dscp-prio (DSCP as number or name: CS3, AF31); any
//           dscp-prio rule means the port trusts DSCP, none means PCP (the
//           same rule as netdev_dcb.h's trust leaf)
// The JSON names come from iproute2's dcb/*.c (print_*(PRINT_ANY, "tc_bw"...)
// and dcb_print_named_array); the text form from its commit messages and
// man pages (tests/fixtures/roce-config/). Members and lines it does not
// know (willing, ets_cap, pg-bw, reco-*, requests, pcp-prio...) are skipped.

#include <string_view>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::rdma {

// One `dcb -j <object> show` document; object is "ets", "pfc", "buffer" or
// "app". Fills what parsed; kCorrupt when the JSON is damaged or holds none
// of the object's members; kInvalidArgument naming every bad value (the
// other members are kept).
Status parseDcbJson(std::string_view object, std::string_view json, rdmagw::roce::HostPort& port);

// The prio_pfc member of `dcb -j pfc show` ([false,...,true,...] or
// {"0":false,...}) as a bitmap, bit N = priority N; kCorrupt otherwise. The
// one reader of it, so the DCB consistency leaf and the RoCE check agree.
Result<uint64_t> parseDcbPrioPfc(std::string_view json);

// Text output of any of the four (one or several shows, '#' command lines
// and their '\' continuations skipped). A later line of the same key
// replaces the earlier one: a recorded session ends in the current state.
Status parseDcbText(std::string_view text, rdmagw::roce::HostPort& port);

}  // namespace rdmagw::southbound::rdma
