// The mapping table: every row compiles, maps, feeds a schema row with the
// right key count, reads a field the NX-OS model has, and the subscription
// list brings every model leaf from exactly one source.

#include <gtest/gtest.h>

#include <optional>

#include <map>
#include <regex>
#include <set>
#include <string>

#include "gnmi_builders.h"
#include "models/path.h"
#include "models/schema.h"
#include "southbound/gnmi/mapping/mapping_table.h"
#include "southbound/gnmi/mapping/notification_mapper.h"
#include "southbound/nxos/nxos_interface.h"

namespace rdmagw::southbound::gnmi {
namespace {

using testing::addUpdate;
using testing::readFixture;
using testing::uintVal;

// The source path of a row with sample key values, in the shape NX-OS sends
// (DME relative names as one element "phys-[eth1/1]").
::gnmi::Path sampleSource(const CompiledRow& row) {
  ::gnmi::Path p;
  p.set_origin(row.origin);
  for (const PatternElem& e : row.source) {
    ::gnmi::PathElem* pe = p.add_elem();
    pe->set_name(e.name);
    for (const PatternKey& k : e.keys) {
      std::string v = k.var == 0 ? "eth1/1" : k.var == 1 ? "c-out-8q-q3" : k.value.empty() ? "x" : k.value;
      if (k.key.empty()) {
        pe->set_name(e.name + "-[" + v + "]");
      } else {
        (*pe->mutable_key())[k.key] = v;
      }
    }
  }
  return p;
}

std::string expectedTarget(std::string_view tmpl) {
  std::string t(tmpl);
  for (auto [from, to] : std::map<std::string, std::string>{
           {"{if:ifname}", "Ethernet1/1"}, {"{q:qosgroup}", "3"}, {"{q:priority}", "3"}, {"{id}", "c-out-8q-q3"}}) {
    for (size_t at; (at = t.find(from)) != std::string::npos;) t.replace(at, from.size(), to);
  }
  return t;
}

TEST(MappingTable, EveryRowCompiles) {
  const MappingTable& t = MappingTable::instance();
  EXPECT_TRUE(t.compileErrors().empty()) << t.compileErrors().front();
  EXPECT_EQ(t.rows().size(), mappingRows().size());
}

TEST(MappingTable, EveryRowMapsASampleLeaf) {
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    ::gnmi::Notification n;
    if (row.row->value == ValueRule::kEthernetSpeed) {
      // An identity, not a number: its own test below.
      ::gnmi::TypedValue v;
      v.set_string_val("SPEED_100GB");
      addUpdate(n, sampleSource(row), v);
      MappedNotification m;
      ASSERT_TRUE(mapNotification(n, 0, m).isOk());
      ASSERT_EQ(m.updates.size(), 2u) << row.row->source;
      EXPECT_EQ(m.updates[0].path, expectedTarget(row.row->target)) << row.row->source;
      continue;
    }
    addUpdate(n, sampleSource(row), uintVal(42));
    MappedNotification m;
    ASSERT_TRUE(mapNotification(n, 0, m).isOk());
    ASSERT_EQ(m.updates.size(), 1u) << row.row->source;
    EXPECT_EQ(m.updates[0].path, expectedTarget(row.row->target)) << row.row->source;
    EXPECT_EQ(m.updates[0].value, Value(uint64_t{42}));
    EXPECT_TRUE(m.errors.empty());
  }
}

TEST(MappingTable, HandWrittenExpectations) {
  auto map = [](::gnmi::Path p) {
    ::gnmi::Notification n;
    addUpdate(n, std::move(p), uintVal(1));
    MappedNotification m;
    mapNotification(n, 0, m);
    return m.updates.empty() ? std::string() : m.updates[0].path;
  };
  EXPECT_EQ(map(testing::gpath("openconfig:/interfaces/interface[name=eth1/49]/state/counters/out-discards")),
            "/interfaces/interface[name=Ethernet1/49]/state/counters/out-discards");
  EXPECT_EQ(map(testing::gpath("openconfig:/qos/interfaces/interface[interface-id=eth1/1]/output/queues/"
                               "queue[name=c-out-8q-q7]/state/dropped-pkts")),
            "/qos/interfaces/interface[interface-id=Ethernet1/1]/output/queues/queue[name=7]/state/dropped-pkts");
  EXPECT_EQ(map(testing::gpath("device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/"
                               "If-list[name=eth1/2]/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q4]"
                               "[statType=ucast]/pfcRxPpp")),
            "/interfaces/interface[name=Ethernet1/2]/ethernet/pfc/priorities/priority[id=4]/state/counters/in-pause-frames");
  EXPECT_EQ(map(testing::rawPath("DME", {"sys", "intf", "phys-[eth1/2]", "dbgDot3Stats", "inPauseFrames"})),
            "/interfaces/interface[name=Ethernet1/2]/ethernet/state/counters/in-mac-pause-frames");
  EXPECT_EQ(map(testing::gpath("device:/System/intf-items/phys-items/PhysIf-list[id=eth1/3]/dbgDot3Stats-items/"
                               "alignmentErrors")),
            "/interfaces/interface[name=Ethernet1/3]/ethernet/state/counters/in-alignment-errors");
  EXPECT_EQ(map(testing::rawPath("DME", {"sys", "intf", "phys-[eth1/4]", "dbgDot3Stats", "fCSErrors"})),
            "/interfaces/interface[name=Ethernet1/4]/state/counters/in-fcs-errors");
  EXPECT_EQ(map(testing::gpath("openconfig:/interfaces/interface[name=eth1/5]/ethernet/state/counters/"
                               "in-maxsize-exceeded")),
            "/interfaces/interface[name=Ethernet1/5]/ethernet/state/counters/in-maxsize-exceeded");
}

TEST(MappingTable, EveryTargetIsASchemaRowWithItsKeyCount) {
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    const LeafSchema* leaf = SchemaTable::instance().find(row.target_keyless);
    ASSERT_NE(leaf, nullptr) << "no schema row for " << row.target_keyless;
    size_t keys = 0;
    for (const TargetElem& e : row.target) keys += e.keys.size();
    EXPECT_EQ(SchemaTable::splitLabels(leaf->labels).size(), keys) << row.target_keyless;
    // Counter rules feed counter rows; state leaves (as sent) feed strings
    // and gauges (the MTU).
    EXPECT_EQ(leaf->kind == LeafKind::kCounter, row.row->value == ValueRule::kCounter) << row.target_keyless;
    // Templates are canonical: parse(toString) gives the same string back.
    std::string t = expectedTarget(row.row->target);
    EXPECT_EQ(Path::parse(t)->toString(), t);
  }
}

