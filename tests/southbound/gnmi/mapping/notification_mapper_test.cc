// mapNotification: origins, prefix join, timestamps, JSON blobs, deletes,
// unknown leaves, every TypedValue kind, malformed input.

#include <gtest/gtest.h>

// The tests send gNMI's deprecated fields on purpose (old targets do).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gnmi_builders.h"
#include "models/path.h"
#include "southbound/gnmi/mapping/notification_mapper.h"

namespace rdmagw::southbound::gnmi {
namespace {

using testing::addUpdate;
using testing::gpath;
using testing::jsonVal;
using testing::rawPath;
using testing::stringVal;
using testing::uintVal;

constexpr TimestampNs kRx = 42;
const std::string kInOctets = "/interfaces/interface[name=Ethernet1/1]/state/counters/in-octets";
const std::string kNxQueue =
    "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=eth1/1]"
    "/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q3][statType=ucast]";
const std::string kQ3 = "/qos/interfaces/interface[interface-id=Ethernet1/1]/output/queues/queue[name=3]/state/";
const std::string kP3 =
    "/interfaces/interface[name=Ethernet1/1]/ethernet/pfc/priorities/priority[id=3]/state/counters/";

using Pairs = std::vector<std::pair<std::string, std::string>>;

MappedNotification mapOne(const ::gnmi::Notification& n) {
  MappedNotification out;
  EXPECT_TRUE(mapNotification(n, kRx, out).isOk());
  return out;
}

MappedNotification mapLeaf(const ::gnmi::Path& p, const ::gnmi::TypedValue& v) {
  ::gnmi::Notification n;
  addUpdate(n, p, v);
  return mapOne(n);
}

std::vector<std::pair<std::string, std::string>> pairs(const MappedNotification& m) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Update& u : m.updates) {
    out.emplace_back(u.path, valueToString(u.value));  // strings come quoted
  }
  return out;
}

TEST(NotificationMapper, OriginEchoAbsentOrInPrefixMapAlike) {
  for (std::string origin : {"openconfig", "", "rfc7951"}) {
    MappedNotification m = mapLeaf(gpath((origin.empty() ? "" : origin + ":") +
                                         "/interfaces/interface[name=eth1/1]/state/counters/in-octets"),
                                   uintVal(7));
    ASSERT_EQ(m.updates.size(), 1u) << origin;
    EXPECT_EQ(m.updates[0].path, kInOctets);
    EXPECT_EQ(m.updates[0].value, Value(uint64_t{7}));
  }
  ::gnmi::Notification n;
  *n.mutable_prefix() = gpath("openconfig:/interfaces/interface[name=eth1/1]");
  n.mutable_prefix()->set_target("leaf1");
  addUpdate(n, gpath("state/counters/in-octets"), uintVal(8));
  EXPECT_EQ(pairs(mapOne(n)), (Pairs{{kInOctets, "8"}}));
}

TEST(NotificationMapper, PrefixJoinsEveryUpdateAndTimestampFallsBack) {
  ::gnmi::Notification n;
  *n.mutable_prefix() = gpath("/interfaces/interface[name=Eth1/2]/state/counters");
  addUpdate(n, gpath("in-octets"), uintVal(1));
  addUpdate(n, gpath("out-octets"), uintVal(2));
  addUpdate(n, gpath("in-unknown-protos"), uintVal(3));
  MappedNotification m = mapOne(n);
  EXPECT_EQ(pairs(m), (Pairs{
                          {"/interfaces/interface[name=Ethernet1/2]/state/counters/in-octets", "1"},
                          {"/interfaces/interface[name=Ethernet1/2]/state/counters/out-octets", "2"},
                          // No row: kept, keys as sent.
                          {"/interfaces/interface[name=Eth1/2]/state/counters/in-unknown-protos", "3"},
                      }));
  for (const Update& u : m.updates) EXPECT_EQ(u.timestamp_ns, kRx);
  n.set_timestamp(1234);
  for (const Update& u : mapOne(n).updates) EXPECT_EQ(u.timestamp_ns, 1234);
}

