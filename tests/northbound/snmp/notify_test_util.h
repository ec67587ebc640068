#pragma once
// Helpers for the SNMP notification tests: an agent config without snmpd
// (notifications leave from the subagent itself), destinations pointing at
// a test snmptrapd (sim/snmptrapd_launcher.h) with their secrets in
// environment variables, and waits on what snmptrapd received.

#include <functional>
#include <string>
#include <vector>

#include "northbound/snmp/snmp_agent.h"
#include "northbound/snmp/snmp_config.h"
#include "sim/snmptrapd_launcher.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::snmp;  // the helpers speak the vocabulary of the code they test

// Trap OIDs of RDMAGW-MIB (rdmagwNotifications.N) and the objects they carry.
inline constexpr const char* kDcqcnChange = ".1.3.6.1.4.1.32473.1.0.1";
inline constexpr const char* kPauseStormChange = ".1.3.6.1.4.1.32473.1.0.2";
inline constexpr const char* kLosslessDropChange = ".1.3.6.1.4.1.32473.1.0.3";
inline constexpr const char* kPauseTreeChange = ".1.3.6.1.4.1.32473.1.0.4";
inline constexpr const char* kDcbChange = ".1.3.6.1.4.1.32473.1.0.5";
inline constexpr const char* kNotifyTarget = ".1.3.6.1.4.1.32473.1.3.1.0";
inline constexpr const char* kNotifyPort = ".1.3.6.1.4.1.32473.1.3.2.0";
inline constexpr const char* kFabricPrioEntry = ".1.3.6.1.4.1.32473.1.1.8.1.";
inline constexpr const char* kFabricDcqcnEntry = ".1.3.6.1.4.1.32473.1.1.9.1.";
inline constexpr const char* kFabricDcbEntry = ".1.3.6.1.4.1.32473.1.1.10.1.";

// Subagent with no snmpd behind its AgentX socket, fast snapshots, secrets
// read from environment variables.
SnmpConfig notifyAgentConfig(const std::string& state_dir);

// Destinations at `trapd` (secrets exported into the environment).
SnmpNotifyDestination v2cDestination(const sim::SnmptrapdLauncher& trapd, SnmpNotifyDestination::Type type);
SnmpNotifyDestination v3InformDestination(const sim::SnmptrapdLauncher& trapd);
// authPriv SHA-256/AES as `options` configure the receiver, at 127.0.0.1:port.
SnmpNotifyDestination v3Destination(const sim::SnmptrapdOptions& options, int port, SnmpNotifyDestination::Type type);

// The received notifications whose snmpTrapOID is `trap_oid` ("" any).
std::vector<sim::ReceivedTrap> trapsOf(const sim::SnmptrapdLauncher& trapd, const std::string& trap_oid);
// Waits (testing::kEventWait) until `trapd` holds at least `count` of them.
bool waitForTraps(const sim::SnmptrapdLauncher& trapd, const std::string& trap_oid, size_t count);
// Waits until `cond` holds, refreshing the agent's snapshot meanwhile.
bool waitRefreshing(SnmpAgent& agent, const std::function<bool()>& cond);

// The ifIndex the agent gave interface `name` of `target`, 0 if none.
uint32_t ifIndexOf(const SnmpAgent& agent, const std::string& target, const std::string& name);

}  // namespace rdmagw::testing
