#pragma once
// Between the snapshot's types and Net-SNMP's: request OIDs in, values out.
// Only for files that already include Net-SNMP's headers (the agent thread's).

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <cstddef>
#include <cstdint>

#include "northbound/snmp/mib_snapshot.h"

namespace rdmagw::northbound::snmp {

// Copies an OID into `out` (room for MAX_OID_LEN arcs) as 32-bit arcs and
// returns its length. An arc past 2^32-1 (never one of ours) saturates:
// a GET stays a miss and a GETNEXT keeps its order.
size_t toArcs(const oid* name, size_t length, uint32_t* out);

// Sets the varbind's type and value from a present cell.
void setVarValue(netsnmp_variable_list* vb, const CellView& cell);

}  // namespace rdmagw::northbound::snmp
