// mibs/RDMAGW-MIB.txt against the tools and the schema: smilint -l 6 is
// clean, snmptranslate loads it, every schema OID names an object of the
// MIB it belongs to, and every readable RDMAGW-MIB column is served (a
// schema row's OID or a target-table column).

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "models/schema.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/notification_table.h"
#include "tests/northbound/snmp/table_names.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

using testing::runCommand;

const std::string kMibs = std::string(RDMAGW_SOURCE_DIR) + "/mibs";
const std::string kMibFile = kMibs + "/RDMAGW-MIB.txt";

bool haveTool(const std::string& name) { return runCommand("command -v " + name).exit_code == 0; }

// snmptranslate with only our MIB dirs, no user or system snmp.conf, and
// its own persistent dir. The tools create <persistent>/cert_indexes on
// first use and say so on the output ("Created directory: ..."), which on a
// fresh machine broke the exact-output checks: the dir is made up front.
testing::CommandResult translate(const std::string& args) {
  static const testing::TempDir persistent("rdmagw-snmptranslate");
  static const bool made = runCommand("mkdir -p " + persistent.file("cert_indexes")).exit_code == 0;
  EXPECT_TRUE(made);
  return runCommand("SNMP_PERSISTENT_DIR=" + persistent.path() + " SNMPCONFPATH=/nonexistent MIBS= snmptranslate -M " +
                    kMibs + ":" + kMibs + "/standard -m RDMAGW-MIB:IF-MIB " + args);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

std::set<std::string> schemaOids() {
  std::set<std::string> out;
  for (const LeafSchema& leaf : SchemaTable::instance().leaves()) {
    std::istringstream in{std::string(leaf.oid)};
    for (std::string oid; in >> oid;) out.insert(oid);
  }
  return out;
}

TEST(MibFileTest, SmilintLevel6IsClean) {
  if (!haveTool("smilint")) GTEST_SKIP() << "smilint (Debian smitools) not installed: scripts/install-deps.sh";
  testing::CommandResult r =
      runCommand("SMIPATH=" + kMibs + "/standard smilint -c /dev/null -l 6 -s " + kMibFile);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
}

TEST(MibFileTest, SnmptranslateLoadsIt) {
  testing::CommandResult r = translate("-On RDMAGW-MIB::rdmagwTargetTable");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, ".1.3.6.1.4.1.32473.1.1.1\n");
}

TEST(MibFileTest, EverySchemaOidNamesAnObject) {
  const std::string ours = std::string(SchemaTable::instance().mibRoot()) + ".";
  std::vector<std::string> checked;
  std::string args;
  for (const std::string& oid : schemaOids()) {
    // IF-MIB and our own are loadable here; EtherLike, IEEE8021-PFC and
    // CISCO-PFC-EXT are not vendored: the catalog checks those tables.
    if (oid.rfind(ours, 0) != 0 && oid.rfind("1.3.6.1.2.1.2.2.", 0) != 0 && oid.rfind("1.3.6.1.2.1.31.", 0) != 0) continue;
    checked.push_back(oid);
    args += " ." + oid;
  }
  ASSERT_FALSE(checked.empty());
  testing::CommandResult r = translate("-OS" + args);
  std::vector<std::string> names = lines(r.output);
  ASSERT_EQ(names.size(), checked.size()) << r.output;
  for (size_t i = 0; i < names.size(); ++i) {
    bool ok = names[i].rfind("RDMAGW-MIB::rdmagw", 0) == 0 || names[i].rfind("IF-MIB::if", 0) == 0;
    EXPECT_TRUE(ok && names[i].find('.') == std::string::npos) << checked[i] << " -> " << names[i];
  }
}

