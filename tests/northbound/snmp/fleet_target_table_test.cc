// The default context's fleet target table, built from a FleetView filled
// by hand: every target of the fleet (owned here, elsewhere, or by nobody
// yet) with its owner and the owner's addresses; a moved target changes
// rows at the next build; outside a fleet the table is empty.

#include <gtest/gtest.h>

#include "northbound/snmp/snapshot_builder.h"
#include "tests/northbound/snmp/fleet_test_view.h"
#include "tests/northbound/snmp/snmp_test_store.h"
#include "tests/northbound/snmp/table_names.h"

namespace rdmagw::northbound::snmp {
namespace {

constexpr uint32_t kContextName = 2, kOwner = 3, kOwnerSnmp = 4, kOwnerGnmi = 5, kOwnedHere = 6;
constexpr uint64_t kTrue = 1, kFalse = 2;  // TruthValue

const TableData& fleetTable(const MibSnapshot& s) {
  return s.contexts.at("").tables[MibCatalog::instance().find(kFleetTargetTable)];
}

std::optional<CellView> fleetCell(const MibSnapshot& s, const std::string& target, uint32_t column) {
  const MibCatalog& c = MibCatalog::instance();
  const TableDef& def = c.tables()[c.find(kFleetTargetTable)];
  Oid oid = def.entry;
  oid.push_back(column);
  appendStringIndex(&oid, target);
  return getExact(def, fleetTable(s), oid);
}

std::string text(const MibSnapshot& s, const std::string& target, uint32_t column) {
  std::optional<CellView> c = fleetCell(s, target, column);
  if (!c) return "<absent>";
  EXPECT_EQ(c->type, SnmpType::kOctetString) << target << " column " << column;
  return std::string(c->text);
}

uint64_t truth(const MibSnapshot& s, const std::string& target) {
  std::optional<CellView> c = fleetCell(s, target, kOwnedHere);
  if (!c) return 0;
  EXPECT_EQ(c->type, SnmpType::kInteger);
  return c->number;
}

class FleetTargetTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::fillStore(&store_);
    ASSERT_LT(MibCatalog::instance().find(kFleetTargetTable), MibCatalog::instance().tables().size());
  }
  Store store_;
  IfIndexRegistry reg_;
  FleetView view_;
};

TEST_F(FleetTargetTableTest, ListsEveryFleetTargetWithItsOwnersAddresses) {
  view_.set(testing::threeMemberFleet());
  MibSnapshotPtr s = SnapshotBuilder(store_, reg_, 0, &view_).build();
  // Five targets, three of them (leaf7, spine1, host1) collected elsewhere.
  EXPECT_EQ(fleetTable(*s).rowCount(), 5u);
  EXPECT_EQ(text(*s, "sw1", kContextName), "sw1");
  EXPECT_EQ(text(*s, "sw1", kOwner), "gw1");
  EXPECT_EQ(text(*s, "sw1", kOwnerSnmp), "10.0.0.1:161");
  EXPECT_EQ(text(*s, "sw1", kOwnerGnmi), "10.0.0.1:9339");
  EXPECT_EQ(truth(*s, "sw1"), kTrue);
  EXPECT_EQ(text(*s, "host1", kOwner), "gw2");
  EXPECT_EQ(text(*s, "host1", kOwnerSnmp), "10.0.0.2:1161");
  EXPECT_EQ(truth(*s, "host1"), kFalse);
  EXPECT_EQ(text(*s, "spine1", kOwnerSnmp), "10.0.0.2:1161");
  // A member that advertises no SNMP agent: the row is there, the address empty.
  EXPECT_EQ(text(*s, "leaf7", kContextName), "leaf7");
  EXPECT_EQ(text(*s, "leaf7", kOwner), "gw3");
  EXPECT_EQ(text(*s, "leaf7", kOwnerSnmp), "");
  EXPECT_EQ(text(*s, "leaf7", kOwnerGnmi), "");
  EXPECT_EQ(truth(*s, "leaf7"), kFalse);
  // rdmagwTargetTable still lists what this gateway's store holds, no more.
  Oid leaf7;
  appendStringIndex(&leaf7, "leaf7");
  const MibCatalog& c = MibCatalog::instance();
  const TableDef& targets = c.tables()[c.find(kTargetTable)];
  Oid kind = targets.entry;
  kind.push_back(2);
  kind.insert(kind.end(), leaf7.begin(), leaf7.end());
  EXPECT_FALSE(getExact(targets, s->contexts.at("").tables[c.find(kTargetTable)], kind));
}

TEST_F(FleetTargetTableTest, TargetNotPlacedYetKeepsItsRowWithNoOwner) {
  FleetSnapshot f = testing::threeMemberFleet();
  f.members.clear();  // etcd has not answered: every owner unknown
  for (auto& [target, owner] : f.owners) owner.clear();
  view_.set(f);
  MibSnapshotPtr s = SnapshotBuilder(store_, reg_, 0, &view_).build();
  EXPECT_EQ(fleetTable(*s).rowCount(), 5u);
  EXPECT_EQ(text(*s, "sw1", kContextName), "sw1");
  EXPECT_EQ(text(*s, "sw1", kOwner), "");
  EXPECT_EQ(text(*s, "sw1", kOwnerSnmp), "");
  EXPECT_EQ(truth(*s, "sw1"), kFalse);
}

TEST_F(FleetTargetTableTest, AMovedTargetChangesRowsAtTheNextBuild) {
  view_.set(testing::threeMemberFleet());
  SnapshotBuilder builder(store_, reg_, 0, &view_);
  MibSnapshotPtr before = builder.build();
  ASSERT_EQ(text(*before, "host1", kOwner), "gw2");
  // gw2 leaves: its targets go to gw1 and gw3.
  FleetSnapshot f = testing::threeMemberFleet();
  f.members.erase(f.members.begin() + 1);
  f.owners["host1"] = "gw1";
  f.owners["spine1"] = "gw3";
  view_.set(f);
  MibSnapshotPtr after = builder.build();
  EXPECT_EQ(text(*after, "host1", kOwner), "gw1");
  EXPECT_EQ(text(*after, "host1", kOwnerSnmp), "10.0.0.1:161");
  EXPECT_EQ(truth(*after, "host1"), kTrue);
  EXPECT_EQ(text(*after, "spine1", kOwner), "gw3");
  EXPECT_EQ(text(*after, "spine1", kOwnerSnmp), "");
  EXPECT_EQ(truth(*after, "spine1"), kFalse);
  // The snapshot taken before is immutable: it still says gw2.
  EXPECT_EQ(text(*before, "host1", kOwner), "gw2");
}

TEST_F(FleetTargetTableTest, EmptyOutsideAFleet) {
  MibSnapshotPtr none = SnapshotBuilder(store_, reg_, 0).build();
  EXPECT_TRUE(fleetTable(*none).empty());
  MibSnapshotPtr disabled = SnapshotBuilder(store_, reg_, 0, &view_).build();  // a view nobody enabled
  EXPECT_TRUE(fleetTable(*disabled).empty());
  // The gateway's own table is there either way.
  EXPECT_FALSE(none->contexts.at("").tables[MibCatalog::instance().find(kTargetTable)].empty());
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
