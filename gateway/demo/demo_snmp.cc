#include "gateway/demo/demo_snmp.h"

#include "models/log.h"
#include "models/schema.h"

namespace rdmagw::gateway {
namespace {

// The OID of an SNMP table the schema lists, with a leading dot as the
// Net-SNMP tools print it.
std::string tableOid(std::string_view name) {
  for (const SnmpTableSchema& t : SchemaTable::instance().snmpTables()) {
    if (t.name == name) return "." + std::string(t.oid);
  }
  return "." + std::string(SchemaTable::instance().mibRoot());
}

}  // namespace

void startDemoSnmpd(const std::string& dir, GatewayConfig* cfg, sim::SnmpdLauncher* snmpd) {
  if (Status st = snmpd->start(); !st.isOk()) {
    RDMAGW_LOG(kWarn, "demo") << "SNMP skipped (snmpd did not start): " << st.message();
    return;
  }
  cfg->snmp_enabled = true;
  cfg->snmp.agentx_socket = snmpd->agentxSocket();
  cfg->snmp.state_dir = dir + "/snmp-state";
  cfg->snmp.refresh_period = std::chrono::seconds(1);
  cfg->snmp.agentx_ping_interval = std::chrono::seconds(2);
}

std::string demoSnmpHowTo(const sim::SnmpdLauncher& snmpd, const GatewayConfig& cfg) {
  if (!cfg.snmp_enabled || cfg.targets.empty()) return "";
  // A switch shows the PFC tables best; any target will do.
  std::string ctx = cfg.targets.front().name;
  for (const TargetConfig& t : cfg.targets) {
    if (t.kind == "nexus") {
      ctx = t.name;
      break;
    }
  }
  std::string out;
  out += "rdmagw demo: SNMP via snmpd on udp " + snmpd.address() + " (one context per device, e.g. " + ctx + "):\n";
  out += "  snmpwalk " + snmpd.v2cArgs("") + " " + tableOid("rdmagwTargetTable") + "     # devices (default context)\n";
  out += "  snmpwalk " + snmpd.v2cArgs(ctx) + " " + tableOid("cpfcIfPriorityTable") + "    # cpfcIfPriorityTable\n";
  out += "  snmpbulkwalk -Cr50 " + snmpd.v3Args(ctx) + " " + tableOid("ifXTable") + "  # ifXTable, v3 authPriv\n";
  out += "  (v2c community per device: " + snmpd.options().context_community_prefix +
         "<device>; names: -M +<repo>/mibs:<repo>/mibs/standard -m RDMAGW-MIB:IF-MIB)\n";
  return out;
}

}  // namespace rdmagw::gateway
