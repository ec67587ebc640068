// Derived ifIndex (a fleet's scheme): the same numbers on every member and
// in every release, NX-OS names under NX-OS's own numbers, every number in
// 1..2^31-1 and unique in its context, collisions settled in name order
// whatever order the names were first seen in.

#include "northbound/snmp/if_index_derivation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "northbound/snmp/if_index_registry.h"
#include "northbound/snmp/snapshot_builder.h"
#include "tests/northbound/snmp/snmp_test_store.h"
#include "tests/northbound/snmp/table_names.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::snmp {
namespace {

// Two names with the same hashed home, the smaller first (a birthday
// search: about 50000 names into the 1.6e9 hashed numbers).
std::pair<std::string, std::string> collidingPair(const std::string& stem) {
  static std::map<std::string, std::pair<std::string, std::string>> found;  // the search is the slow part
  if (auto it = found.find(stem); it != found.end()) return it->second;
  std::unordered_map<uint32_t, int> seen;
  seen.reserve(1 << 18);
  for (int i = 0;; ++i) {
    auto [it, fresh] = seen.emplace(homeIfIndex(stem + std::to_string(i)), i);
    if (!fresh) return found[stem] = std::minmax(stem + std::to_string(it->second), stem + std::to_string(i));
  }
}

TEST(IfIndexDerivationTest, NxosNamesGetTheNumbersNxosGivesThem) {
  // As `show interface snmp-ifindex` prints them on a Nexus 9000.
  EXPECT_EQ(nxosIfIndex("Ethernet1/1"), 436207616u);  // 0x1a000000
  EXPECT_EQ(nxosIfIndex("Ethernet1/2"), 436208128u);  // 0x1a000200
  EXPECT_EQ(nxosIfIndex("Ethernet1/49"), 0x1a006000u);
  EXPECT_EQ(nxosIfIndex("Ethernet2/1"), 0x1a080000u);
  EXPECT_EQ(nxosIfIndex("port-channel1"), 369098752u);  // 0x16000000
  EXPECT_EQ(nxosIfIndex("port-channel4096"), 0x16000fffu);
  EXPECT_EQ(nxosIfIndex("Vlan1"), 151060481u);  // 0x09010001
  EXPECT_EQ(nxosIfIndex("Vlan4094"), 0x09010ffeu);
  EXPECT_EQ(nxosIfIndex("loopback0"), 335544320u);  // 0x14000000
  EXPECT_EQ(nxosIfIndex("mgmt0"), 83886080u);       // 0x05000000
  // Not the canonical shape: hashed, never sharing a structural number.
  for (const char* name : {"Ethernet01/1",   "Ethernet1/01",   "Ethernet0/1",  "Ethernet1/0",  "Ethernet33/1",
                           "Ethernet1/1025", "Ethernet1/49/1", "Ethernet1/",   "Ethernet/1",   "ethernet1/1",
                           "Ethernet1",      "Vlan0",          "Vlan4095",     "Vlan",         "port-channel0",
                           "loopback1024",   "mgmt16",         "Ethernet1/1 ", "Ethernet1/+1", "Vlan-1"}) {
    EXPECT_FALSE(nxosIfIndex(name)) << name;
    EXPECT_GE(homeIfIndex(name), kHashedFirst) << name;
  }
  // Every structural number is one name's and below the hashed part.
  std::set<uint32_t> numbers;
  size_t names = 0;
  auto add = [&](const std::string& name) {
    std::optional<uint32_t> n = nxosIfIndex(name);
    ASSERT_TRUE(n) << name;
    EXPECT_GE(*n, 1u);
    EXPECT_LT(*n, kHashedFirst) << name;
    numbers.insert(*n);
    ++names;
  };
  for (int slot = 1; slot <= 32; ++slot) {
    for (int port = 1; port <= 1024; port += (port < 64 ? 1 : 97)) {
      add("Ethernet" + std::to_string(slot) + "/" + std::to_string(port));
    }
  }
  for (int n = 1; n <= 4096; ++n) add("port-channel" + std::to_string(n));
  for (int n = 1; n <= 4094; ++n) add("Vlan" + std::to_string(n));
  for (int n = 0; n <= 1023; ++n) add("loopback" + std::to_string(n));
  for (int n = 0; n <= 15; ++n) add("mgmt" + std::to_string(n));
  add("Ethernet32/1024");
  EXPECT_EQ(numbers.size(), names);
}

TEST(IfIndexDerivationTest, HashedNamesAreFixedAcrossMembersAndReleases) {
  // FNV-1a 64 folded into 0x20000000..2^31-1: pinned, because a changed
  // number renumbers every fleet's interfaces on upgrade.
  EXPECT_EQ(homeIfIndex("mlx5_0"), 2022449300u);
  EXPECT_EQ(homeIfIndex("eth0"), 1512416260u);
  EXPECT_EQ(homeIfIndex("Ethernet0"), 614161754u);  // SONiC's names: no slot, hashed
  EXPECT_EQ(homeIfIndex("Ethernet1/49/1"), 610299909u);
  EXPECT_EQ(nextHashedIfIndex(kHashedFirst), kHashedFirst + 1);
  EXPECT_EQ(nextHashedIfIndex(kMaxIfIndex), kHashedFirst);  // wraps within the hashed part
}

TEST(IfIndexDerivationTest, ManyNamesAreUniqueInRangeAndTheSameInAnyOrder) {
  // 20000 names and two colliding pairs, so this also settles
  // collisions. Two members that see the names in opposite
  // orders, each in one build, agree on every number.
  std::vector<std::string> names;
  for (int i = 0; i < 20000; ++i) names.push_back("vmnic" + std::to_string(i));
  for (int i = 1; i <= 48; ++i) names.push_back("Ethernet1/" + std::to_string(i));
  for (const char* stem : {"if", "nic"}) {  // collisions for sure, not by chance
    const auto pair = collidingPair(stem);
    names.push_back(pair.first);
    names.push_back(pair.second);
  }
  std::vector<std::string> shuffled = names;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
  IfIndexRegistry a("", IfIndexScheme::kDerived);
  IfIndexRegistry b("", IfIndexScheme::kDerived);
  std::set<uint32_t> numbers;
  size_t moved = 0;
  for (const std::string& n : names) {
    uint32_t v = a.indexOf("sw1", n);
    moved += v != homeIfIndex(n);
  }
  for (const std::string& n : shuffled) b.indexOf("sw1", n);
  a.settle("sw1");
  b.settle("sw1");
  for (const std::string& n : names) {
    const uint32_t v = a.indexOf("sw1", n);
    EXPECT_GE(v, 1u);
    EXPECT_LE(v, kMaxIfIndex);
    numbers.insert(v);
    EXPECT_EQ(v, b.indexOf("sw1", n)) << n;
  }
  EXPECT_EQ(numbers.size(), names.size());
  EXPECT_GE(moved, 2u) << "the colliding pairs";
  EXPECT_EQ(a.indexOf("sw1", "Ethernet1/1"), 436207616u);
  EXPECT_EQ(a.indexOf("sw2", "vmnic0"), a.indexOf("sw1", "vmnic0"));  // no context bends another
  std::printf("20004 hashed names: %zu off their home number\n", moved);
}

TEST(IfIndexDerivationTest, ACollisionGoesToTheSmallerNameWhenSeenTogether) {
  const auto [small, large] = collidingPair("if");
  const uint32_t home = homeIfIndex(small);
  ASSERT_EQ(homeIfIndex(large), home);
  // Seen in one build, in either order: the smaller name keeps the home,
  // the larger takes the next number up.
  for (bool large_first : {false, true}) {
    IfIndexRegistry reg("", IfIndexScheme::kDerived);
    reg.indexOf("sw1", large_first ? large : small);
    reg.indexOf("sw1", large_first ? small : large);
    EXPECT_EQ(reg.settle("sw1"), large_first) << "only the reversed order changed a number given";
    EXPECT_EQ(reg.indexOf("sw1", small), home);
    EXPECT_EQ(reg.indexOf("sw1", large), nextHashedIfIndex(home));
    EXPECT_FALSE(reg.settle("sw1"));
  }
  // A name keeps the number it has: the smaller name, seen a build later,
  // takes the next one up and nothing already served moves.
  IfIndexRegistry reg("", IfIndexScheme::kDerived);
  EXPECT_EQ(reg.indexOf("sw1", large), home);
  EXPECT_FALSE(reg.settle("sw1"));
  EXPECT_EQ(reg.indexOf("sw1", small), nextHashedIfIndex(home));
  EXPECT_FALSE(reg.settle("sw1"));
  EXPECT_EQ(reg.indexOf("sw1", large), home);
}

// The builder asks in the store's order; a collision among new names makes
// it place the target's cells again under the settled numbers: ifName at
// each number is the name the registry gives it.
TEST(IfIndexDerivationTest, TheSnapshotServesSettledNumbers) {
  const auto [small, large] = collidingPair("nic");
  const uint32_t home = homeIfIndex(small);
  Store store;
  // The larger name first: the store visits in the order series came.
  testing::put(&store, "h1", "/interfaces/interface[name=" + large + "]/state/counters/in-octets", uint64_t{7});
  testing::put(&store, "h1", "/interfaces/interface[name=" + small + "]/state/counters/in-octets", uint64_t{9});
  testing::put(&store, "h1", "/interfaces/interface[name=Ethernet1/3]/state/counters/in-octets", uint64_t{11});
  IfIndexRegistry reg("", IfIndexScheme::kDerived);
  MibSnapshotPtr s = SnapshotBuilder(store, reg, 0).build();
  const TableDef& def = MibCatalog::instance().tables()[MibCatalog::instance().find(kIfXTable)];
  const TableData& data = s->contexts.at("h1").tables[MibCatalog::instance().find(kIfXTable)];
  auto cell = [&](uint32_t column, uint32_t if_index) {
    Oid oid = def.entry;
    oid.push_back(column);
    oid.push_back(if_index);
    return getExact(def, data, oid);
  };
  std::map<uint32_t, std::string> served;
  for (uint32_t n : {home, nextHashedIfIndex(home), 0x1a000400u}) {
    std::optional<CellView> name = cell(1, n);  // ifName
    if (name) served[n] = std::string(name->text);
  }
  EXPECT_EQ(served, (std::map<uint32_t, std::string>{
                        {home, small}, {nextHashedIfIndex(home), large}, {0x1a000400u, "Ethernet1/3"}}));
  std::optional<CellView> octets = cell(6, home);  // ifHCInOctets, placed under the settled number
  ASSERT_TRUE(octets);
  EXPECT_EQ(octets->number, 9u);
  EXPECT_EQ(data.rowCount(), 3u) << "no row left under a number first given";
}

TEST(IfIndexDerivationTest, SequentialStaysTheDefaultAndDerivedLeavesTheStateFileAlone) {
  testing::TempDir dir("rdmagw-ifindex-derived");
  const std::string file = dir.file("snmp-ifindex.tsv");
  const std::string before = "sw1\tEthernet1/1\t1\nsw1\tmlx5_0\t2\n";
  ASSERT_TRUE(testing::writeFile(file, before));
  IfIndexRegistry sequential(file);  // a lone gateway: its file's numbers, as before
  ASSERT_TRUE(sequential.load().isOk());
  EXPECT_EQ(sequential.scheme(), IfIndexScheme::kSequential);
  EXPECT_EQ(sequential.indexOf("sw1", "Ethernet1/1"), 1u);
  EXPECT_EQ(sequential.indexOf("sw1", "Ethernet1/2"), 3u);
  IfIndexRegistry derived(file, IfIndexScheme::kDerived);
  ASSERT_TRUE(derived.load().isOk());
  EXPECT_EQ(derived.indexOf("sw1", "Ethernet1/1"), 436207616u);
  EXPECT_EQ(derived.indexOf("sw1", "mlx5_0"), 2022449300u);
  derived.settle("sw1");
  ASSERT_TRUE(derived.saveIfChanged().isOk());
  EXPECT_EQ(testing::readFile(file), before);
}

}  // namespace
}  // namespace rdmagw::northbound::snmp
