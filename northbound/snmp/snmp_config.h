#pragma once
// Configuration of the SNMP northbound: an AgentX subagent of the system's
// snmpd, which keeps UDP 161, the SNMPv3 users and the access control.

#include <chrono>
#include <string>
#include <vector>

#include "models/status.h"
#include "northbound/snmp/if_index_registry.h"
#include "northbound/snmp/snmp_notify_config.h"

namespace rdmagw::northbound::snmp {

struct SnmpConfig {
  // snmpd's `agentXSocket`: a unix socket path ("/var/agentx/master",
  // "unix:/run/agentx.sock") or "tcp:127.0.0.1:705".
  std::string agentx_socket = "/var/agentx/master";
  // Where the ifIndex assignments live (snmp-ifindex.tsv): keep it across
  // upgrades, NMSes key their history on ifIndex.
  std::string state_dir = "/var/lib/rdmagw";
  // How interfaces get their ifIndex (if_index_registry.h): kSequential
  // (numbers in the state file) keeps a lone gateway's numbers across
  // upgrades; kDerived (from the name) keeps a target's numbers when it
  // moves between fleet members. The config reader picks kDerived in a
  // fleet unless `if_index` says otherwise.
  IfIndexScheme if_index = IfIndexScheme::kSequential;
  // How often the served snapshot is rebuilt from the store.
  std::chrono::milliseconds refresh_period{5000};
  // AgentX ping: how soon the subagent notices snmpd restarted and
  // reconnects. Not in the YAML (tests shorten it).
  std::chrono::seconds agentx_ping_interval{5};
  // Answer AgentX Get/GetNext on the AgentX session itself instead of
  // through Net-SNMP's internal agent (agentx_fast_path.h). Not in the
  // YAML: off only to compare the two paths (tests, benchmarks).
  bool agentx_fast_path = true;

  // Notifications of verdict changes (notification_table.h), sent from the
  // subagent to each destination. `read_secret` resolves their secrets
  // (set by the gateway); `notification_queue` bounds what waits to be
  // sent (beyond it notifications are dropped and counted). Not in the
  // YAML: read_secret, notification_queue.
  std::vector<SnmpNotifyDestination> notifications;
  SecretReader read_secret;
  size_t notification_queue = 1024;

  // Every problem at once, each prefixed with its key. The destinations are
  // checked by validateNotifications() (the config reader checks each at its
  // own line).
  Status validate() const;
  Status validateNotifications() const;

  std::string ifIndexStateFile() const { return state_dir + "/snmp-ifindex.tsv"; }
};

}  // namespace rdmagw::northbound::snmp
