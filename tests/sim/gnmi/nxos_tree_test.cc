// The simulated NX-OS gNMI tree: which containers a leaf has, how paths
// (wildcards, origins, module prefixes) select them, how values render.

#include "sim/gnmi/nxos_tree.h"

#include <gtest/gtest.h>

#include <map>

#include "sim/fabric.h"

namespace rdmagw::sim::gnmi_tree {
namespace {

const Switch& leaf() {
  static const Switch* sw = [] {
    Fabric f(FabricConfig{});
    for (int t = 0; t < 30; ++t) f.step();
    return new Switch(f.switches()[0]);
  }();
  return *sw;
}

std::shared_ptr<const Snapshot> snap() {
  static auto s = build(leaf(), 42, 1, {});
  return s;
}

// Every port is an OpenConfig interface, the ii ports included (by default).
int interfaces() { return int(leaf().ports.size()); }

TEST(NxosTree, ShortNamesAndQueueClasses) {
  EXPECT_EQ(shortIfName("Ethernet1/3"), "eth1/3");
  EXPECT_EQ(shortIfName("ii1/1/2"), "ii1/1/2");
  EXPECT_EQ(queueClassName(0), "c-out-8q-q-default");
  EXPECT_EQ(queueClassName(3), "c-out-8q-q3");
}

TEST(NxosTree, PathRoundTrip) {
  const std::string text =
      "openconfig:/interfaces/interface[name=eth1/1]/state/counters/in-octets";
  gnmi::Path p = parsePath(text);
  EXPECT_EQ(p.origin(), "openconfig");
  ASSERT_EQ(p.elem_size(), 5);
  EXPECT_EQ(p.elem(1).key().at("name"), "eth1/1");
  EXPECT_EQ(toString(p), text);
  EXPECT_EQ(parsePath("/").elem_size(), 0);
}

TEST(NxosTree, LeafValuesAreTheSwitchCounters) {
  const SwitchPort& p = leaf().ports[0];
  ASSERT_EQ(p.kind, PortKind::kHost);
  const std::string ifn = shortIfName(p.name);
  auto sel = select(*snap(), parsePath("/interfaces/interface[name=" + ifn + "]/state/counters/in-octets"), true);
  ASSERT_EQ(sel.size(), 1u);
  auto n = render(*snap(), sel, {true, true});
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].timestamp(), 42);
  EXPECT_EQ(n[0].update(0).val().uint_val(), p.in_octets);
  EXPECT_EQ(n[0].update(0).path().origin(), "openconfig");
  EXPECT_GT(p.in_octets, 0u);
}

TEST(NxosTree, WildcardKeysAndMissingKeysExpand) {
  for (const char* path : {"/interfaces/interface[name=*]/state/counters/out-octets",
                           "/interfaces/interface/state/counters/out-octets",
                           "/interfaces/*/state/counters/out-octets",
                           "/interfaces/.../out-octets",
                           "openconfig-interfaces:interfaces/interface/state/counters/out-octets"}) {
    EXPECT_EQ(int(select(*snap(), parsePath(path), true).size()), interfaces()) << path;
  }
}

TEST(NxosTree, OriginsSelectTheirTree) {
  const auto all = select(*snap(), parsePath("/"), true).size();
  const auto oc = select(*snap(), parsePath("openconfig:/"), true).size();
  const auto dev = select(*snap(), parsePath("device:/"), true).size();
  EXPECT_EQ(all, oc + dev);
  EXPECT_GT(dev, 0u);
  EXPECT_TRUE(select(*snap(), parsePath("DME:/sys/intf"), true).empty());
  EXPECT_TRUE(select(*snap(), parsePath("device:/interfaces"), true).empty());
}