TEST(NotificationMapper, AppendsToOutput) {
  ::gnmi::Notification n;
  addUpdate(n, gpath("/interfaces/interface[name=eth1/1]/state/counters/in-octets"), uintVal(1));
  MappedNotification out;
  ASSERT_TRUE(mapNotification(n, kRx, out).isOk());
  ASSERT_TRUE(mapNotification(n, kRx, out).isOk());
  EXPECT_EQ(out.updates.size(), 2u);
  out.clear();
  EXPECT_TRUE(out.updates.empty());
}

TEST(NotificationMapper, EmptyKeepaliveMapsToNothing) {
  MappedNotification m = mapOne(::gnmi::Notification());
  EXPECT_TRUE(m.updates.empty() && m.deletes.empty() && m.errors.empty());
}

TEST(NotificationMapper, InterfaceNamesNormalized) {
  for (std::string name : {"eth1/1", "Eth1/1", "Ethernet1/1", "ethernet1/1", "e1/1"}) {
    MappedNotification m =
        mapLeaf(gpath("openconfig:/interfaces/interface[name=" + name + "]/state/counters/in-octets"), uintVal(1));
    ASSERT_EQ(m.updates.size(), 1u);
    EXPECT_EQ(m.updates[0].path, kInOctets) << name;
  }
  MappedNotification m = mapLeaf(
      gpath("openconfig:/interfaces/interface[name=eth1/1/2]/ethernet/state/counters/in-mac-pause-frames"), uintVal(9));
  EXPECT_EQ(pairs(m), (Pairs{
                          {"/interfaces/interface[name=Ethernet1/1/2]/ethernet/state/counters/in-mac-pause-frames", "9"}}));
  m = mapLeaf(gpath("openconfig:/interfaces/interface[name=po7]/state/counters/out-pkts"), uintVal(1));
  EXPECT_EQ(m.updates[0].path, "/interfaces/interface[name=port-channel7]/state/counters/out-pkts");
}

TEST(NotificationMapper, NativeQueuingStatsBlobFlattened) {
  ::gnmi::Notification n;
  addUpdate(n, gpath(kNxQueue),
            jsonVal(R"({"cmapName":"c-out-8q-q3","statType":"ucast","txPackets":"100","txBytes":6400,)"
                    R"("dropPackets":2,"dropBytes":"128","randEcnMarkedPackets":5,"pfcTxPpp":12,"pfcRxPpp":"7",)"
                    R"("currQueueDepth":"0"})"));
  MappedNotification m = mapOne(n);
  const std::string own = "/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=eth1/1]"
                          "/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q3][statType=ucast]/";
  EXPECT_EQ(pairs(m), (Pairs{
                          {own + "cmapName", "\"c-out-8q-q3\""},
                          {own + "statType", "\"ucast\""},
                          {kQ3 + "transmit-pkts", "100"},
                          {kQ3 + "transmit-octets", "6400"},
                          {kQ3 + "dropped-pkts", "2"},
                          {kQ3 + "dropped-octets", "128"},
                          {kQ3 + "ecn-marked-pkts", "5"},
                          {kP3 + "out-pause-frames", "12"},
                          {kP3 + "in-pause-frames", "7"},
                          // Not a counter row: the string stays a string.
                          {own + "currQueueDepth", "\"0\""},
                      }));
  EXPECT_TRUE(m.errors.empty());
}

