#include "models/schema.h"

#include "models/path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>
#include <set>

namespace rdmagw {
namespace {

TEST(SchemaTableTest, FindsRowsByKeylessPath) {
  const auto& t = SchemaTable::instance();
  const LeafSchema* row = t.find("/rdma/devices/device/ports/port/state/hw-counters/np-cnp-sent");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->kind, LeafKind::kCounter);
  EXPECT_EQ(row->prom_name, "rdmagw_rdma_port_np_cnp_sent_total");
  EXPECT_EQ(t.find("/no/such/leaf"), nullptr);
}

// Prometheus conventions hold for every row: one prefix, counters end in
// _total, valid metric names, unique names, labels that are valid names.
TEST(SchemaTableTest, EveryRowFollowsNamingConventions) {
  const std::regex name_re("^rdmagw_[a-z0-9_]+$");
  const std::regex label_re("^[a-z_][a-z0-9_]*$");
  const auto label_ok = [&](std::string_view l) {
    return std::regex_match(std::string(l), label_re) ||
           std::find(std::begin(kForeignLabelSpellings), std::end(kForeignLabelSpellings), l) !=
               std::end(kForeignLabelSpellings);
  };
  std::set<std::string_view> names, paths;
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    SCOPED_TRACE(std::string(row.path));
    EXPECT_TRUE(std::regex_match(std::string(row.prom_name), name_re));
    // An info row's leaves share its family, each as its own label.
    if (row.prom_info_label.empty()) {
      EXPECT_TRUE(names.insert(row.prom_name).second) << "duplicate family " << row.prom_name;
    } else {
      EXPECT_TRUE(label_ok(row.prom_info_label)) << row.prom_info_label;
      // A gauge may name an entry too (an index); never a counter.
      EXPECT_NE(row.kind, LeafKind::kCounter);
    }
    EXPECT_TRUE(paths.insert(row.path).second) << "duplicate path";
    EXPECT_FALSE(row.help.empty());
    EXPECT_EQ(row.path.front(), '/');
    const bool total = row.prom_name.ends_with("_total");
    EXPECT_EQ(total, row.kind == LeafKind::kCounter) << row.prom_name;
    if (row.kind == LeafKind::kString) EXPECT_TRUE(row.prom_name.ends_with("_info"));
    if (row.unit == "microseconds") EXPECT_NE(row.prom_name.find("_seconds"), std::string_view::npos);
    if (row.unit == "bytes") EXPECT_NE(row.prom_name.find("_bytes"), std::string_view::npos);
    for (std::string_view l : SchemaTable::splitLabels(row.labels)) {
      EXPECT_TRUE(label_ok(l)) << l;
      EXPECT_NE(l, kTargetLabel) << "the target label is implicit";
    }
  }
  for (const InfoRowSchema& info : SchemaTable::instance().infoRows()) {
    EXPECT_TRUE(names.insert(info.prom_name).second) << "duplicate family " << info.prom_name;
    EXPECT_TRUE(info.prom_name.ends_with("_info")) << info.prom_name;
  }
  for (const GatewayMetric& m : SchemaTable::instance().gatewayMetrics()) {
    EXPECT_TRUE(std::regex_match(std::string(m.prom_name), name_re));
    EXPECT_TRUE(names.insert(m.prom_name).second) << "duplicate family " << m.prom_name;
    EXPECT_EQ(m.prom_name.ends_with("_total"), m.kind == LeafKind::kCounter) << m.prom_name;
    EXPECT_EQ(&SchemaTable::instance().gateway(m.id), &m);
  }
}

