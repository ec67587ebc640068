// The snapshot: store leaves land in the columns the schema's oid column
// names, with SNMP types; absent leaves stay absent; GETNEXT order.

#include "northbound/snmp/snapshot_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/northbound/snmp/snmp_test_store.h"
#include "tests/northbound/snmp/table_names.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

using testing::fillStore;

const TableDef& table(std::string_view name) {
  const MibCatalog& c = MibCatalog::instance();
  size_t i = c.find(name);
  EXPECT_LT(i, c.tables().size()) << name;
  return c.tables()[i];
}

const TableData& dataOf(const MibSnapshot& s, const std::string& ctx, std::string_view name) {
  return s.contexts.at(ctx).tables[MibCatalog::instance().find(name)];
}

// Cell at entry.column.index, or empty.
std::optional<CellView> cellAt(const MibSnapshot& s, const std::string& ctx, std::string_view name, uint32_t column, Oid index) {
  const TableDef& def = table(name);
  Oid oid = def.entry;
  oid.push_back(column);
  oid.insert(oid.end(), index.begin(), index.end());
  return getExact(def, dataOf(s, ctx, name), oid);
}

class SnapshotBuilderTest : public ::testing::Test {
 protected:
  void SetUp() override { fillStore(&store_); }
  Store store_;
};

TEST(MibCatalogTest, EverySchemaOidIsPlaced) {
  Status st = MibCatalog::instance().checkSchema();
  EXPECT_TRUE(st.isOk()) << st.message();
}

TEST_F(SnapshotBuilderTest, InterfaceCountersInIfXTableAndIfTable) {
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  uint32_t eth11 = reg.indexOf("sw1", "eth1/1");
  std::optional<CellView> hc = cellAt(*s, "sw1", kIfXTable, 6, {eth11});
  ASSERT_TRUE(hc);
  EXPECT_EQ(hc->type, SnmpType::kCounter64);
  EXPECT_EQ(hc->number, testing::kEth11InOctetsValue);
  std::optional<CellView> c32 = cellAt(*s, "sw1", kIfTable, 10, {eth11});
  ASSERT_TRUE(c32);
  EXPECT_EQ(c32->type, SnmpType::kCounter32);
  EXPECT_EQ(c32->number, testing::kEth11InOctetsValue % (uint64_t{1} << 32));
  std::optional<CellView> name = cellAt(*s, "sw1", kIfXTable, 1, {eth11});
  ASSERT_TRUE(name);
  EXPECT_EQ(name->text, "eth1/1");
  // eth1/2 has no out-octets leaf: absent, not zero.
  EXPECT_FALSE(cellAt(*s, "sw1", kIfXTable, 10, {reg.indexOf("sw1", "eth1/2")}));
}

TEST_F(SnapshotBuilderTest, PfcTablesStandardAndOwn) {
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  uint32_t eth11 = reg.indexOf("sw1", "eth1/1");
  std::optional<CellView> req = cellAt(*s, "sw1", "ieee8021PfcIfTable", 2, {eth11});
  ASSERT_TRUE(req);
  EXPECT_EQ(req->type, SnmpType::kCounter32);
  EXPECT_EQ(req->number, 600u);
  std::optional<CellView> cind = cellAt(*s, "sw1", "cpfcIfPriorityTable", 3, {eth11, 3});
  ASSERT_TRUE(cind);
  EXPECT_EQ(cind->type, SnmpType::kCounter64);
  EXPECT_EQ(cind->number, 31u);
  std::optional<CellView> own = cellAt(*s, "sw1", "rdmagwPfcPriorityTable", 2, {eth11, 4});
  ASSERT_TRUE(own);
  EXPECT_EQ(own->number, 41u);
  std::optional<CellView> mode = cellAt(*s, "sw1", "rdmagwIfTable", 12, {eth11});
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->text, "on");
}

