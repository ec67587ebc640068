#include "southbound/nxos/nxos_formats.h"

#include "southbound/nxos/nxos_class_map_qos.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_ipqos_leaves.h"
#include "southbound/nxos/nxos_lldp.h"
#include "southbound/nxos/nxos_network_qos.h"
#include "southbound/nxos/nxos_pfc.h"
#include "southbound/nxos/nxos_pfc_detail.h"
#include "southbound/nxos/nxos_pfc_watchdog_leaves.h"
#include "southbound/nxos/nxos_queuing.h"
#include "southbound/nxos/nxos_queuing_json.h"

namespace rdmagw::southbound::nxos {
namespace {

constexpr ParserFormat kFormats[] = {
    {"nxos-pfc",
     "NX-OS `show interface priority-flow-control` (text or `| json`): per port PFC admin/oper "
     "mode, VL bitmap (hex, bit N = priority N), RxPPP/TxPPP.",
     parsePfc},
    {"nxos-pfc-detail",
     "NX-OS `show interface priority-flow-control detail` and the PFC Statistics part of "
     "`show queuing interface`: per-priority PFC pause frames received/sent.",
     parsePfcDetail},
    {"nxos-queuing",
     "NX-OS `show queuing interface` (N9K and legacy N5K text, or `| json`): per qos-group "
     "transmit/drop/ECN packets and bytes, ingress drops, per-CoS PFC.",
     parseQueuing},
    {"nxos-queuing-json", "NX-OS `show queuing interface | json` (TABLE_queuing_interface grammar).", parseQueuingJson},
    {"nxos-interface",
     "NX-OS `show interface` (text or `| json`): OpenConfig interface counters, CRC and 802.3x "
     "pause; oper/admin state, description, MTU and speed of every interface kind.",
     parseInterface},
    {"nxos-interface-json",
     "NX-OS `show interface | json` (counters, CRC, state, description, MTU, speed), "
     "`show interface counters [detailed] | json`.",
     parseInterfaceJson},
    {"nxos-interface-counters",
     "NX-OS `show interface counters` tables (text or `| json`): octets and unicast/multicast/"
     "broadcast packets.",
     parseInterfaceCounters},
    {"nxos-interface-counters-errors",
     "NX-OS `show interface counters errors` (text or `| json`): every column (FCS, alignment, "
     "undersize, runts, giants, symbol, collision, MAC, Stomped-CRC errors, errors and discards).",
     parseInterfaceCountersErrors},
    {"nxos-interface-counters-errors-json",
     "NX-OS `show interface counters errors | json` only (the reader the collector tries first; "
     "nxos-interface-counters-errors also takes the text form).",
     parseInterfaceCountersErrorsJson},
    {"nxos-lldp-neighbors",
     "NX-OS `show lldp neighbors detail` (text or `| json`): per local port, the neighbour's "
     "system name, port ID and its type, chassis ID and port description (OpenConfig LLDP).",
     parseLldpNeighbors},
    {"nxos-network-qos",
     "NX-OS `show policy-map system type network-qos`: per class the PFC CoS values (pause "
     "pfc-cos, the no-drop priorities) and the MTU.",
     parseNetworkQos},
    {"nxos-class-map-qos",
     "NX-OS `show class-map type qos`: per type-qos class-map whether it matches dscp or cos "
     "(the switch's trust mode for the fabric's DCB consistency).",
     parseClassMapQos},
    {"nxos-running-config-ipqos",
     "NX-OS `show running-config ipqos`: the switch's RoCE QoS configuration (DSCP -> qos-group, "
     "per qos-group pause CoS, MTU, queue, priority, bandwidth, ECN/WRED, PFC watchdog settings).",
     parseNxosIpqosLeaves},
    {"nxos-pfc-watchdog",
     "NX-OS `show queuing pfc-queue detail` text: per port and watched qos-group the PFC watchdog's "
     "state and its shutdown/restore/drop counters.",
     parseNxosPfcWatchdogLeaves},
    {"nxos-pfc-watchdog-json",
     "NX-OS `show queuing pfc-queue detail | json`: the same watchdog leaves as nxos-pfc-watchdog.",
     parseNxosPfcWatchdogJsonLeaves},
};

}  // namespace

std::span<const ParserFormat> nxosParserFormats() { return kFormats; }

}  // namespace rdmagw::southbound::nxos