TEST(NxosTree, NativeQueuingIsOneBlobWithTheCliCounters) {
  const SwitchPort& p = leaf().ports[0];
  const QueueCounters& q = p.queues[3];
  const std::string path =
      "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=" +
      shortIfName(p.name) + "]/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q3]";
  auto sel = select(*snap(), parsePath(path), true);
  ASSERT_EQ(sel.size(), 1u);
  EXPECT_EQ(sel[0].field, Selection::kBlob);
  auto n = render(*snap(), sel, {true, true});
  const std::string json = n.at(0).update(0).val().json_val();
  EXPECT_NE(json.find("\"txPackets\":" + std::to_string(q.uc_tx_pkts + q.mc_tx_pkts)), std::string::npos) << json;
  EXPECT_NE(json.find("\"randEcnMarkedPackets\":" + std::to_string(q.ecn_pkts)), std::string::npos);
  EXPECT_NE(json.find("\"pfcTxPpp\":" + std::to_string(p.tx_ppp[3])), std::string::npos);
  EXPECT_NE(json.find("\"pfcRxPpp\":" + std::to_string(p.rx_ppp[3])), std::string::npos);
  EXPECT_EQ(toString(n[0].update(0).path()), path);

  // Without the quirk: seven typed leaves.
  auto leaves = select(*snap(), parsePath(path), false);
  EXPECT_EQ(leaves.size(), 7u);
  // A field inside a blob is still answered as a leaf.
  auto one = select(*snap(), parsePath(path + "/pfcTxPpp"), true);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(render(*snap(), one, {true, true})[0].update(0).val().uint_val(), p.tx_ppp[3]);
}

TEST(NxosTree, InternalPortsAreInterfacesWithTheirNativeQueuing) {
  const std::string base =
      "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=ii1/1/1]";
  EXPECT_EQ(select(*snap(), parsePath(base), true).size(), size_t(kQosGroups));
  // The ii link's own counters: IF-MIB's ifHCInOctets of its row.
  const SwitchPort& ii = leaf().ports[size_t(leaf().internalIndex(0))];
  ASSERT_EQ(ii.name, "ii1/1/1");
  auto octets = select(*snap(), parsePath("/interfaces/interface[name=ii1/1/1]/state/counters/in-octets"), true);
  ASSERT_EQ(octets.size(), 1u);
  EXPECT_EQ(render(*snap(), octets, {true, true})[0].update(0).val().uint_val(), ii.in_octets);
  auto without = build(leaf(), 1, 1, {.include_internal_ports = false});
  EXPECT_TRUE(select(*without, parsePath(base), true).empty());
  EXPECT_TRUE(select(*without, parsePath("/interfaces/interface[name=ii1/1/1]"), true).empty());
}

// What `show interface` prints for a port, over OpenConfig: state words,
// description, and the speed as ETHERNET_SPEED identities.
TEST(NxosTree, InterfaceStateAndPortSpeed) {
  const SwitchPort& p = leaf().ports[0];
  const std::string base = "openconfig:/interfaces/interface[name=" + shortIfName(p.name) + "]/";
  std::map<std::string, std::string> got;
  for (const char* path : {"state/oper-status", "state/admin-status", "state/description",
                           "ethernet/state/port-speed", "ethernet/state/negotiated-port-speed"}) {
    auto sel = select(*snap(), parsePath(base + path), false);
    ASSERT_EQ(sel.size(), 1u) << path;
    got[path] = render(*snap(), sel, {true, true})[0].update(0).val().string_val();
  }
  EXPECT_EQ(got["state/oper-status"], "UP");
  EXPECT_EQ(got["state/admin-status"], "UP");
  EXPECT_EQ(got["state/description"], p.description);
  EXPECT_EQ(got["ethernet/state/port-speed"], "SPEED_100GB");
  EXPECT_EQ(got["ethernet/state/negotiated-port-speed"], "SPEED_100GB");
  Switch fast = leaf();
  fast.speed_bps = 400'000'000'000;
  auto sel = select(*build(fast, 1, 1, {}), parsePath(base + "ethernet/state/port-speed"), false);
  ASSERT_EQ(sel.size(), 1u);
  EXPECT_EQ(render(*build(fast, 1, 1, {}), sel, {true, true})[0].update(0).val().string_val(), "SPEED_400GB");
}

