#include "tests/northbound/snmp/notify_test_util.h"

#include <cstdlib>

#include "northbound/snmp/mib_catalog.h"
#include "tests/northbound/snmp/table_names.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::snmp;  // the helpers speak the vocabulary of the code they test

SnmpConfig notifyAgentConfig(const std::string& state_dir) {
  SnmpConfig cfg;
  cfg.agentx_socket = state_dir + "/no-snmpd.sock";  // nobody listens: notifications need no snmpd
  cfg.state_dir = state_dir;
  cfg.refresh_period = std::chrono::milliseconds(200);
  cfg.read_secret = [](std::string_view field, const SecretRef& ref) -> Result<std::string> {
    const char* v = std::getenv(ref.env.c_str());
    if (v == nullptr) return Status::notFound(std::string(field) + ": " + ref.env + " is not set");
    return std::string(v);
  };
  return cfg;
}

namespace {

SecretRef exported(const std::string& var, const std::string& value) {
  setenv(var.c_str(), value.c_str(), 1);
  return SecretRef{var, ""};
}

}  // namespace

SnmpNotifyDestination v2cDestination(const sim::SnmptrapdLauncher& trapd, SnmpNotifyDestination::Type type) {
  SnmpNotifyDestination d;
  d.host = "127.0.0.1";
  d.port = uint16_t(trapd.port());
  d.type = type;
  d.community = exported("RDMAGW_TEST_TRAP_COMMUNITY", trapd.options().community);
  d.retries = 2;
  d.timeout = std::chrono::seconds(2);
  return d;
}

SnmpNotifyDestination v3InformDestination(const sim::SnmptrapdLauncher& trapd) {
  return v3Destination(trapd.options(), trapd.port(), SnmpNotifyDestination::Type::kInform);
}

SnmpNotifyDestination v3Destination(const sim::SnmptrapdOptions& options, int port, SnmpNotifyDestination::Type type) {
  SnmpNotifyDestination d;
  d.host = "127.0.0.1";
  d.port = uint16_t(port);
  d.version = SnmpNotifyDestination::Version::kV3;
  d.type = type;
  d.user = options.v3_user;
  d.auth_protocol = "SHA-256";
  d.auth_passphrase = exported("RDMAGW_TEST_TRAP_AUTH", options.v3_auth_pass);
  d.priv_protocol = "AES";
  d.priv_passphrase = exported("RDMAGW_TEST_TRAP_PRIV", options.v3_priv_pass);
  d.retries = 2;
  d.timeout = std::chrono::seconds(2);
  return d;
}

std::vector<sim::ReceivedTrap> trapsOf(const sim::SnmptrapdLauncher& trapd, const std::string& trap_oid) {
  std::vector<sim::ReceivedTrap> out;
  for (sim::ReceivedTrap& t : trapd.received()) {
    if (trap_oid.empty() || t.trapOid() == trap_oid) out.push_back(std::move(t));
  }
  return out;
}

bool waitForTraps(const sim::SnmptrapdLauncher& trapd, const std::string& trap_oid, size_t count) {
  return testing::waitUntil([&] { return trapsOf(trapd, trap_oid).size() >= count; },
                                testing::kEventWait, std::chrono::milliseconds(50));
}

bool waitRefreshing(SnmpAgent& agent, const std::function<bool()>& cond) {
  return testing::waitUntil(
      [&] {
        agent.refreshNow();
        return cond();
      },
      testing::kEventWait, std::chrono::milliseconds(100));
}

uint32_t ifIndexOf(const SnmpAgent& agent, const std::string& target, const std::string& name) {
  northbound::snmp::MibSnapshotPtr snap = agent.latestSnapshot();
  if (!snap || !snap->contexts.count(target)) return 0;
  const northbound::snmp::TableData& ifx = snap->contexts.at(target).tables[northbound::snmp::MibCatalog::instance().find(northbound::snmp::kIfXTable)];
  size_t column = ifx.findColumn(1);  // ifName
  if (column == northbound::snmp::TableData::kNone) return 0;
  for (size_t r = 0; r < ifx.rowCount(); ++r) {
    std::optional<northbound::snmp::CellView> cell = ifx.cell(column, r);
    if (cell && cell->text == name) return ifx.rowIndex(r)[0];
  }
  return 0;
}

}  // namespace rdmagw::testing
