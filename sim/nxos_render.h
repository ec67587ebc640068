#pragma once
// What a simulated Nexus leaf prints for the commands the gateway's CLI
// collector runs, in the layouts of the recorded outputs under
// /work/shared/fixtures/nxos (N9K text and NX-API `| json`), so the real
// parsers read the simulator exactly as they read a switch.

#include <string>

#include "sim/switch.h"

namespace rdmagw::sim {

struct NxosView {
  int roce_priority = 3;  // the no-drop CoS; its qos-group has the same number
  int cnp_priority = 6;   // the CNPs' CoS and qos-group (strict priority)
  double link_gbps = 100;
  int tick = 0;           // for uptime-like strings and mgmt0 counters
};

// show interface priority-flow-control (Ethernet and ii ports).
std::string nxosShowPfc(const Switch& sw, const NxosView& view);
// show queuing interface (every Ethernet port, modern N9K layout).
std::string nxosShowQueuing(const Switch& sw, const NxosView& view);
// show queuing interface | json
std::string nxosShowQueuingJson(const Switch& sw, const NxosView& view);
// show interface (mgmt0 and every Ethernet port).
std::string nxosShowInterface(const Switch& sw, const NxosView& view);
// show interface | json
std::string nxosShowInterfaceJson(const Switch& sw, const NxosView& view);
// show interface counters errors (text only: the collector asks for
// `| json` first, falls back to the text form and remembers that it worked).
std::string nxosShowCountersErrors(const Switch& sw, const NxosView& view);
// show lldp neighbors detail [| json]: what each host port's host
// advertises (sim/nxos_lldp_render.cc).
std::string nxosShowLldpNeighbors(const Switch& sw);
std::string nxosShowLldpNeighborsJson(const Switch& sw);
// show class-map type qos: the RoCE and CNP classes matching DSCP 26 and 48:
// the switch trusts DSCP. `show policy-map system type network-qos` and
// `show running-config ipqos` are in sim/roce_qos.h.
std::string nxosShowClassMapQos();

}  // namespace rdmagw::sim