TEST(NotificationMapper, NativeBlobAtInterfaceLevelWithKeyedList) {
  ::gnmi::Notification n;
  addUpdate(n,
            gpath("device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=eth1/5]"
                  "/queCmap-items"),
            jsonVal(R"({"QueuingStats-list":[)"
                    R"({"cmapName":"c-out-8q-q-default","statType":"ucast","pfcTxPpp":1},)"
                    R"({"cmapName":"c-out-8q-q3","statType":"ucast","pfcTxPpp":3,"txPackets":4}]})"));
  MappedNotification m = mapOne(n);
  std::vector<std::string> mapped;
  for (const Update& u : m.updates) {
    if (u.path.rfind("/System", 0) != 0) mapped.push_back(u.path + "=" + valueToString(u.value));
  }
  EXPECT_EQ(mapped, (std::vector<std::string>{
                        "/interfaces/interface[name=Ethernet1/5]/ethernet/pfc/priorities/priority[id=0]/state/counters/out-pause-frames=1",
                        "/interfaces/interface[name=Ethernet1/5]/ethernet/pfc/priorities/priority[id=3]/state/counters/out-pause-frames=3",
                        "/qos/interfaces/interface[interface-id=Ethernet1/5]/output/queues/queue[name=3]/state/transmit-pkts=4",
                    }));
}

TEST(NotificationMapper, OpenConfigJsonIetfContainerWithModulePrefixes) {
  ::gnmi::Notification n;
  ::gnmi::TypedValue v;
  v.set_json_ietf_val(R"({"openconfig-interfaces:counters":{"in-octets":"5","out-octets":6,"last-clear":"never"}})");
  addUpdate(n, gpath("openconfig:/interfaces/interface[name=eth1/1]/state"), v);
  EXPECT_EQ(pairs(mapOne(n)), (Pairs{
                                  {kInOctets, "5"},
                                  {"/interfaces/interface[name=Ethernet1/1]/state/counters/out-octets", "6"},
                                  {"/interfaces/interface[name=eth1/1]/state/counters/last-clear", "\"never\""},
                              }));
}

TEST(NotificationMapper, DmeDnShapesMapAlike) {
  const std::string want = "/interfaces/interface[name=Ethernet1/1]/ethernet/state/counters/out-mac-pause-frames";
  std::vector<::gnmi::Path> shapes = {
      rawPath("DME", {"sys", "intf", "phys-[eth1/1]", "dbgDot3Stats", "outPauseFrames"}),
      rawPath("DME", {"sys", "intf", "phys-[eth1", "1]", "dbgDot3Stats", "outPauseFrames"}),
      rawPath("DME", {"sys/intf/phys-[eth1/1]/dbgDot3Stats/outPauseFrames"}),
      rawPath("DME", {"sys/intf/phys-[eth1/1]/dbgDot3Stats", "outPauseFrames"}),
      gpath("DME:/sys/intf/phys[name=eth1/1]/dbgDot3Stats/outPauseFrames"),
      gpath(R"(DME:/sys/intf/phys[name=phys-[eth1/1\]]/dbgDot3Stats/outPauseFrames)"),
      gpath("device:/System/intf-items/phys-items/PhysIf-list[id=eth1/1]/dbgDot3Stats-items/outPauseFrames"),
  };
  for (size_t i = 0; i < shapes.size(); ++i) {
    MappedNotification m = mapLeaf(shapes[i], stringVal("17"));
    EXPECT_EQ(pairs(m), (Pairs{{want, "17"}})) << "shape " << i;
  }
  // The deprecated `element` field carrying the DN.
  ::gnmi::Path legacy;
  for (std::string e : {"sys", "intf", "phys-[eth1/1]", "dbgDot3Stats", "inPauseFrames"}) legacy.add_element(e);
  EXPECT_EQ(mapLeaf(legacy, uintVal(3)).updates.at(0).path,
            "/interfaces/interface[name=Ethernet1/1]/ethernet/state/counters/in-mac-pause-frames");
}

TEST(NotificationMapper, QueueClassWithoutGroupKeptUnmapped) {
  MappedNotification m = mapLeaf(
      gpath("openconfig:/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue[name=RDMA]/state/transmit-pkts"),
      uintVal(5));
  EXPECT_EQ(pairs(m), (Pairs{
                          {"/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue[name=RDMA]/state/transmit-pkts", "5"}}));
}