// The convention every consumer relies on: each label names the list element
// of the path that carries the key, in path order: the element's name (a
// '-' written '_', as label names must), or the key it is listed by
// (dscp-priority[dscp] -> dscp).
TEST(SchemaTableTest, EveryLabelNamesAKeyedElementInPathOrder) {
  const SchemaTable& t = SchemaTable::instance();
  for (const LeafSchema& row : t.leaves()) {
    auto elems = Path::parse(row.path);
    ASSERT_TRUE(elems.isOk()) << row.path;
    auto names = [&](size_t i, std::string_view label) {
      std::string name = elems->elems()[i].name;
      std::replace(name.begin(), name.end(), '-', '_');
      if (name == label) return true;
      std::string prefix;
      for (size_t k = 0; k <= i; ++k) prefix += "/" + elems->elems()[k].name;
      const ListSchema* list = t.findList(prefix);
      if (list == nullptr) return false;
      // Another exporter's spelling of the key (UUID for uuid) names it too.
      std::string lower(label);
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      return list->key == label || (list->key == lower && list->label == label);
    };
    size_t next = 0;
    for (std::string_view label : SchemaTable::splitLabels(row.labels)) {
      while (next < elems->elems().size() && !names(next, label)) ++next;
      EXPECT_LT(next, elems->elems().size()) << row.path << ": label " << label << " names no element";
      ++next;
    }
  }
}

// The qualified path is the keyless path with module names: stripping them
// gives the path back, the first node names its module, the leaf's module
// is the last one named, and every module is one the schema lists.
TEST(SchemaTableTest, QualifiedPathsAgreeWithPathsAndModules) {
  const SchemaTable& t = SchemaTable::instance();
  for (const LeafSchema& row : t.leaves()) {
    SCOPED_TRACE(std::string(row.qualified_path));
    std::string stripped, module;
    std::string_view rest = row.qualified_path;
    ASSERT_TRUE(rest.starts_with("/"));
    bool first = true;
    while (!rest.empty()) {
      rest.remove_prefix(1);
      std::string_view seg = rest.substr(0, rest.find('/'));
      rest.remove_prefix(seg.size());
      if (size_t colon = seg.find(':'); colon != std::string_view::npos) {
        module = std::string(seg.substr(0, colon));
        EXPECT_NE(t.findModule(module), nullptr) << module;
        seg.remove_prefix(colon + 1);
      } else {
        EXPECT_FALSE(first) << "the first node names its module";
      }
      first = false;
      stripped += "/" + std::string(seg);
      EXPECT_EQ(t.moduleOfNode(stripped), module) << stripped;
    }
    EXPECT_EQ(stripped, row.path);
    EXPECT_EQ(row.yang_module, module);
    EXPECT_FALSE(row.yang_type.empty());
  }
}

TEST(SchemaTableTest, ModulesOfNodesFollowTheOwnershipRule) {
  const SchemaTable& t = SchemaTable::instance();
  EXPECT_EQ(t.moduleOfNode("/interfaces"), "openconfig-interfaces");
  EXPECT_EQ(t.moduleOfNode("/interfaces/interface/ethernet"), "openconfig-if-ethernet");
  EXPECT_EQ(t.moduleOfNode("/interfaces/interface/ethernet/pfc"), "rdmagw-interfaces");
  EXPECT_EQ(t.moduleOfNode("/qos"), "openconfig-qos");
  EXPECT_EQ(t.moduleOfNode("/qos/network-qos"), "rdmagw-qos");
  EXPECT_EQ(t.moduleOfNode("/lldp"), "openconfig-lldp");
  EXPECT_EQ(t.moduleOfNode("/rdma"), "rdmagw-rdma");
  EXPECT_EQ(t.moduleOfNode("/hypervisor"), "rdmagw-hypervisor-nic");
  EXPECT_EQ(t.moduleOfNode("/fabric"), "rdmagw-fabric");
  EXPECT_EQ(t.moduleOfNode("/no/such/node"), "");
  EXPECT_EQ(t.moduleOfNode("/interfaces/interface/name"), "openconfig-interfaces");
  EXPECT_EQ(t.moduleOfNode("/interfaces/interface/ethernet/pfc/priorities/priority/id"), "rdmagw-interfaces");
  // OpenConfig's types where OpenConfig owns the leaf.
  EXPECT_EQ(t.find("/interfaces/interface/state/mtu")->yang_type, "uint16");
  EXPECT_EQ(t.find("/interfaces/interface/state/counters/in-octets")->yang_typedef, "oc-yang:counter64");
}