TEST(MibFileTest, EveryReadableMibColumnIsServed) {
  std::ifstream in(kMibFile);
  std::stringstream text;
  text << in.rdbuf();
  std::regex object(R"((\w+) OBJECT-TYPE\s+SYNTAX[^\n]*\n(?:\s+UNITS[^\n]*\n)?\s+MAX-ACCESS\s+read-only)");
  std::vector<std::string> readable;
  std::string s = text.str();
  for (std::sregex_iterator it(s.begin(), s.end(), object), end; it != end; ++it) readable.push_back((*it)[1]);
  ASSERT_GT(readable.size(), 100u);
  std::string args;
  for (const std::string& name : readable) args += " RDMAGW-MIB::" + name;
  testing::CommandResult r = translate("-On" + args);
  std::vector<std::string> oids = lines(r.output);
  ASSERT_EQ(oids.size(), readable.size()) << r.output;

  // Leaves' columns, the gateway metrics' (the target table) and the
  // columns the tables derive from keys and health.
  std::set<std::string> served = schemaOids();
  const MibCatalog& catalog = MibCatalog::instance();
  auto serve = [&](const Placement& p) {
    served.insert(oidToString(catalog.tables()[p.table].entry) + "." + std::to_string(p.column));
  };
  for (const GatewayMetric& m : SchemaTable::instance().gatewayMetrics()) {
    for (const Placement& p : catalog.placements(&m)) serve(p);
  }
  for (const TableDef& t : catalog.tables()) {
    for (const Placement& p : t.derived) serve(p);
  }
  for (size_t i = 0; i < oids.size(); ++i) {
    EXPECT_TRUE(served.count(oids[i].substr(1))) << readable[i] << " " << oids[i] << " has no schema row";
  }
}

// Every row of the notification table is a NOTIFICATION-TYPE at its OID
// whose OBJECTS are the device, the port, then exactly the columns the
// sender carries (code first), as the catalog places them.
TEST(MibFileTest, EveryNotificationOfTheTableIsDefinedWithTheObjectsItCarries) {
  std::ifstream in(kMibFile);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const MibCatalog& catalog = MibCatalog::instance();
  ASSERT_GE(notificationTable().size(), 4u);
  for (const NotificationDef& def : notificationTable()) {
    SCOPED_TRACE(std::string(def.name));
    testing::CommandResult r = translate("-On RDMAGW-MIB::" + std::string(def.name));
    EXPECT_EQ(r.output, "." + std::string(notificationsArc()) + "." + std::to_string(def.sub_id) + "\n");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(s, m, std::regex(std::string(def.name) + R"( NOTIFICATION-TYPE\s+OBJECTS\s+\{([^}]*)\})")));
    std::string args;
    std::istringstream objects(std::regex_replace(std::string(m[1]), std::regex(","), " "));
    for (std::string o; objects >> o;) args += " RDMAGW-MIB::" + o;
    std::vector<std::string> oids = lines(translate("-On" + args).output);
    const size_t t = catalog.find(def.table);
    ASSERT_LT(t, catalog.tables().size()) << def.table;
    const std::string entry = "." + oidToString(catalog.tables()[t].entry) + ".";
    std::vector<std::string> want = {"." + std::string(notifyTargetOid()).substr(0, notifyTargetOid().size() - 2),
                                     "." + std::string(notifyPortOid()).substr(0, notifyPortOid().size() - 2),
                                     entry + std::to_string(def.code_column)};
    for (uint32_t c : def.extra_columns) {
      if (c != 0) want.push_back(entry + std::to_string(c));
    }
    EXPECT_EQ(oids, want);
  }
}

TEST(MibFileTest, NotificationGroupAndComplianceNameEveryNotification) {
  std::ifstream in(kMibFile);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  std::smatch group, compliance;
  ASSERT_TRUE(std::regex_search(s, group, std::regex(R"(rdmagwFabricNotificationsGroup NOTIFICATION-GROUP\s+NOTIFICATIONS\s+\{([^}]*)\})")));
  ASSERT_TRUE(std::regex_search(s, compliance, std::regex(R"(MANDATORY-GROUPS\s+\{([^}]*)\})")));
  EXPECT_NE(std::string(compliance[1]).find("rdmagwFabricNotificationsGroup"), std::string::npos);
  EXPECT_NE(std::string(compliance[1]).find("rdmagwNotifyObjectsGroup"), std::string::npos);
  for (const NotificationDef& def : notificationTable()) {
    EXPECT_NE(std::string(group[1]).find(std::string(def.name)), std::string::npos) << def.name;
  }
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