TEST(NotificationMapper, CounterRowsConvertValueKinds) {
  ::gnmi::Path p = gpath("openconfig:/interfaces/interface[name=eth1/1]/state/counters/in-octets");
  auto one = [&](::gnmi::TypedValue v) { return mapLeaf(p, v); };
  ::gnmi::TypedValue v;
  v.set_int_val(5);
  EXPECT_EQ(one(v).updates.at(0).value, Value(uint64_t{5}));
  v.set_double_val(6.0);
  EXPECT_EQ(one(v).updates.at(0).value, Value(uint64_t{6}));
  v.set_float_val(7.0f);
  EXPECT_EQ(one(v).updates.at(0).value, Value(uint64_t{7}));
  v.mutable_decimal_val()->set_digits(800);
  v.mutable_decimal_val()->set_precision(2);
  EXPECT_EQ(one(v).updates.at(0).value, Value(uint64_t{8}));
  v.set_string_val(" 18446744073709551615");
  EXPECT_EQ(one(v).updates.at(0).value, Value(uint64_t{18446744073709551615u}));
  for (auto set : std::vector<std::function<void(::gnmi::TypedValue&)>>{
           [](auto& t) { t.set_int_val(-1); }, [](auto& t) { t.set_double_val(1.5); },
           [](auto& t) { t.set_bool_val(true); }, [](auto& t) { t.set_string_val("abc"); },
           [](auto& t) { t.set_string_val("18446744073709551616"); }}) {
    ::gnmi::TypedValue bad;
    set(bad);
    MappedNotification m = one(bad);
    EXPECT_TRUE(m.updates.empty()) << bad.DebugString();
    ASSERT_EQ(m.errors.size(), 1u);
    EXPECT_NE(m.errors[0].find("not a count"), std::string::npos) << m.errors[0];
  }
}

TEST(NotificationMapper, UnknownLeavesTypedAsSent) {
  ::gnmi::Path p = gpath("openconfig:/system/state/x");
  auto one = [&](::gnmi::TypedValue v) {
    MappedNotification m = mapLeaf(p, v);
    EXPECT_EQ(m.updates.size(), 1u) << v.DebugString();
    return m.updates.empty() ? Value() : m.updates[0].value;
  };
  ::gnmi::TypedValue v;
  v.set_string_val("up");
  EXPECT_EQ(one(v), Value(std::string("up")));
  v.set_ascii_val("ascii");
  EXPECT_EQ(one(v), Value(std::string("ascii")));
  v.set_bytes_val("raw");
  EXPECT_EQ(one(v), Value(std::string("raw")));
  v.set_int_val(-3);
  EXPECT_EQ(one(v), Value(int64_t{-3}));
  v.set_uint_val(3);
  EXPECT_EQ(one(v), Value(uint64_t{3}));
  v.set_bool_val(false);
  EXPECT_EQ(one(v), Value(false));
  v.set_double_val(2.5);
  EXPECT_EQ(one(v), Value(2.5));
  v.set_float_val(1.5f);
  EXPECT_EQ(one(v), Value(1.5));
  v.mutable_decimal_val()->set_digits(-125);
  v.mutable_decimal_val()->set_precision(2);
  EXPECT_EQ(one(v), Value(-1.25));
  v.mutable_decimal_val()->set_precision(0);
  EXPECT_EQ(one(v), Value(int64_t{-125}));
  v.set_json_val("12");
  EXPECT_EQ(one(v), Value(uint64_t{12}));
  v.set_json_ietf_val("\"x\"");
  EXPECT_EQ(one(v), Value(std::string("x")));
  v.set_json_val("-2.5e1");
  EXPECT_EQ(one(v), Value(-25.0));
  ::gnmi::TypedValue ll;
  ll.mutable_leaflist_val()->add_element()->set_string_val("a");
  ll.mutable_leaflist_val()->add_element()->set_uint_val(2);
  EXPECT_EQ(one(ll), Value(std::string("a,2")));
  v.set_json_val(R"({"list":["a","b"]})");
  MappedNotification m = mapLeaf(p, v);
  EXPECT_EQ(pairs(m), (Pairs{{"/system/state/x/list", "\"a,b\""}}));
}