TEST(MappingTable, SubscriptionPathsBringEveryModelLeafFromOneSource) {
  const std::string dot3 = "device:/System/intf-items/phys-items/PhysIf-list/dbgDot3Stats-items/";
  EXPECT_EQ(nxosSubscriptionPaths(),
            (std::vector<std::string>{
                "openconfig:/interfaces/interface/state/counters",
                "openconfig:/interfaces/interface/ethernet/state/counters",
                "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list/queCmap-items/"
                "QueuingStats-list",
                // Leaf by leaf: the container also holds the pause, FCS, runt
                // and giant counters OpenConfig already brings.
                dot3 + "alignmentErrors", dot3 + "singleCollisionFrames", dot3 + "multipleCollisionFrames",
                dot3 + "lateCollisions", dot3 + "excessiveCollisions", dot3 + "carrierSenseErrors",
                dot3 + "sQETTestErrors", dot3 + "deferredTransmissions", dot3 + "internalMacTransmitErrors",
                dot3 + "internalMacReceiveErrors", dot3 + "symbolErrors",
                "openconfig:/lldp/interfaces/interface/neighbors/neighbor/state",
            }));
  std::map<std::string, int> sources;
  std::set<std::string> all_targets;
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    all_targets.insert(row.target_keyless);
    if (row.row->subscribe) ++sources[row.target_keyless];
  }
  // Counters come from exactly one sampled row; state leaves (as sent) from
  // none: gnmi_config.cc subscribes them ON_CHANGE. LLDP neighbours are
  // sampled too: their timestamps are when the neighbour was last seen.
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    const bool lldp = row.target_keyless.starts_with("/lldp/");
    const int want = row.row->value == ValueRule::kCounter || lldp ? 1 : 0;
    EXPECT_EQ(sources[row.target_keyless], want) << row.target_keyless;
  }
}

TEST(MappingTable, InterfaceStateMapsAsSent) {
  for (const char* leaf : {"oper-status", "description"}) {
    ::gnmi::Notification n;
    ::gnmi::TypedValue v;
    v.set_string_val(std::string(leaf) == "oper-status" ? "UP" : "host01:mlx5_0");
    addUpdate(n, testing::gpath(std::string("openconfig:/interfaces/interface[name=eth1/7]/state/") + leaf), v);
    MappedNotification m;
    ASSERT_TRUE(mapNotification(n, 0, m).isOk());
    ASSERT_EQ(m.updates.size(), 1u) << leaf << ": " << (m.errors.empty() ? "" : m.errors[0]);
    EXPECT_EQ(m.updates[0].path, std::string("/interfaces/interface[name=Ethernet1/7]/state/") + leaf);
    EXPECT_EQ(m.updates[0].value, Value(v.string_val()));
  }
}

