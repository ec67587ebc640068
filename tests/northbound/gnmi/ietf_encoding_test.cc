// JSON_IETF (RFC 7951) rendering over a small hand-made YANG tree shaped like
// ours: OpenConfig interfaces with the Ethernet augment and our PFC augment
// below it, a qos tree with our network-qos augment, a fabric verdict tree.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/schema.h"
#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/gnmi/json_tree.h"
#include "northbound/gnmi/typed_value.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {
namespace {

YangLeafType t(YangType type, std::string identity_module = "", uint8_t fraction_digits = 0) {
  return YangLeafType{type, std::move(identity_module), fraction_digits};
}

const YangTree& tree() {
  static const YangTree yang = [] {
    YangTree y;
    const std::pair<const char*, YangLeafType> leaves[] = {
        {"/openconfig-interfaces:interfaces/interface/name", t(YangType::kString)},
        {"/openconfig-interfaces:interfaces/interface/state/mtu", t(YangType::kUint16)},
        {"/openconfig-interfaces:interfaces/interface/state/type", t(YangType::kIdentityref, "iana-if-type")},
        {"/openconfig-interfaces:interfaces/interface/state/oper-status", t(YangType::kEnumeration)},
        {"/openconfig-interfaces:interfaces/interface/state/enabled", t(YangType::kBoolean)},
        {"/openconfig-interfaces:interfaces/interface/state/counters/in-octets", t(YangType::kUint64)},
        {"/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/state/port-speed",
         t(YangType::kIdentityref, "openconfig-if-ethernet")},
        {"/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/rdmagw-interfaces:pfc/"
         "priorities/priority/id",
         t(YangType::kUint8)},
        {"/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/rdmagw-interfaces:pfc/"
         "priorities/priority/state/counters/in-pause-frames",
         t(YangType::kUint64)},
        {"/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/rdmagw-interfaces:pfc/"
         "state/enabled-priorities",
         t(YangType::kUint8)},
        {"/openconfig-qos:qos/rdmagw-qos:network-qos/classes/class/name", t(YangType::kString)},
        {"/openconfig-qos:qos/rdmagw-qos:network-qos/classes/class/state/mtu", t(YangType::kUint32)},
        {"/rdmagw-fabric:fabric/interfaces/interface/name", t(YangType::kString)},
        {"/rdmagw-fabric:fabric/interfaces/interface/priorities/priority/id", t(YangType::kUint8)},
        {"/rdmagw-fabric:fabric/interfaces/interface/priorities/priority/state/paused-ratio",
         t(YangType::kDecimal64, "", 4)},
        {"/rdmagw-fabric:fabric/interfaces/interface/priorities/priority/state/offset", t(YangType::kInt32)},
    };
    for (const auto& [path, type] : leaves) {
      Status st = y.addLeaf(path, type);
      EXPECT_TRUE(st.isOk()) << st.message();
    }
    return y;
  }();
  return yang;
}

constexpr const char* kEth = "/interfaces/interface[name=Ethernet1/1]";

// A JsonTree of `leaves` grouped at `container`, rendered as JSON_IETF.
std::string ietf(const std::string& container, const std::vector<std::pair<std::string, Value>>& leaves) {
  JsonTree jt;
  const Path c = *Path::parse(container);
  for (const auto& [path, value] : leaves) {
    const Path p = *Path::parse(path);
    EXPECT_TRUE(p.hasPrefix(c)) << path;
    jt.add(p.elems(), c.elems().size(), value);
  }
  return jt.renderIetf(tree().find(c), container);
}

std::string scalar(const Value& v, const YangLeafType& type) {
  std::string out;
  return appendIetfScalar(v, type, &out) ? out : "<mismatch>";
}

TEST(IetfEncodingTest, TheWholeTreeQualifiesTopLevelNodesAndEveryModuleChange) {
  const std::string eth = kEth;
  const std::string json = ietf("/", {
      {eth + "/state/mtu", uint64_t{9216}},
      {eth + "/ethernet/state/port-speed", std::string("SPEED_100GB")},
      {eth + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames", uint64_t{7}},
      {"/qos/network-qos/classes/class[name=c-8q-nq3]/state/mtu", uint64_t{9216}},
      {"/fabric/interfaces/interface[name=Ethernet1/1]/priorities/priority[id=3]/state/paused-ratio", 0.25},
  });
  EXPECT_EQ(json,
            "{\"rdmagw-fabric:fabric\":{\"interfaces\":{\"interface\":[{\"name\":\"Ethernet1/1\",\"priorities\":"
            "{\"priority\":[{\"id\":3,\"state\":{\"paused-ratio\":\"0.25\"}}]}}]}},"
            "\"openconfig-interfaces:interfaces\":{\"interface\":[{\"name\":\"Ethernet1/1\","
            "\"openconfig-if-ethernet:ethernet\":{\"rdmagw-interfaces:pfc\":{\"priorities\":{\"priority\":"
            "[{\"id\":3,\"state\":{\"counters\":{\"in-pause-frames\":\"7\"}}}]}},"
            "\"state\":{\"port-speed\":\"openconfig-if-ethernet:SPEED_100GB\"}},"
            "\"state\":{\"mtu\":9216}}]},"
            "\"openconfig-qos:qos\":{\"rdmagw-qos:network-qos\":{\"classes\":{\"class\":[{\"name\":\"c-8q-nq3\","
            "\"state\":{\"mtu\":9216}}]}}}}");
}

TEST(IetfEncodingTest, AValueBelowTheRootQualifiesItsFirstLevelMembers) {
  const std::string eth = kEth;
  EXPECT_EQ(ietf(eth, {{eth + "/state/mtu", uint64_t{1500}},
                       {eth + "/state/type", std::string("ethernetCsmacd")},
                       {eth + "/ethernet/state/port-speed", std::string("oc-eth:SPEED_25GB")}}),
            "{\"openconfig-if-ethernet:ethernet\":{\"state\":{\"port-speed\":\"openconfig-if-ethernet:SPEED_25GB\"}},"
            "\"openconfig-interfaces:state\":{\"mtu\":1500,\"type\":\"iana-if-type:ethernetCsmacd\"}}");
  // Inside the Ethernet augment: its own members at the top, ours qualified.
  EXPECT_EQ(ietf(eth + "/ethernet", {{eth + "/ethernet/pfc/state/enabled-priorities", uint64_t{8}}}),
            "{\"rdmagw-interfaces:pfc\":{\"state\":{\"enabled-priorities\":8}}}");
  EXPECT_EQ(ietf(eth + "/ethernet/pfc", {{eth + "/ethernet/pfc/state/enabled-priorities", uint64_t{8}}}),
            "{\"rdmagw-interfaces:state\":{\"enabled-priorities\":8}}");
  EXPECT_EQ(ietf("/qos", {{"/qos/network-qos/classes/class[name=c]/state/mtu", uint64_t{9216}}}),
            "{\"rdmagw-qos:network-qos\":{\"classes\":{\"class\":[{\"name\":\"c\",\"state\":{\"mtu\":9216}}]}}}");
  // A list below the value's top: its entries' keys typed, not qualified.
  EXPECT_EQ(ietf("/interfaces", {{eth + "/state/counters/in-octets", uint64_t{1} << 60}}),
            "{\"openconfig-interfaces:interface\":[{\"name\":\"Ethernet1/1\",\"state\":{\"counters\":"
            "{\"in-octets\":\"1152921504606846976\"}}}]}");
}

TEST(IetfEncodingTest, ScalarsByYangType) {
  EXPECT_EQ(scalar(uint64_t{9216}, t(YangType::kUint16)), "9216");
  EXPECT_EQ(scalar(std::string("9216"), t(YangType::kUint16)), "9216");  // digits: nothing lost
  EXPECT_EQ(scalar(9216.0, t(YangType::kUint16)), "9216");
  EXPECT_EQ(scalar(uint64_t{4294967295}, t(YangType::kUint32)), "4294967295");
  EXPECT_EQ(scalar(int64_t{-128}, t(YangType::kInt8)), "-128");
  EXPECT_EQ(scalar(int64_t{-2147483648}, t(YangType::kInt32)), "-2147483648");
  EXPECT_EQ(scalar(uint64_t{18446744073709551615u}, t(YangType::kUint64)), "\"18446744073709551615\"");
  EXPECT_EQ(scalar(int64_t{-5}, t(YangType::kInt64)), "\"-5\"");
  EXPECT_EQ(scalar(uint64_t{5}, t(YangType::kDecimal64, "", 2)), "\"5.0\"");
  EXPECT_EQ(scalar(0.126, t(YangType::kDecimal64, "", 2)), "\"0.13\"");  // rounded to its fraction-digits
  EXPECT_EQ(scalar(1.5, t(YangType::kDecimal64, "", 4)), "\"1.5\"");
  EXPECT_EQ(scalar(1e-7, t(YangType::kDecimal64)), "\"0.0000001\"");  // never an exponent
  EXPECT_EQ(scalar(std::string("0.25"), t(YangType::kDecimal64, "", 4)), "\"0.25\"");
  EXPECT_EQ(scalar(true, t(YangType::kBoolean)), "true");
  EXPECT_EQ(scalar(std::string("false"), t(YangType::kBoolean)), "false");
  EXPECT_EQ(scalar(uint64_t{1}, t(YangType::kBoolean)), "true");
  EXPECT_EQ(scalar(std::string("UP"), t(YangType::kEnumeration)), "\"UP\"");
  EXPECT_EQ(scalar(std::string("sample"), t(YangType::kString)), "\"sample\"");
  EXPECT_EQ(scalar(uint64_t{42}, t(YangType::kString)), "\"42\"");
  EXPECT_EQ(scalar(std::string("ethernetCsmacd"), t(YangType::kIdentityref, "iana-if-type")),
            "\"iana-if-type:ethernetCsmacd\"");
  EXPECT_EQ(scalar(std::string("openconfig-if-ethernet:SPEED_100GB"), t(YangType::kIdentityref, "openconfig-if-ethernet")),
            "\"openconfig-if-ethernet:SPEED_100GB\"");
  // Unknown to the schema: as the store holds it.
  EXPECT_EQ(scalar(uint64_t{7}, t(YangType::kUnknown)), "\"7\"");
  EXPECT_EQ(scalar(2.5, t(YangType::kUnknown)), "2.5");
}

TEST(IetfEncodingTest, ValuesThatDoNotFitTheirTypeAreMismatches) {
  EXPECT_EQ(scalar(std::string("jumbo"), t(YangType::kUint16)), "<mismatch>");
  EXPECT_EQ(scalar(std::string(""), t(YangType::kUint16)), "<mismatch>");
  EXPECT_EQ(scalar(std::string("12 "), t(YangType::kUint16)), "<mismatch>");
  EXPECT_EQ(scalar(uint64_t{70000}, t(YangType::kUint16)), "<mismatch>");
  EXPECT_EQ(scalar(int64_t{-1}, t(YangType::kUint32)), "<mismatch>");
  EXPECT_EQ(scalar(int64_t{128}, t(YangType::kInt8)), "<mismatch>");
  EXPECT_EQ(scalar(1.5, t(YangType::kUint32)), "<mismatch>");
  EXPECT_EQ(scalar(std::nan(""), t(YangType::kUint64)), "<mismatch>");
  EXPECT_EQ(scalar(true, t(YangType::kUint8)), "<mismatch>");
  EXPECT_EQ(scalar(std::string("yes"), t(YangType::kBoolean)), "<mismatch>");
  EXPECT_EQ(scalar(uint64_t{2}, t(YangType::kBoolean)), "<mismatch>");
  EXPECT_EQ(scalar(uint64_t{3}, t(YangType::kEnumeration)), "<mismatch>");
  EXPECT_EQ(scalar(uint64_t{3}, t(YangType::kIdentityref, "iana-if-type")), "<mismatch>");
  EXPECT_EQ(scalar(std::string("ethernetCsmacd"), t(YangType::kIdentityref)), "<mismatch>");
  EXPECT_EQ(scalar(std::numeric_limits<double>::infinity(), t(YangType::kDecimal64, "", 2)), "<mismatch>");
  EXPECT_EQ(scalar(1e17, t(YangType::kDecimal64, "", 2)), "<mismatch>");  // past decimal64's range at 2 digits
  EXPECT_EQ(scalar(std::string("0.125"), t(YangType::kDecimal64, "", 2)), "<mismatch>");
  EXPECT_EQ(scalar(std::string("1e3"), t(YangType::kDecimal64, "", 2)), "<mismatch>");
}

TEST(IetfEncodingTest, AMismatchedLeafIsLeftOutAndCounted) {
  const std::string eth = kEth;
  const uint64_t before = ietfMismatchCount();
  EXPECT_EQ(ietf(eth + "/state", {{eth + "/state/mtu", std::string("jumbo")},
                                  {eth + "/state/oper-status", std::string("UP")}}),
            "{\"openconfig-interfaces:oper-status\":\"UP\"}");
  EXPECT_EQ(ietf(eth + "/state", {{eth + "/state/mtu", std::string("jumbo")}}), "{}");
  EXPECT_EQ(ietfMismatchCount(), before + 2);

  // One leaf alone: setTypedValue refuses it, the caller leaves it out.
  ::gnmi::TypedValue v;
  const YangLeafType u16 = t(YangType::kUint16);
  EXPECT_FALSE(setTypedValue(std::string("jumbo"), ::gnmi::JSON_IETF, &v, &u16));
  EXPECT_EQ(v.value_case(), ::gnmi::TypedValue::VALUE_NOT_SET);
  // JSON and PROTO carry it as the store holds it.
  EXPECT_TRUE(setTypedValue(std::string("jumbo"), ::gnmi::JSON, &v, &u16));
  EXPECT_EQ(v.json_val(), "\"jumbo\"");
  EXPECT_TRUE(setTypedValue(uint64_t{9216}, ::gnmi::JSON_IETF, &v, &u16));
  EXPECT_EQ(v.json_ietf_val(), "9216");
}

TEST(IetfEncodingTest, AKeyThatDoesNotFitIsWrittenAsTextAndCounted) {
  const uint64_t before = ietfMismatchCount();
  const std::string eth = kEth;
  EXPECT_EQ(ietf(eth + "/ethernet/pfc", {{eth + "/ethernet/pfc/priorities/priority[id=x]/state/counters/in-pause-frames",
                                          uint64_t{1}}}),
            "{\"rdmagw-interfaces:priorities\":{\"priority\":[{\"id\":\"x\",\"state\":{\"counters\":"
            "{\"in-pause-frames\":\"1\"}}}]}}");
  EXPECT_EQ(ietfMismatchCount(), before + 1);
}

TEST(IetfEncodingTest, AKeyHeldAsALeafTooIsWrittenOnce) {
  const std::string eth = kEth;
  EXPECT_EQ(ietf("/interfaces", {{eth + "/name", std::string("Ethernet1/1")}, {eth + "/state/mtu", uint64_t{9216}}}),
            "{\"openconfig-interfaces:interface\":[{\"name\":\"Ethernet1/1\",\"state\":{\"mtu\":9216}}]}");
}

TEST(IetfEncodingTest, NodesTheModulesDoNotDefineAreLeftOut) {
  const std::string eth = kEth;
  EXPECT_EQ(ietf(eth + "/state", {{eth + "/state/mtu", uint64_t{9216}},
                                  {eth + "/state/driver-private/rx-xoff", uint64_t{1}},
                                  {eth + "/state/vendor[id=1]/x", uint64_t{1}},
                                  {eth + "/state/mtu-bogus", uint64_t{1}}}),
            "{\"openconfig-interfaces:mtu\":9216}");
  EXPECT_EQ(ietf("/", {{"/nosuch/tree", uint64_t{1}}, {eth + "/state/mtu", uint64_t{1500}}}),
            "{\"openconfig-interfaces:interfaces\":{\"interface\":[{\"name\":\"Ethernet1/1\",\"state\":{\"mtu\":1500}}]}}");
  // A value where the modules have a container.
  EXPECT_EQ(ietf(eth, {{eth + "/state", uint64_t{1}}}), "{}");
}

TEST(IetfEncodingTest, TheTreeRefusesPathsItCannotPlace) {
  YangTree y;
  EXPECT_FALSE(y.addLeaf("interfaces/interface/name", t(YangType::kString)).isOk());
  EXPECT_FALSE(y.addLeaf("/interfaces/interface/name", t(YangType::kString)).isOk());  // no module at the top
  ASSERT_TRUE(y.addLeaf("/a:x/y/z", t(YangType::kString)).isOk());
  EXPECT_FALSE(y.addLeaf("/a:x/b:y/w", t(YangType::kString)).isOk());  // y is a's, not b's
  EXPECT_FALSE(y.addLeaf("/a:x/y/z/below", t(YangType::kString)).isOk());
  EXPECT_FALSE(y.addLeaf("/a:x/y", t(YangType::kString)).isOk());
  ASSERT_TRUE(y.addLeaf("/a:x/b:w/v", t(YangType::kUint8)).isOk());
  const Path p = *Path::parse("/x/w[k=1]/v");
  const YangNode* v = y.find(p);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->module, "b");
  EXPECT_EQ(v->leaf.type, YangType::kUint8);
  EXPECT_EQ(y.find(*Path::parse("/x/nosuch")), nullptr);
  EXPECT_EQ(yangTypeFromName("uint16"), YangType::kUint16);
  EXPECT_EQ(yangTypeFromName("counter64"), YangType::kUnknown);
}

TEST(IetfEncodingTest, TheSchemaTreeHoldsEveryLeafAndListKey) {
  const YangTree& yang = YangTree::schema();
  for (const LeafSchema& leaf : SchemaTable::instance().leaves()) {
    const YangNode* n = yang.find(*Path::parse(leaf.path));
    ASSERT_NE(n, nullptr) << leaf.path;
    EXPECT_TRUE(n->is_leaf) << leaf.path;
    EXPECT_EQ(n->module, leaf.yang_module) << leaf.path;
    EXPECT_EQ(yangTypeName(n->leaf.type), leaf.yang_type) << leaf.path;
  }
  for (const ListSchema& list : SchemaTable::instance().lists()) {
    const YangNode* n = yang.find(*Path::parse(std::string(list.path) + "/" + std::string(list.key)));
    ASSERT_NE(n, nullptr) << list.path;
    EXPECT_EQ(yangTypeName(n->leaf.type), list.key_type) << list.path;
  }
  // Augments as the schema places them.
  EXPECT_EQ(yang.find(*Path::parse("/interfaces/interface/ethernet"))->module, "openconfig-if-ethernet");
  EXPECT_EQ(yang.find(*Path::parse("/interfaces/interface/ethernet/pfc"))->module, "rdmagw-interfaces");
  EXPECT_EQ(yang.find(*Path::parse("/qos/network-qos"))->module, "rdmagw-qos");
  EXPECT_EQ(yang.find(*Path::parse("/interfaces/interface/state/mtu"))->leaf.type, YangType::kUint16);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
