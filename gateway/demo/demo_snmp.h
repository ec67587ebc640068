#pragma once
// The demo's SNMP face: its own snmpd (loopback, unprivileged UDP port,
// temp dir, v2c per device context and a v3 authPriv user) as AgentX
// master, and the gateway's subagent pointed at it.

#include <string>

#include "gateway/config/config.h"
#include "sim/snmpd_launcher.h"

namespace rdmagw::gateway {

// Starts `snmpd` with one context per configured target and enables
// northbound.snmp in `cfg` (state under <dir>/snmp-state). On failure (no
// snmpd installed) logs why and leaves SNMP off: the demo goes on.
void startDemoSnmpd(const std::string& dir, GatewayConfig* cfg, sim::SnmpdLauncher* snmpd);

// The lines the demo prints: how to walk what it serves.
std::string demoSnmpHowTo(const sim::SnmpdLauncher& snmpd, const GatewayConfig& cfg);

}  // namespace rdmagw::gateway