TEST(NxosTree, Dot3PauseAndJsonEncoding) {
  const SwitchPort& p = leaf().ports[1];
  const std::string ifn = shortIfName(p.name);
  auto sel = select(*snap(), parsePath("/System/intf-items/phys-items/PhysIf-list[id=" + ifn + "]/dbgDot3Stats-items"), true);
  ASSERT_EQ(sel.size(), 1u);
  EXPECT_EQ(render(*snap(), sel, {false, true})[0].update(0).val().json_val(),
            "{\"inPauseFrames\":" + std::to_string(p.in_pause) + ",\"outPauseFrames\":" +
                std::to_string(p.out_pause) + "}");
  auto oc = select(*snap(), parsePath("/interfaces/interface[name=" + ifn + "]/ethernet/state/counters"), true);
  ASSERT_EQ(oc.size(), 2u);
  auto n = render(*snap(), oc, {false, false});
  EXPECT_EQ(n[0].update(0).path().origin(), "");
  EXPECT_EQ(n[0].update(0).val().json_val(), std::to_string(p.in_pause));
}

TEST(NxosTree, OcQueuesSumUnicastAndMulticast) {
  const SwitchPort& p = leaf().ports[0];
  auto sel = select(*snap(),
                    parsePath("/qos/interfaces/interface[interface-id=" + shortIfName(p.name) +
                              "]/output/queues/queue[name=c-out-8q-q-default]/state/transmit-octets"),
                    true);
  ASSERT_EQ(sel.size(), 1u);
  EXPECT_EQ(render(*snap(), sel, {true, true})[0].update(0).val().uint_val(),
            p.queues[0].uc_tx_bytes + p.queues[0].mc_tx_bytes);
}

TEST(NxosTree, UnknownPathsSelectNothing) {
  EXPECT_TRUE(select(*snap(), parsePath("/interfaces/interface[name=eth9/99]"), true).empty());
  EXPECT_TRUE(select(*snap(), parsePath("/interfaces/interface/state/counters/nope"), true).empty());
  EXPECT_TRUE(select(Snapshot{}, parsePath("/"), true).empty());
}

}  // namespace
}  // namespace rdmagw::sim::gnmi_tree

namespace rdmagw::sim::gnmi_tree {
namespace {

// Host ports serve their LLDP neighbour as OpenConfig strings: string_val in
// PROTO, a JSON string in JSON; a changed neighbour changes the fingerprint.
TEST(NxosTree, LldpNeighboursAreStrings) {
  const SwitchPort& p = leaf().ports[0];
  ASSERT_FALSE(p.lldp.system_name.empty());
  const std::string base = "openconfig:/lldp/interfaces/interface[name=" + shortIfName(p.name) +
                           "]/neighbors/neighbor[id=" + p.lldp.chassis_id + "]/state";
  auto sel = select(*snap(), parsePath(base), false);
  ASSERT_EQ(sel.size(), 5u);  // system-name, port-id, port-id-type, chassis-id, port-description
  auto proto = render(*snap(), sel, {true, true});
  ASSERT_EQ(proto.size(), 1u);
  std::map<std::string, std::string> got;
  for (const gnmi::Update& u : proto[0].update()) got[u.path().elem(6).name()] = u.val().string_val();
  EXPECT_EQ(got["system-name"], p.lldp.system_name);
  EXPECT_EQ(got["port-id-type"], "MAC_ADDRESS");
  EXPECT_EQ(got["port-description"], p.lldp.port_desc);
  auto json = render(*snap(), sel, {true, false});
  EXPECT_EQ(json[0].update(0).val().json_val().front(), '"');
  // Every host port has one neighbour container; uplinks and ii ports none.
  int hosts = 0;
  for (const SwitchPort& q : leaf().ports) hosts += q.kind == PortKind::kHost;
  EXPECT_EQ(select(*snap(), parsePath("openconfig:/lldp/interfaces/interface/neighbors/neighbor/state/system-name"), false)
                .size(),
            size_t(hosts));
  Switch changed = leaf();
  changed.ports[0].lldp.system_name = "host99";
  auto other = build(changed, 42, 2, {});
  const Selection name{sel[0].container, 0};
  EXPECT_NE(fingerprint(*snap(), name), fingerprint(*other, name));
}

}  // namespace
}  // namespace rdmagw::sim::gnmi_tree
