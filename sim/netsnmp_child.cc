#include "sim/netsnmp_child.h"

#include "sim/child_setup.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

namespace rdmagw::sim {

void prepareNetSnmpChild(const std::string& log, const std::string& persist) {
  prepareChildOutput(log);
  setenv("SNMP_PERSISTENT_DIR", persist.c_str(), 1);
  setenv("SNMPCONFPATH", persist.c_str(), 1);
  setenv("MIBS", "", 1);
}

}  // namespace rdmagw::sim