TEST_F(SnapshotBuilderTest, RdmaAndVmnicAndTargets) {
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  Oid mlx;
  appendStringIndex(&mlx, "mlx5_0");
  Oid port = mlx;
  port.push_back(1);
  std::optional<CellView> cnp = cellAt(*s, "host1", "rdmagwRdmaPortTable", 41, port);
  ASSERT_TRUE(cnp);
  EXPECT_EQ(cnp->number, 42u);
  std::optional<CellView> rate = cellAt(*s, "host1", "rdmagwRdmaPortTable", 6, port);
  ASSERT_TRUE(rate);
  EXPECT_EQ(rate->type, SnmpType::kGauge32);
  EXPECT_EQ(rate->number, 100000u);  // Mbit/s
  std::optional<CellView> fw = cellAt(*s, "host1", "rdmagwRdmaDeviceTable", 2, mlx);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->text, "28.39.1002");

  uint32_t vmnic0 = reg.indexOf("esxi1", "vmnic0");
  std::optional<CellView> oper = cellAt(*s, "esxi1", kIfTable, 8, {vmnic0});
  ASSERT_TRUE(oper);
  EXPECT_EQ(oper->number, 1u);  // up
  std::optional<CellView> high = cellAt(*s, "esxi1", kIfXTable, 15, {vmnic0});
  ASSERT_TRUE(high);
  EXPECT_EQ(high->number, 25000u);
  std::optional<CellView> storm = cellAt(*s, "esxi1", "rdmagwIfTable", 8, {vmnic0});
  ASSERT_TRUE(storm);
  EXPECT_EQ(storm->number, 2u);

  Oid sw1;
  appendStringIndex(&sw1, "sw1");
  std::optional<CellView> kind = cellAt(*s, "", kTargetTable, 2, sw1);
  ASSERT_TRUE(kind);
  EXPECT_EQ(kind->text, "nexus");
  std::optional<CellView> up = cellAt(*s, "", kTargetTable, 4, sw1);
  ASSERT_TRUE(up);
  EXPECT_EQ(up->number, 1u);
  // The schema's gateway placements: the context name (a label of
  // target_info), seconds as Unix time, the poll duration scaled to
  // milliseconds, counters as Counter64, and the derived last error.
  std::optional<CellView> context = cellAt(*s, "", kTargetTable, 3, sw1);
  ASSERT_TRUE(context);
  EXPECT_EQ(context->text, "sw1");
  std::optional<CellView> last = cellAt(*s, "", kTargetTable, 6, sw1);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->type, SnmpType::kGauge32);
  EXPECT_EQ(last->number, 1700000000u);
  std::optional<CellView> duration = cellAt(*s, "", kTargetTable, 11, sw1);
  ASSERT_TRUE(duration);
  EXPECT_EQ(duration->type, SnmpType::kGauge32);
  EXPECT_EQ(duration->number, 250u);
  std::optional<CellView> polls = cellAt(*s, "", kTargetTable, 8, sw1);
  ASSERT_TRUE(polls);
  EXPECT_EQ(polls->type, SnmpType::kCounter64);
  EXPECT_EQ(polls->number, 10u);
  std::optional<CellView> error = cellAt(*s, "", kTargetTable, 14, sw1);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->text, "");
}

// The analytics' verdicts (derived leaves under /fabric of the port's own
// target) are served in RDMAGW-MIB's fabric tables of that device's context.
TEST_F(SnapshotBuilderTest, FabricVerdictsInTheirOwnTables) {
  const TimestampNs ts = nowNs();
  std::vector<Update> sw = {
      {"/fabric/interfaces/interface[name=eth1/1]/priorities/priority[id=3]/state/pause-tree-state-code", Value(uint64_t{2}), ts, {}},
      {"/fabric/interfaces/interface[name=eth1/1]/priorities/priority[id=3]/state/pause-tree-size", Value(uint64_t{5}), ts, {}},
      {"/fabric/interfaces/interface[name=eth1/1]/priorities/priority[id=3]/state/pause-tree-roots", Value(std::string("sw1:eth1/1")), ts, {}},
      {"/fabric/interfaces/interface[name=eth1/1]/priorities/priority[id=3]/state/pause-storm", Value(uint64_t{1}), ts, {}},
  };
  store_.apply("sw1", sw);
  std::vector<Update> host = {
      {"/fabric/dcqcn/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/verdict-code", Value(uint64_t{2}), ts, {}},
      {"/fabric/dcqcn/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/verdict", Value(std::string("marks-no-cnp")), ts, {}},
  };
  store_.apply("host1", host);
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  const uint32_t eth11 = reg.indexOf("sw1", "eth1/1");
  std::optional<CellView> state = cellAt(*s, "sw1", "rdmagwFabricPrioTable", 4, {eth11, 3});
  ASSERT_TRUE(state);
  EXPECT_EQ(state->type, SnmpType::kGauge32);
  EXPECT_EQ(state->number, 2u);  // root
  std::optional<CellView> size = cellAt(*s, "sw1", "rdmagwFabricPrioTable", 5, {eth11, 3});
  ASSERT_TRUE(size);
  EXPECT_EQ(size->number, 5u);
  std::optional<CellView> roots = cellAt(*s, "sw1", "rdmagwFabricPrioTable", 6, {eth11, 3});
  ASSERT_TRUE(roots);
  EXPECT_EQ(roots->text, "sw1:eth1/1");
  std::optional<CellView> storm = cellAt(*s, "sw1", "rdmagwFabricPrioTable", 2, {eth11, 3});
  ASSERT_TRUE(storm);
  EXPECT_EQ(storm->number, 1u);
  // No balance verdict was derived: absent, never a made-up 0.
  EXPECT_FALSE(cellAt(*s, "sw1", "rdmagwFabricPrioTable", 1, {eth11, 3}));

  Oid port;
  appendStringIndex(&port, "mlx5_0");
  port.push_back(1);
  std::optional<CellView> code = cellAt(*s, "host1", "rdmagwFabricDcqcnTable", 1, port);
  ASSERT_TRUE(code);
  EXPECT_EQ(code->number, 2u);
  std::optional<CellView> verdict = cellAt(*s, "host1", "rdmagwFabricDcqcnTable", 2, port);
  ASSERT_TRUE(verdict);
  EXPECT_EQ(verdict->text, "marks-no-cnp");
}