TEST(MappingTable, AdminStatusMapsAsSent) {
  ::gnmi::Notification n;
  ::gnmi::TypedValue v;
  v.set_string_val("DOWN");
  addUpdate(n, testing::gpath("openconfig:/interfaces/interface[name=eth1/7]/state/admin-status"), v);
  MappedNotification m;
  ASSERT_TRUE(mapNotification(n, 0, m).isOk());
  ASSERT_EQ(m.updates.size(), 1u);
  EXPECT_EQ(m.updates[0].path, "/interfaces/interface[name=Ethernet1/7]/state/admin-status");
  EXPECT_EQ(m.updates[0].value, Value(std::string("DOWN")));
}

// port-speed and negotiated-port-speed: the identity stored bare, with or
// without its module, and its rate at state/speed from the same reading.
TEST(MappingTable, PortSpeedIdentityAndItsRate) {
  struct Case {
    const char* leaf;
    const char* sent;
    const char* stored;
    std::optional<uint64_t> bps;
  };
  for (const Case& c : {Case{"port-speed", "SPEED_100GB", "SPEED_100GB", 100'000'000'000ull},
                        Case{"port-speed", "openconfig-if-ethernet:SPEED_25GB", "SPEED_25GB", 25'000'000'000ull},
                        Case{"negotiated-port-speed", "oc-eth:SPEED_400GB", "SPEED_400GB", 400'000'000'000ull},
                        Case{"negotiated-port-speed", "SPEED_UNKNOWN", "SPEED_UNKNOWN", std::nullopt}}) {
    SCOPED_TRACE(std::string(c.leaf) + " " + c.sent);
    ::gnmi::Notification n;
    ::gnmi::TypedValue v;
    v.set_string_val(c.sent);
    addUpdate(n, testing::gpath(std::string("openconfig:/interfaces/interface[name=eth1/2]/ethernet/state/") + c.leaf), v);
    MappedNotification m;
    ASSERT_TRUE(mapNotification(n, 0, m).isOk());
    EXPECT_TRUE(m.errors.empty()) << m.errors.front();
    ASSERT_EQ(m.updates.size(), c.bps ? 2u : 1u);
    EXPECT_EQ(m.updates[0].path, std::string("/interfaces/interface[name=Ethernet1/2]/ethernet/state/") + c.leaf);
    EXPECT_EQ(m.updates[0].value, Value(std::string(c.stored)));
    if (c.bps) {
      EXPECT_EQ(m.updates[1].path, "/interfaces/interface[name=Ethernet1/2]/state/speed");
      EXPECT_EQ(m.updates[1].value, Value(*c.bps));
    }
  }
  // Not an ETHERNET_SPEED identity (a number, a made-up name): dropped, said.
  ::gnmi::Notification n;
  ::gnmi::TypedValue bad;
  bad.set_string_val("100G");
  addUpdate(n, testing::gpath("openconfig:/interfaces/interface[name=eth1/2]/ethernet/state/port-speed"), bad);
  ::gnmi::TypedValue number;
  number.set_uint_val(100000);
  addUpdate(n, testing::gpath("openconfig:/interfaces/interface[name=eth1/3]/ethernet/state/port-speed"), number);
  MappedNotification m;
  mapNotification(n, 0, m);
  EXPECT_TRUE(m.updates.empty());
  ASSERT_EQ(m.errors.size(), 2u);
  EXPECT_NE(m.errors[0].find("not an ETHERNET_SPEED identity"), std::string::npos) << m.errors[0];
}

// `show interface counters errors` and gNMI feed the same leaves: every
// dot3Stats row targets the leaf the SSH parser writes for its column, so a
// switch moving between transports keeps each series.
// NX-OS's OpenConfig LLDP neighbours land where the SSH parser of `show lldp
// neighbors detail` puts them: long port name, neighbour keyed by chassis ID.
TEST(MappingTable, LldpNeighboursLandWhereTheSshParserPutsThem) {
  const std::string base = "openconfig:/lldp/interfaces/interface[name=eth1/3]/neighbors/neighbor[id=248a.07b4.a0c2]/state/";
  const std::map<std::string, std::string> sent = {{"system-name", "host01.rdma.lab"},
                                                   {"port-id", "24:8a:07:b4:a0:c2"},
                                                   {"port-id-type", "MAC_ADDRESS"},
                                                   {"chassis-id", "248a.07b4.a0c2"},
                                                   {"port-description", "ens1f0np0"}};
  ::gnmi::Notification n;
  for (const auto& [leaf, text] : sent) {
    ::gnmi::TypedValue v;
    v.set_string_val(text);
    addUpdate(n, testing::gpath(base + leaf), v);
  }
  MappedNotification m;
  ASSERT_TRUE(mapNotification(n, 0, m).isOk());
  EXPECT_TRUE(m.errors.empty()) << m.errors[0];
  ASSERT_EQ(m.updates.size(), sent.size());
  for (const Update& u : m.updates) {
    const std::string leaf = u.path.substr(u.path.rfind('/') + 1);
    EXPECT_EQ(u.path, "/lldp/interfaces/interface[name=Ethernet1/3]/neighbors/neighbor[id=248a.07b4.a0c2]/state/" + leaf);
    EXPECT_EQ(u.value, Value(sent.at(leaf))) << leaf;
  }
}

TEST(MappingTable, Dot3ErrorCountersLandWhereTheSshParserPutsThem) {
  const std::map<std::string, std::string> column_of = {
      {"alignmentErrors", "Align-Err"},         {"fCSErrors", "FCS-Err"},
      {"singleCollisionFrames", "Single-Col"},  {"multipleCollisionFrames", "Multi-Col"},
      {"lateCollisions", "Late-Col"},           {"excessiveCollisions", "Exces-Col"},
      {"carrierSenseErrors", "Carri-Sen"},      {"runts", "Runts"},
      {"frameTooLongs", "Giants"},              {"sQETTestErrors", "SQETest-Err"},
      {"deferredTransmissions", "Deferred-Tx"}, {"internalMacTransmitErrors", "IntMacTx-Er"},
      {"internalMacReceiveErrors", "IntMacRx-Er"}, {"symbolErrors", "Symbol-Err"},
  };
  std::map<std::string, int> seen;
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    if (row.source.size() < 2 || row.source[row.source.size() - 2].name.find("dbgDot3Stats") != 0) continue;
    auto col = column_of.find(row.source.back().name);
    if (col == column_of.end()) continue;  // pause frames: `show interface`
    ++seen[col->first];
    PollBatch b;
    const std::string text = "Port " + col->second + "\nEth1/1 7\n";
    ASSERT_TRUE(nxos::parseInterfaceCountersErrors(text, 0, b).isOk()) << col->second;
    ASSERT_EQ(b.updates.size(), 1u) << col->second;
    EXPECT_EQ(b.updates[0].path, expectedTarget(row.row->target)) << row.row->source;
  }
  for (const auto& [field, column] : column_of) EXPECT_EQ(seen[field], 2) << field << ": device and DME rows";
}

// Field names of the native rows are leaves of Cisco-NX-OS-device 9.3(1).
TEST(MappingTable, NativeFieldsExistInTheNxosModel) {
  std::string yang =
      readFixture("gnmi/nxos_9.3-1_yang__Cisco-NX-OS-device_ipqos_QueuingStats_and_rmon_Dot3Stats_excerpt.yang.txt");
  ASSERT_FALSE(yang.empty());
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    if (row.origin != "device" && row.origin != "DME") continue;
    EXPECT_NE(yang.find("leaf " + row.source.back().name + " {"), std::string::npos) << row.row->source;
  }
  EXPECT_NE(yang.find("key \"cmapName statType\""), std::string::npos);
}

// No OpenConfig row reads a leaf NX-OS 10.6(3) declares not-supported.
TEST(MappingTable, NoOpenConfigRowReadsADeviatedLeaf) {
  std::set<std::string> unsupported;
  for (const char* f : {"gnmi/nxos_10.6-3_yang__cisco-nx-openconfig-interfaces-deviations.yang.txt",
                        "gnmi/nxos_10.6-3_yang__cisco-nx-openconfig-if-ethernet-deviations.yang.txt",
                        "gnmi/nxos_10.6-3_yang__cisco-nx-openconfig-qos-deviations.yang.txt"}) {
    std::string text = readFixture(f);
    ASSERT_FALSE(text.empty()) << f;
    std::regex dev(R"(deviation (\S+) \{([^}]*)\})");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), dev); it != std::sregex_iterator(); ++it) {
      if ((*it)[2].str().find("not-supported") == std::string::npos) continue;
      std::string path = std::regex_replace((*it)[1].str(), std::regex(R"([a-z-]+:)"), "");
      unsupported.insert(path);
    }
  }
  EXPECT_GT(unsupported.size(), 50u);
  EXPECT_TRUE(unsupported.count("/interfaces/interface/state/counters/last-clear"));
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    if (row.origin != "openconfig") continue;
    EXPECT_FALSE(unsupported.count(row.keyless)) << row.keyless;
  }
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