TEST(NotificationMapper, DeprecatedValueField) {
  ::gnmi::Notification n;
  ::gnmi::Update* u = n.add_update();
  *u->mutable_path() = gpath("openconfig:/interfaces/interface[name=eth1/1]/state");
  u->mutable_value()->set_type(::gnmi::JSON);
  u->mutable_value()->set_value(R"({"counters":{"in-octets":3}})");
  EXPECT_EQ(pairs(mapOne(n)), (Pairs{{kInOctets, "3"}}));
}

TEST(NotificationMapper, UnsupportedValuesAreErrors) {
  ::gnmi::Path p = gpath("/a/b");
  ::gnmi::TypedValue v;
  v.set_proto_bytes("x");
  EXPECT_EQ(mapLeaf(p, v).errors.size(), 1u);
  v.mutable_any_val()->set_type_url("x");
  EXPECT_EQ(mapLeaf(p, v).errors.size(), 1u);
  EXPECT_EQ(mapLeaf(p, ::gnmi::TypedValue()).errors.size(), 1u);
  ::gnmi::TypedValue nested;
  nested.mutable_leaflist_val()->add_element()->mutable_leaflist_val();
  EXPECT_EQ(mapLeaf(p, nested).errors.size(), 1u);
}

TEST(NotificationMapper, DeletesMapThroughTheTable) {
  auto del = [](::gnmi::Path p) {
    ::gnmi::Notification n;
    *n.add_delete_() = std::move(p);
    return mapOne(n).deletes;
  };
  // An OpenConfig interface: its own path and the model subtree.
  EXPECT_EQ(del(gpath("openconfig:/interfaces/interface[name=eth1/1]")),
            (std::vector<std::string>{"/interfaces/interface[name=eth1/1]", "/interfaces/interface[name=Ethernet1/1]"}));
  // One OpenConfig leaf.
  EXPECT_EQ(del(gpath("openconfig:/interfaces/interface[name=eth1/1]/state/counters/in-octets")),
            (std::vector<std::string>{"/interfaces/interface[name=eth1/1]/state/counters/in-octets", kInOctets}));
  // A native queuing class: its mapped leaves, nothing wider.
  std::vector<std::string> q = del(gpath(kNxQueue));
  EXPECT_EQ(q.size(), 8u);
  EXPECT_NE(std::find(q.begin(), q.end(), kQ3 + "ecn-marked-pkts"), q.end());
  EXPECT_NE(std::find(q.begin(), q.end(), kP3 + "in-pause-frames"), q.end());
  // All classes of a port: the class is wildcarded.
  std::vector<std::string> all = del(gpath(
      "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=eth1/1]"));
  EXPECT_NE(std::find(all.begin(), all.end(),
                      "/interfaces/interface[name=Ethernet1/1]/ethernet/pfc/priorities/priority[id=*]/state/counters/out-pause-frames"),
            all.end());
  for (const std::string& d : all) EXPECT_TRUE(Path::parse(d).isOk()) << d;
  // Whole list, no key.
  EXPECT_EQ(del(gpath("openconfig:/interfaces/interface")),
            (std::vector<std::string>{"/interfaces/interface", "/interfaces/interface[name=*]"}));
  // "*" keys are wildcards for Store::remove (Path::hasPrefix).
  Path wild = *Path::parse("/interfaces/interface[name=Ethernet1/1]/ethernet/pfc/priorities/priority[id=*]");
  EXPECT_TRUE(Path::parse(kP3 + "in-pause-frames")->hasPrefix(wild));
}

