#include "sim/fabric_config.h"

#include <string>

namespace rdmagw::sim {

Status FabricConfig::validate() const {
  std::string errors;
  auto add = [&errors](const std::string& e) {
    if (!errors.empty()) errors += "; ";
    errors += e;
  };
  if (hosts < 1 || hosts > 4096) add("sim.hosts: " + std::to_string(hosts) + " not in 1..4096");
  if (devices_per_host < 1 || devices_per_host > 16) {
    add("sim.devices_per_host: " + std::to_string(devices_per_host) + " not in 1..16");
  }
  if (roce_priority < 0 || roce_priority > 7) {
    add("sim.roce_priority: " + std::to_string(roce_priority) + " not in 0..7");
  }
  if (cnp_priority < -1 || cnp_priority > 7) {
    add("sim.cnp_priority: " + std::to_string(cnp_priority) + " not in 0..7 (-1: automatic)");
  } else if (cnp_priority >= 0 && (cnp_priority == roce_priority || cnp_priority == (roce_priority == 0 ? 1 : 0))) {
    add("sim.cnp_priority: " + std::to_string(cnp_priority) +
        " is the RoCE priority or the lossy one (" + std::to_string(roce_priority == 0 ? 1 : 0) + ")");
  }
  // NaN fails both comparisons, so it is rejected too.
  if (!(link_gbps >= 1 && link_gbps <= 1600)) add("sim.link_gbps: must be in 1..1600");
  if (switches < 1 || switches > 256) {
    add("sim.switches: " + std::to_string(switches) + " not in 1..256");
  }
  if (mlnx_qos_hosts < 0 || mlnx_qos_hosts > hosts) {
    add("sim.mlnx_qos_hosts: " + std::to_string(mlnx_qos_hosts) + " not in 0..hosts (" + std::to_string(hosts) + ")");
  }
  if (hosts_per_leaf < 0) add("sim.hosts_per_leaf: " + std::to_string(hosts_per_leaf) + " is negative");
  if (esxi_hosts < 0 || esxi_hosts > 64) {
    add("sim.esxi_hosts: " + std::to_string(esxi_hosts) + " not in 0..64");
  }
  if (internal_ports < 1 || internal_ports > 16) {
    add("sim.internal_ports: " + std::to_string(internal_ports) + " not in 1..16");
  }
  return errors.empty() ? Status::ok() : Status::invalidArgument(errors);
}

}  // namespace rdmagw::sim
