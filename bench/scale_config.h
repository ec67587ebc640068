#pragma once
// The `rdmagw run` configuration of the scale run (bench/scale_run.sh): one
// gNMI target per simulated leaf, one sysfs target per simulated RDMA host,
// and all three northbounds. Written as YAML, so the gateway under test reads
// it exactly as an operator's file.

#include <chrono>
#include <string>
#include <vector>

namespace rdmagw::bench {

struct ScaleSwitch {
  std::string name;
  std::string address;  // 127.0.0.1:port of the simulated gNMI target
  std::string ca_file;  // the simulator's CA (TLS, as NX-OS serves it)
};

struct ScaleHost {
  std::string name;
  std::string dir;  // holds sys/class/infiniband and ethtool/<netdev>.txt
};

struct ScaleGatewaySpec {
  std::vector<ScaleSwitch> switches;
  std::vector<ScaleHost> hosts;
  std::string gnmi_username;
  std::string gnmi_password_file;  // a reference, as in production configs
  std::chrono::seconds interval{10};  // sysfs polls and gNMI SAMPLE
  std::string prometheus_listen = "127.0.0.1:9464";
  std::string gnmi_listen;         // the gateway's own gNMI server (plain text); empty: off
  std::string snmp_agentx_socket;  // empty: no SNMP northbound
  std::string snmp_state_dir;
  std::chrono::seconds snmp_refresh{10};
};

std::string scaleGatewayYaml(const ScaleGatewaySpec& spec);

}  // namespace rdmagw::bench