TEST(NotificationMapper, MalformedInputGivesErrorsNotCrashes) {
  ::gnmi::Notification n;
  addUpdate(n, gpath(kNxQueue), jsonVal(R"({"pfcTxPpp": 12,)"));                              // bad JSON
  addUpdate(n, rawPath("", {"a", "", "b"}), uintVal(1));                                      // empty elem
  addUpdate(n, rawPath("DME", {"sys", "intf", "phys-[eth1"}), uintVal(1));                   // unterminated DN
  addUpdate(n, rawPath("DME", {"sys", "intf]"}), uintVal(1));                                // stray ]
  ::gnmi::Path badkey = gpath("/a/b");
  (*badkey.mutable_elem(0)->mutable_key())[""] = "x";
  addUpdate(n, badkey, uintVal(1));                                                           // empty key name
  ::gnmi::Path longkey = gpath("/a/b");
  (*longkey.mutable_elem(0)->mutable_key())["k"] = std::string(100000, 'x');
  addUpdate(n, longkey, uintVal(1));                                                          // absurd key
  addUpdate(n, rawPath("", std::vector<std::string>(200, "x")), uintVal(1));                 // too deep
  addUpdate(n, gpath("/interfaces/interface/state/counters/in-octets"), uintVal(1));         // no key
  addUpdate(n, gpath("/x"), jsonVal(std::string(100, '[') + std::string(100, ']')));         // too nested
  addUpdate(n, gpath("/x"), jsonVal(R"({"l":[{"v":1},{"name":"a","v":2}]})"));               // keyless entry
  MappedNotification out;
  ASSERT_TRUE(mapNotification(n, kRx, out).isOk());
  EXPECT_EQ(out.errors.size(), 10u);
  for (const std::string& e : out.errors) SCOPED_TRACE(e);
  EXPECT_EQ(pairs(out), (Pairs{{"/x/l[name=a]/name", "\"a\""}, {"/x/l[name=a]/v", "2"}}));
  // A bad prefix makes the whole notification unusable.
  ::gnmi::Notification bad;
  *bad.mutable_prefix() = rawPath("DME", {"sys", "phys-[eth1"});
  addUpdate(bad, gpath("x"), uintVal(1));
  MappedNotification none;
  EXPECT_FALSE(mapNotification(bad, kRx, none).isOk());
  EXPECT_TRUE(none.updates.empty());
}

TEST(NotificationMapper, SeededMutationsNeverCrash) {
  std::mt19937 rng(20240611);
  const std::string blob =
      R"({"QueuingStats-list":[{"cmapName":"c-out-8q-q3","statType":"ucast","pfcTxPpp":"12","txPackets":4,)"
      R"("x":{"y":[1,2,{"z":null}]},"s":"a\u00e9\"b"}],"rmonDot3Stats":{"attributes":{"inPauseFrames":"1"},)"
      R"("children":[{"c":{"attributes":{"rn":"k-[v/w]","n":1}}}]}})";
  const std::string alphabet = "{}[]\":,\\/-0123456789eE.+ tnfalsru";
  size_t mapped = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string j = blob;
    int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % (j.size() + 1);
      switch (rng() % 3) {
        case 0: j.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 1: if (at < j.size()) j.erase(at, 1); break;
        default: j = j.substr(0, at);
      }
    }
    ::gnmi::Notification n;
    addUpdate(n, gpath(kNxQueue), jsonVal(j));
    std::string dn = "sys/intf/phys-[eth1/1]/dbgDot3Stats";
    dn.insert(rng() % (dn.size() + 1), 1, "[]/-"[rng() % 4]);
    addUpdate(n, rawPath("DME", {dn, "inPauseFrames"}), stringVal(j.substr(0, 5)));
    *n.add_delete_() = rawPath("DME", {dn});
    MappedNotification out;
    ASSERT_TRUE(mapNotification(n, kRx, out).isOk());
    for (const Update& u : out.updates) {
      Result<Path> p = Path::parse(u.path);
      ASSERT_TRUE(p.isOk()) << u.path;
      ASSERT_EQ(p->toString(), u.path);
    }
    mapped += out.updates.size();
  }
  EXPECT_GT(mapped, 0u);
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