TEST_F(SnapshotBuilderTest, DcbConsistencyInItsTableAndTheMtuInIfMtu) {
  const TimestampNs ts = nowNs();
  const std::string dcb = "/fabric/interfaces/interface[name=eth1/3]/dcb/state/";
  std::vector<Update> sw = {
      {dcb + "consistency-code", Value(uint64_t{1}), ts, {}},
      {dcb + "consistency", Value(std::string("mismatch")), ts, {}},
      {dcb + "mismatches", Value(std::string("pfc priorities: sw1:eth1/3 {3} vs host1:ens1f0np0 {}")), ts, {}},
      {dcb + "peer-pfc-priorities", Value(std::string("")), ts, {}},
      {"/interfaces/interface[name=eth1/3]/state/mtu", Value(uint64_t{9216}), ts, {}},
  };
  store_.apply("sw1", sw);
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  const uint32_t eth13 = reg.indexOf("sw1", "eth1/3");
  std::optional<CellView> code = cellAt(*s, "sw1", "rdmagwFabricDcbTable", 1, {eth13});
  ASSERT_TRUE(code);
  EXPECT_EQ(code->type, SnmpType::kGauge32);
  EXPECT_EQ(code->number, 1u);
  std::optional<CellView> text = cellAt(*s, "sw1", "rdmagwFabricDcbTable", 3, {eth13});
  ASSERT_TRUE(text);
  EXPECT_EQ(text->text, "pfc priorities: sw1:eth1/3 {3} vs host1:ens1f0np0 {}");
  std::optional<CellView> peer = cellAt(*s, "sw1", "rdmagwFabricDcbTable", 5, {eth13});
  ASSERT_TRUE(peer);
  EXPECT_EQ(peer->text, "");  // no priority: an empty list, present
  EXPECT_FALSE(cellAt(*s, "sw1", "rdmagwFabricDcbTable", 6, {eth13}));  // MTU not derived: absent
  std::optional<CellView> mtu = cellAt(*s, "sw1", "ifTable", 4, {eth13});
  ASSERT_TRUE(mtu);
  EXPECT_EQ(mtu->type, SnmpType::kInteger);
  EXPECT_EQ(mtu->number, 9216u);
}

// ifAdminStatus has up(1), down(2), testing(3) and no unknown: a word outside
// them leaves the cell absent, while ifOperStatus serves unknown(4).
TEST_F(SnapshotBuilderTest, AdminStatusHasNoUnknownButOperStatusHas) {
  const TimestampNs ts = nowNs();
  std::vector<Update> sw = {
      {"/interfaces/interface[name=eth1/5]/state/admin-status", Value(std::string("TESTING")), ts, {}},
      {"/interfaces/interface[name=eth1/5]/state/oper-status", Value(std::string("TESTING")), ts, {}},
      {"/interfaces/interface[name=eth1/6]/state/admin-status", Value(std::string("LOWER_LAYER_DOWN")), ts, {}},
      {"/interfaces/interface[name=eth1/6]/state/oper-status", Value(std::string("LOWER_LAYER_DOWN")), ts, {}},
  };
  store_.apply("sw1", sw);
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  const uint32_t eth15 = reg.indexOf("sw1", "eth1/5");
  const uint32_t eth16 = reg.indexOf("sw1", "eth1/6");
  std::optional<CellView> admin = cellAt(*s, "sw1", kIfTable, 7, {eth15});
  ASSERT_TRUE(admin);
  EXPECT_EQ(admin->number, 3u);
  std::optional<CellView> oper = cellAt(*s, "sw1", kIfTable, 8, {eth15});
  ASSERT_TRUE(oper);
  EXPECT_EQ(oper->number, 3u);
  EXPECT_FALSE(cellAt(*s, "sw1", kIfTable, 7, {eth16}));
  std::optional<CellView> unknown = cellAt(*s, "sw1", kIfTable, 8, {eth16});
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->number, 4u);
}

