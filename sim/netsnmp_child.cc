#include "sim/netsnmp_child.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

namespace rdmagw::sim {

void prepareNetSnmpChild(const std::string& log, const std::string& persist) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
  }
  setenv("SNMP_PERSISTENT_DIR", persist.c_str(), 1);
  setenv("SNMPCONFPATH", persist.c_str(), 1);
  setenv("MIBS", "", 1);
}

}  // namespace rdmagw::sim
