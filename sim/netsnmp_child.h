#pragma once
// What a child just forked to run a Net-SNMP daemon (snmpd, snmptrapd) needs
// before its exec; shared by the two launchers.

#include <string>

namespace rdmagw::sim {

// No blocked signals (a parent that blocks SIGTERM for sigwait, as
// rdmagw-demo does, must not hand that mask on, or the daemon could not be
// stopped), stdout and stderr appended to `log`, the daemon's persistent and
// config dirs at `persist` (no system configs), and no MIB files loaded:
// OIDs stay numeric.
void prepareNetSnmpChild(const std::string& log, const std::string& persist);

}  // namespace rdmagw::sim