// A gauge or counter that is not a finite number (a rate over an empty
// window) has no SNMP value: its cell is absent, the row's others stay.
TEST_F(SnapshotBuilderTest, NonFiniteNumbersLeaveTheirCellAbsent) {
  const TimestampNs ts = nowNs();
  std::vector<Update> sw = {
      {"/interfaces/interface[name=eth1/7]/state/mtu", Value(std::nan("")), ts, {}},
      {"/interfaces/interface[name=eth1/7]/state/speed", Value(std::numeric_limits<double>::infinity()), ts, {}},
      {"/interfaces/interface[name=eth1/7]/state/oper-status", Value(std::string("UP")), ts, {}},
  };
  store_.apply("sw1", sw);
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  const uint32_t eth17 = reg.indexOf("sw1", "eth1/7");
  EXPECT_FALSE(cellAt(*s, "sw1", kIfTable, 4, {eth17}));   // ifMtu
  EXPECT_FALSE(cellAt(*s, "sw1", kIfTable, 5, {eth17}));   // ifSpeed
  EXPECT_FALSE(cellAt(*s, "sw1", kIfXTable, 15, {eth17})); // ifHighSpeed
  EXPECT_TRUE(cellAt(*s, "sw1", kIfTable, 8, {eth17}));    // ifOperStatus
}

TEST_F(SnapshotBuilderTest, GetNextWalksColumnsThenLeavesTable) {
  IfIndexRegistry reg;
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  const TableDef& def = table(kIfXTable);
  const TableData& data = dataOf(*s, "sw1", kIfXTable);
  Found f;
  ASSERT_TRUE(getNext(def, data, def.table, false, &f));  // from the table OID: first object
  Oid first = def.entry;
  first.push_back(1);
  first.push_back(reg.indexOf("sw1", "eth1/1"));
  EXPECT_EQ(oidToString(f.oid), oidToString(first));
  size_t walked = 1;
  Oid last = f.oid;
  while (getNext(def, data, last, false, &f)) {
    EXPECT_LT(last, f.oid);
    last = f.oid;
    ++walked;
  }
  EXPECT_EQ(walked, data.cellCount());
  Oid before{1, 3, 6, 1, 2, 1, 2};  // an ancestor: the table's first object
  EXPECT_TRUE(getNext(def, data, before, false, &f));
  Oid after{1, 3, 6, 1, 2, 1, 32};  // past the table: nothing here
  EXPECT_FALSE(getNext(def, data, after, false, &f));
}

TEST_F(SnapshotBuilderTest, IfIndexStableAcrossRestartAndReappearance) {
  testing::TempDir dir("rdmagw-snmp-ifindex");
  std::string file = dir.file("ifindex.tsv");
  uint32_t eth12 = 0;
  {
    IfIndexRegistry reg(file);
    ASSERT_TRUE(reg.load().isOk());
    SnapshotBuilder(store_, reg, 0).build();
    eth12 = reg.indexOf("sw1", "eth1/2");
  }
  // eth1/2 disappears; a new interface comes; then eth1/2 is back.
  store_.remove("sw1", *Path::parse("/interfaces/interface[name=eth1/2]"));
  testing::put(&store_, "sw1", "/interfaces/interface[name=eth1/9]/state/counters/in-octets", uint64_t{1});
  IfIndexRegistry reg(file);
  ASSERT_TRUE(reg.load().isOk());
  MibSnapshotPtr s = SnapshotBuilder(store_, reg, 0).build();
  EXPECT_FALSE(cellAt(*s, "sw1", kIfXTable, 1, {eth12}));
  EXPECT_NE(reg.indexOf("sw1", "eth1/9"), eth12);
  testing::put(&store_, "sw1", testing::kEth12InOctets, uint64_t{1000});
  s = SnapshotBuilder(store_, reg, 0).build();
  std::optional<CellView> back = cellAt(*s, "sw1", kIfXTable, 1, {eth12});
  ASSERT_TRUE(back);
  EXPECT_EQ(back->text, "eth1/2");
  IfIndexRegistry again(file);
  ASSERT_TRUE(again.load().isOk());
  EXPECT_EQ(again.indexOf("sw1", "eth1/2"), eth12);
  EXPECT_EQ(again.indexOf("sw1", "eth1/9"), reg.indexOf("sw1", "eth1/9"));
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
