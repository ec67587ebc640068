#include "models/schema.h"

#include "models/path.h"

#include <gtest/gtest.h>

#include <regex>
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
  std::set<std::string_view> names, paths;
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    SCOPED_TRACE(std::string(row.path));
    EXPECT_TRUE(std::regex_match(std::string(row.prom_name), name_re));
    EXPECT_TRUE(names.insert(row.prom_name).second) << "duplicate family " << row.prom_name;
    EXPECT_TRUE(paths.insert(row.path).second) << "duplicate path";
    EXPECT_FALSE(row.help.empty());
    EXPECT_EQ(row.path.front(), '/');
    const bool total = row.prom_name.ends_with("_total");
    EXPECT_EQ(total, row.kind == LeafKind::kCounter) << row.prom_name;
    if (row.kind == LeafKind::kString) EXPECT_TRUE(row.prom_name.ends_with("_info"));
    if (row.unit == "microseconds") EXPECT_NE(row.prom_name.find("_seconds"), std::string_view::npos);
    if (row.unit == "bytes") EXPECT_NE(row.prom_name.find("_bytes"), std::string_view::npos);
    for (std::string_view l : SchemaTable::splitLabels(row.labels)) {
      EXPECT_TRUE(std::regex_match(std::string(l), label_re)) << l;
      EXPECT_NE(l, kTargetLabel) << "the target label is implicit";
    }
  }
  for (const GatewayMetric& m : SchemaTable::instance().gatewayMetrics()) {
    EXPECT_TRUE(std::regex_match(std::string(m.prom_name), name_re));
    EXPECT_TRUE(names.insert(m.prom_name).second) << "duplicate family " << m.prom_name;
    EXPECT_EQ(m.prom_name.ends_with("_total"), m.kind == LeafKind::kCounter) << m.prom_name;
    EXPECT_EQ(&SchemaTable::instance().gateway(m.id), &m);
  }
}

// The convention every consumer relies on: each label names the list element
// of the path that carries the key, in path order.
TEST(SchemaTableTest, EveryLabelNamesAKeyedElementInPathOrder) {
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    auto elems = Path::parse(row.path);
    ASSERT_TRUE(elems.isOk()) << row.path;
    size_t next = 0;
    for (std::string_view label : SchemaTable::splitLabels(row.labels)) {
      while (next < elems->elems().size() && elems->elems()[next].name != label) ++next;
      EXPECT_LT(next, elems->elems().size()) << row.path << ": label " << label << " names no element";
      ++next;
    }
  }
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