TEST(SchemaTableTest, ListsGiveKeysTypesAndLabels) {
  const SchemaTable& t = SchemaTable::instance();
  const ListSchema* interfaces = t.findList("/interfaces/interface");
  ASSERT_NE(interfaces, nullptr);
  EXPECT_EQ(interfaces->key, "name");
  EXPECT_EQ(interfaces->label, "interface");
  EXPECT_EQ(t.listKeyType("/interfaces/interface"), "string");
  EXPECT_EQ(t.listKeyType("/interfaces/interface/ethernet/pfc/priorities/priority"), "uint8");
  EXPECT_EQ(t.listKeyType("/interfaces"), "");
  // Every leaf's labels are those of the lists on its path, in order.
  for (const LeafSchema& row : t.leaves()) {
    std::string want, prefix;
    std::string_view rest = row.path;
    while (!rest.empty()) {
      rest.remove_prefix(1);
      std::string_view seg = rest.substr(0, rest.find('/'));
      rest.remove_prefix(seg.size());
      prefix += "/" + std::string(seg);
      if (const ListSchema* l = t.findList(prefix)) want += (want.empty() ? "" : ",") + std::string(l->label);
    }
    EXPECT_EQ(row.labels, want) << row.path;
  }
}

TEST(SchemaTableTest, SnmpPlacementsAndNotificationsResolve) {
  const SchemaTable& t = SchemaTable::instance();
  const std::string root(t.mibRoot());
  EXPECT_TRUE(root.starts_with(std::string(t.enterpriseArc()) + "."));
  EXPECT_TRUE(std::string(t.notificationsArc()).starts_with(root + "."));
  for (const LeafSchema& row : t.leaves()) {
    for (const SnmpPlacement& p : row.snmp) {
      ASSERT_LT(p.table, t.snmpTables().size()) << row.path;
      EXPECT_EQ(t.snmpTables()[p.table].index.size(), SchemaTable::splitLabels(row.labels).size()) << row.path;
      EXPECT_FALSE(p.object.empty());
    }
  }
  ASSERT_FALSE(t.notifications().empty());
  for (const NotificationSchema& n : t.notifications()) {
    const LeafSchema* verdict = t.find(n.verdict_path);
    ASSERT_NE(verdict, nullptr) << n.name;
    bool placed = false;
    for (const SnmpPlacement& p : verdict->snmp) placed = placed || (t.snmpTables()[p.table].name == n.table && p.column == n.code_column);
    EXPECT_TRUE(placed) << n.name;
  }
  EXPECT_TRUE(std::string(t.notifyObject(NotifyRole::kTarget).oid).starts_with(root + "."));
}

// Capabilities names the OpenConfig versions we validate against: those of
// the vendored modules under yang/openconfig/ (skipped until they are there).
TEST(SchemaTableTest, OpenConfigVersionsAreThoseOfTheVendoredModules) {
  const std::string dir = std::string(RDMAGW_SOURCE_DIR) + "/yang/openconfig/";
  int checked = 0;
  for (const YangModule& m : SchemaTable::instance().modules()) {
    if (!m.openconfig) continue;
    std::ifstream in(dir + std::string(m.name) + ".yang");
    if (!in) continue;
    std::stringstream text;
    text << in.rdbuf();
    std::smatch match;
    const std::string s = text.str();
    ASSERT_TRUE(std::regex_search(s, match, std::regex(R"re(oc-ext:openconfig-version "([^"]+)")re"))) << m.name;
    EXPECT_EQ(match[1].str(), m.version) << m.name;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no OpenConfig modules vendored under yang/openconfig/ yet";
}

TEST(SchemaTableTest, SplitLabels) {
  EXPECT_EQ(SchemaTable::splitLabels("").size(), 0u);
  auto v = SchemaTable::splitLabels("interface,priority");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], "interface");
  EXPECT_EQ(v[1], "priority");
}

}  // namespace
}  // namespace rdmagw
