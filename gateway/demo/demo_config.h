#pragma once
// The configuration `rdmagw-demo` runs: one rdma-host target per simulated
// host the simulator wrote under its directory.

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "gateway/config/config.h"
#include "sim/fabric.h"
#include "sim/sshd_launcher.h"

namespace rdmagw::gateway {

// Finds every <sim_dir>/<host>/sys/class/infiniband and makes a target of it,
// reading ethtool text from <sim_dir>/<host>/ethtool.
Result<GatewayConfig> demoConfig(const std::string& sim_dir, const std::string& listen,
                                 std::chrono::milliseconds interval);

// A simulated switch or ESXi host: <sim_dir>/<name>/os says "nxos" or "esxi".
struct SimCliDevice {
  std::string name;
  std::string kind;  // target kind: nexus | esxi
};
std::vector<SimCliDevice> findSimCliDevices(const std::string& sim_dir);

// The sshd that answers for the simulated CLI devices, and each device's key.
struct SimSshEndpoint {
  int port = 0;
  std::string known_hosts_file;
  std::map<std::string, std::string> key_files;  // device -> private key file
};
// The simulated switches' gNMI servers (when the demo runs them).
struct SimGnmiEndpoint {
  std::map<std::string, std::string> address;  // switch -> 127.0.0.1:port
  std::string ca_file;                         // the CA that signed every simulated switch's certificate
  std::string username;
  std::string password_env;                    // the password is referenced, never inline
};

// Adds one SSH target per device that has a key in `endpoint`; a switch that
// also has a gNMI address becomes transport auto (gNMI, SSH as fallback).
void addSimCliTargets(GatewayConfig& cfg, const std::vector<SimCliDevice>& devices,
                      const SimSshEndpoint& endpoint, std::chrono::milliseconds interval,
                      const SimGnmiEndpoint* gnmi = nullptr);

// Starts `sshd` on loopback answering for every simulated switch and ESXi host
// under sim_dir (each through its own client key and forced command) and adds
// them to `cfg` as SSH targets. Needs root, /usr/sbin/sshd and
// rdmagw-sim-shell; says which is missing otherwise. No devices: ok, no sshd.
Status addSimSshDevices(const std::string& sim_dir, std::chrono::milliseconds interval,
                        sim::SshdLauncher& sshd, GatewayConfig& cfg, const SimGnmiEndpoint* gnmi = nullptr);

// Turns the analytics stage on. kLldp (the demo): the simulated leaves serve
// LLDP for their cabling, so the analytics learn every link from it and the
// config holds no static link. kStatic: the simulator's own cabling (every
// RDMA device's port 1 and every vmnic to its leaf port) as static links,
// the fallback for switches that serve no LLDP. Either way a link to a
// device the config has no target for (switches skipped without root) is
// left out. The window holds ten collection intervals.
enum class SimLinks { kLldp, kStatic };
void addSimAnalytics(GatewayConfig& cfg, const sim::Fabric& fabric, std::chrono::milliseconds interval,
                     SimLinks links = SimLinks::kLldp);

}  // namespace rdmagw::gateway
