#include "sim/cli_names.h"

namespace rdmagw::sim {

std::string commandSlug(const std::string& command) {
  std::string out;
  bool sep = false;
  for (char c : command) {
    const char l = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
    if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9')) {
      if (sep && !out.empty()) out += '_';
      out += l;
      sep = false;
    } else {
      sep = true;
    }
  }
  return out;
}

const std::vector<std::string>& nxosCommands() {
  static const std::vector<std::string> kCommands = {
      "show interface priority-flow-control",
      "show queuing interface",
      "show queuing interface | json",
      "show interface",
      "show interface | json",
      "show interface counters errors",
      "show lldp neighbors detail",
      "show lldp neighbors detail | json",
      "show policy-map system type network-qos",
      "show class-map type qos",
      "show running-config ipqos",
      "show queuing pfc-queue detail",
  };
  return kCommands;
}

}  // namespace rdmagw::sim
