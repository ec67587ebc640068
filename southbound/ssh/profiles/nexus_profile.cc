#include "southbound/ssh/profiles/nexus_profile.h"

#include "southbound/nxos/nxos_class_map_qos.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_ipqos_leaves.h"
#include "southbound/nxos/nxos_lldp.h"
#include "southbound/nxos/nxos_network_qos.h"
#include "southbound/nxos/nxos_pfc.h"
#include "southbound/nxos/nxos_pfc_watchdog_leaves.h"
#include "southbound/nxos/nxos_queuing.h"
#include "southbound/nxos/nxos_queuing_json.h"

namespace rdmagw::southbound::ssh {

using nxos::parseClassMapQos;
using nxos::parseInterface;
using nxos::parseInterfaceCountersErrors;
using nxos::parseInterfaceCountersErrorsJson;
using nxos::parseInterfaceJson;
using nxos::parseLldpNeighbors;
using nxos::parseNetworkQos;
using nxos::parsePfc;
using nxos::parseQueuing;
using nxos::parseQueuingJson;

namespace {

// The RoCE configuration (DSCP -> qos-group -> queue, pause, ECN, watchdog)
// for `rdmagw check roce`. Optional: a release or role without the command
// keeps the rest. Configuration: every 10th poll after the first.
CliCommand ipqosCommand() {
  CliCommand c("show running-config ipqos", nxos::parseNxosIpqosLeaves, true);
  c.every = 10;
  return c;
}

// The PFC watchdog as it runs: per port and watched qos-group its state
// (Shutdown while it holds a queue shut) and its shutdown/restore/drain
// counters, cross-checked with our own pause-storm verdicts. Live state,
// so every poll: read every 10th poll like the configuration, a shutdown
// and its storm would be judged up to ten polls apart, and a watchdog that
// acted between two reads could look like one that never did. Optional: a
// release without the command keeps the rest. JSON first (key names from
// Cisco's command reference), the text form where `| json` is refused.
CliCommand pfcWatchdogCommand() {
  return CliCommand("show queuing pfc-queue detail | json", nxos::parseNxosPfcWatchdogJsonLeaves, true,
                    {{"show queuing pfc-queue detail", nxos::parseNxosPfcWatchdogLeaves}});
}

}  // namespace

std::vector<CliCommand> nexusCommands() {
  return {
      // Port PFC mode, oper state, RxPPP/TxPPP, internal ii ports included.
      CliCommand("show interface priority-flow-control | json", parsePfc, false,
                 {{"show interface priority-flow-control", parsePfc}}),
      // Per qos-group tx/drop/ECN, per-CoS PFC pause counts, ingress drops.
      CliCommand("show queuing interface | json", parseQueuingJson, false,
                 {{"show queuing interface", parseQueuing}}),
      // OpenConfig interface counters and 802.3x pause.
      CliCommand("show interface | json", parseInterfaceJson, false,
                 {{"show interface", parseInterface}}),
      // FCS/CRC, stomped CRC, runts, giants, symbol and collision errors: the
      // columns a lossless fabric is troubleshot with. Optional: an older
      // release that lacks a column or the command keeps the rest.
      CliCommand("show interface counters errors | json", parseInterfaceCountersErrorsJson, true,
                 {{"show interface counters errors", parseInterfaceCountersErrors}}),
      // LLDP neighbours: the cabling analytics/ builds its links from.
      // Optional: `feature lldp` may be off, and the counters stand alone.
      CliCommand("show lldp neighbors detail | json", parseLldpNeighbors, true,
                 {{"show lldp neighbors detail", parseLldpNeighbors}}),
      // No-drop classes and their MTU, for the fabric's DCB consistency.
      // Optional: a switch without a system network-qos policy keeps the rest.
      CliCommand("show policy-map system type network-qos", parseNetworkQos, true),
      // Trust mode (DSCP or CoS classification), for the same check; optional alike.
      CliCommand("show class-map type qos", parseClassMapQos, true),
      ipqosCommand(),
      pfcWatchdogCommand(),
  };
}

std::vector<CliCommand> nexusGnmiSupplementCommands() {
  return {CliCommand("show interface priority-flow-control | json", parsePfc, false,
                     {{"show interface priority-flow-control", parsePfc}}),
          CliCommand("show policy-map system type network-qos", parseNetworkQos, true),
          CliCommand("show class-map type qos", parseClassMapQos, true), ipqosCommand(),
          pfcWatchdogCommand()};
}

}  // namespace rdmagw::southbound::ssh
