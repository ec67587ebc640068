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
  // With a key: transport auto, the CLI over SSH beside gNMI (the
  // configuration NX-OS serves only on its CLI, e.g. running-config ipqos).
  std::string ssh_key_file{};
  int ssh_port = 0;
  std::string known_hosts_file{};
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
  bool analytics = false;         // the fabric verdicts over the leaves' LLDP
  bool roce_checks = true;        // analytics.roce_checks
  int no_drop_priority = 3;
};

std::string scaleGatewayYaml(const ScaleGatewaySpec& spec);

}  // namespace rdmagw::bench
