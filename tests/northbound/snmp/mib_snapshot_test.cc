// The packed table layout: row indexes in one array, a presence bitmap with
// ranks per column, numbers and interned texts out of line. Checked against
// a plain sorted map of (OID -> value) built from the same cells, so every
// GET and GETNEXT answer of the layout is compared to the obvious one.

#include "northbound/snmp/mib_snapshot.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "northbound/snmp/agentx_fast_path.h"
#include "tests/northbound/snmp/table_names.h"

namespace rdmagw::northbound::snmp {
namespace {

const TableDef& table(std::string_view name) {
  const MibCatalog& c = MibCatalog::instance();
  return c.tables()[c.find(name)];
}

Oid objectOid(const TableDef& def, uint32_t column, const Oid& index) {
  Oid oid = def.entry;
  oid.push_back(column);
  oid.insert(oid.end(), index.begin(), index.end());
  return oid;
}

std::string describe(const CellView& v) {
  return v.type == SnmpType::kOctetString ? "s:" + std::string(v.text) : "n:" + std::to_string(v.number);
}

// The obvious model: every present object by OID.
using Model = std::map<Oid, std::string>;

// Every GET and GETNEXT (exclusive and inclusive) around every object of
// the model, and around OIDs between and outside them, answers as the
// model says.
void expectMatchesModel(const TableDef& def, const TableData& data, const Model& model) {
  std::vector<Oid> probes = {Oid{1, 3}, def.table, def.entry};
  for (const auto& [oid, value] : model) {
    probes.push_back(oid);
    Oid shorter(oid.begin(), oid.end() - 1);
    probes.push_back(shorter);
    Oid deeper = oid;
    deeper.push_back(0);
    probes.push_back(deeper);
    Oid bumped = oid;
    ++bumped.back();
    probes.push_back(bumped);
  }
  Oid after = def.table;
  ++after.back();
  probes.push_back(after);
  for (const Oid& probe : probes) {
    std::optional<CellView> exact = getExact(def, data, probe);
    auto it = model.find(probe);
    if (it == model.end()) {
      EXPECT_FALSE(exact) << "GET " << oidToString(probe);
    } else {
      ASSERT_TRUE(exact) << "GET " << oidToString(probe);
      EXPECT_EQ(describe(*exact), it->second) << "GET " << oidToString(probe);
    }
    for (bool inclusive : {false, true}) {
      auto next = inclusive ? model.lower_bound(probe) : model.upper_bound(probe);
      Found found;
      bool got = getNext(def, data, probe, inclusive, &found);
      if (next == model.end()) {
        EXPECT_FALSE(got) << "GETNEXT " << oidToString(probe) << " -> " << oidToString(found.oid);
      } else {
        ASSERT_TRUE(got) << "GETNEXT " << oidToString(probe);
        EXPECT_EQ(oidToString(found.oid), oidToString(next->first)) << "GETNEXT " << oidToString(probe);
        EXPECT_EQ(describe(found.cell), next->second) << "GETNEXT " << oidToString(probe);
      }
    }
  }
}

TEST(MibSnapshotTest, SparseColumnsAcrossManyBitmapWordsMatchTheModel) {
  // 300 rows (five 64-row words), columns present with different densities,
  // cells added in random order: the rank arithmetic must land every value.
  const TableDef& def = table("rdmagwPfcPriorityTable");
  std::mt19937 rng(7);
  TableDataBuilder b;
  Model model;
  std::vector<std::tuple<Oid, uint32_t, uint64_t>> cells;
  for (uint32_t if_index = 1; if_index <= 60; ++if_index) {
    for (uint32_t prio = 0; prio < 5; ++prio) {
      for (uint32_t column : {2u, 3u, 7u, 9u}) {
        // Column 2 dense, 3 every other row, 7 rare, 9 only past row 200.
        const uint32_t row = (if_index - 1) * 5 + prio;
        bool present = column == 2 || (column == 3 && row % 2 == 0) || (column == 7 && row % 37 == 5) ||
                       (column == 9 && row > 200);
        if (!present) continue;
        cells.emplace_back(Oid{if_index, prio}, column, uint64_t(row) * 1000 + column);
      }
    }
  }
  std::shuffle(cells.begin(), cells.end(), rng);
  for (const auto& [index, column, value] : cells) {
    b.addNumber(index, column, SnmpType::kCounter64, value);
    model[objectOid(def, column, index)] = "n:" + std::to_string(value);
  }
  TableData data = b.finish();
  EXPECT_EQ(data.rowCount(), 300u);
  EXPECT_EQ(data.cellCount(), model.size());
  expectMatchesModel(def, data, model);
}

TEST(MibSnapshotTest, TextCellsAreInternedAndServedByValue) {
  const TableDef& def = table("rdmagwRdmaDeviceTable");  // string index
  TableDataBuilder b;
  Model model;
  // String indexes sort by length first (SMIv2 length prefix): "b" < "aa".
  for (std::string dev : {"mlx5_10", "b", "aa", "mlx5_2"}) {
    Oid index;
    appendStringIndex(&index, dev);
    b.addText(index, 2, "28.39.1002");  // the same firmware text everywhere
    b.addText(index, 3, dev + "-board");
    model[objectOid(def, 2, index)] = "s:28.39.1002";
    model[objectOid(def, 3, index)] = "s:" + dev + "-board";
  }
  Oid empty_text;
  appendStringIndex(&empty_text, "zz");
  b.addText(empty_text, 3, "");  // an empty OCTET STRING is a value, not an absence
  model[objectOid(def, 3, empty_text)] = "s:";
  TableData data = b.finish();
  expectMatchesModel(def, data, model);
  Oid first;
  appendStringIndex(&first, "b");
  EXPECT_EQ(std::vector<uint32_t>(data.rowIndex(0).begin(), data.rowIndex(0).end()), first);
  // Stored once: the heap holds one copy of the shared firmware text.
  Oid mlx10;
  appendStringIndex(&mlx10, "mlx5_10");
  std::optional<CellView> a = getExact(def, data, objectOid(def, 2, mlx10));
  ASSERT_TRUE(a);
  Oid other;
  appendStringIndex(&other, "mlx5_2");
  std::optional<CellView> c = getExact(def, data, objectOid(def, 2, other));
  ASSERT_TRUE(c);
  EXPECT_EQ(a->text.data(), c->text.data());
}

TEST(MibSnapshotTest, LastValueWinsAndMismatchedTypeIsLeftOut) {
  const TableDef& def = table(kIfXTable);
  TableDataBuilder b;
  const uint32_t row[] = {5};
  b.addNumber(row, 6, SnmpType::kCounter64, 1);
  b.addNumber(row, 6, SnmpType::kCounter64, 2);  // replaces 1
  b.addNumber(row, 10, SnmpType::kCounter64, 3);
  const uint32_t row2[] = {6};
  b.addText(row2, 10, "not a counter");  // ifHCOutOctets is Counter64
  TableData data = b.finish();
  EXPECT_EQ(b.mismatched(), 1u);
  Model model = {{objectOid(def, 6, {5}), "n:2"}, {objectOid(def, 10, {5}), "n:3"}};
  expectMatchesModel(def, data, model);
}

TEST(MibSnapshotTest, EmptyTableAnswersNothing) {
  const TableDef& def = table(kIfTable);
  TableDataBuilder b;
  TableData data = b.finish();
  EXPECT_TRUE(data.empty());
  Found f;
  EXPECT_FALSE(getNext(def, data, Oid{1}, false, &f));
  EXPECT_FALSE(getExact(def, data, objectOid(def, 1, {1})));
  EXPECT_EQ(data.heapBytes(), 0u);
}

TEST(MibSnapshotTest, BuilderIsReusableAfterFinish) {
  const TableDef& def = table(kIfTable);
  TableDataBuilder b;
  const uint32_t row[] = {1};
  b.addText(row, 2, "first");
  TableData one = b.finish();
  b.addText(row, 2, "second");
  TableData two = b.finish();
  EXPECT_EQ(getExact(def, one, objectOid(def, 2, {1}))->text, "first");
  EXPECT_EQ(getExact(def, two, objectOid(def, 2, {1}))->text, "second");
}

TEST(MibSnapshotTest, PresentCounterCellsCostFewBytes) {
  // The reason for the layout: 8 ifXTable counters on 1000 interfaces.
  TableDataBuilder b;
  for (uint32_t i = 1; i <= 1000; ++i) {
    const uint32_t row[] = {i};
    for (uint32_t column = 6; column <= 13; ++column) b.addNumber(row, column, SnmpType::kCounter64, i * column);
  }
  TableData data = b.finish();
  EXPECT_EQ(data.cellCount(), 8000u);
  EXPECT_LE(double(data.heapBytes()) / double(data.cellCount()), 12.0) << data.heapBytes();
}

TEST(AgentxGetNextTest, CrossesTablesInOidOrderAndStopsAtTheRangeEnd) {
  const TableDef& if_table = table(kIfTable);       // 1.3.6.1.2.1.2.2
  const TableDef& ifx_table = table(kIfXTable);     // 1.3.6.1.2.1.31.1.1
  TableDataBuilder b;
  const uint32_t row[] = {7};
  b.addNumber(row, 1, SnmpType::kInteger, 7);
  TableData if_data = b.finish();
  b.addText(row, 1, "eth7");
  TableData ifx_data = b.finish();
  std::vector<ServedTable> tables = {{&if_table, &if_data}, {&ifx_table, &ifx_data}};
  uint32_t out[128];  // Net-SNMP's MAX_OID_LEN
  CellView v;
  // From ifIndex.7, the last ifTable object: ifName.7 in the next table.
  Oid start = objectOid(if_table, 1, {7});
  size_t len = agentxGetNext(tables, start, false, {}, out, &v);
  EXPECT_EQ(oidToString(Oid(out, out + len)), oidToString(objectOid(ifx_table, 1, {7})));
  EXPECT_EQ(v.text, "eth7");
  // Inclusive at an existing object: that object.
  len = agentxGetNext(tables, start, true, {}, out, &v);
  EXPECT_EQ(oidToString(Oid(out, out + len)), oidToString(start));
  // A range that ends before ifXTable: nothing (the master's endOfMibView).
  Oid end{1, 3, 6, 1, 2, 1, 31};
  EXPECT_EQ(agentxGetNext(tables, start, false, end, out, &v), 0u);
  // Past every table: nothing.
  EXPECT_EQ(agentxGetNext(tables, Oid{1, 3, 6, 1, 2, 1, 32}, false, {}, out, &v), 0u);
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
