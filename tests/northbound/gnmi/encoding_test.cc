// Store values as TypedValues and JSON subtrees.

#include <gtest/gtest.h>

#include "northbound/gnmi/json_tree.h"
#include "northbound/gnmi/typed_value.h"

namespace rdmagw::northbound::gnmi {
namespace {

::gnmi::TypedValue tv(const Value& v, ::gnmi::Encoding e) {
  ::gnmi::TypedValue out;
  setTypedValue(v, e, &out);
  return out;
}

TEST(EncodingTest, ProtoScalars) {
  EXPECT_EQ(tv(uint64_t{1} << 63, ::gnmi::PROTO).uint_val(), uint64_t{1} << 63);
  EXPECT_EQ(tv(int64_t{-5}, ::gnmi::PROTO).int_val(), -5);
  EXPECT_EQ(tv(2.5, ::gnmi::PROTO).double_val(), 2.5);
  EXPECT_TRUE(tv(true, ::gnmi::PROTO).bool_val());
  EXPECT_EQ(tv(std::string("ACTIVE"), ::gnmi::PROTO).string_val(), "ACTIVE");
}

TEST(EncodingTest, JsonAndJsonIetfScalars) {
  EXPECT_EQ(tv(uint64_t{1152921504606846983}, ::gnmi::JSON).json_val(), "1152921504606846983");
  EXPECT_EQ(tv(uint64_t{1152921504606846983}, ::gnmi::JSON_IETF).json_ietf_val(), "\"1152921504606846983\"");
  EXPECT_EQ(tv(int64_t{-5}, ::gnmi::JSON_IETF).json_ietf_val(), "\"-5\"");
  EXPECT_EQ(tv(2.5, ::gnmi::JSON_IETF).json_ietf_val(), "2.5");
  EXPECT_EQ(tv(std::string("a\"b\\c\n"), ::gnmi::JSON).json_val(), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(tv(false, ::gnmi::JSON).json_val(), "false");
}

TEST(EncodingTest, ServedEncodings) {
  EXPECT_TRUE(servedEncoding(::gnmi::PROTO));
  EXPECT_TRUE(servedEncoding(::gnmi::JSON));
  EXPECT_TRUE(servedEncoding(::gnmi::JSON_IETF));
  EXPECT_FALSE(servedEncoding(::gnmi::BYTES));
  EXPECT_FALSE(servedEncoding(::gnmi::ASCII));
  EXPECT_FALSE(servedEncoding(42));
}

TEST(EncodingTest, JsonTreeGroupsContainersAndLists) {
  JsonTree tree;
  Path a = *Path::parse("/interfaces/interface[name=eth1/1]/state/counters/in-octets");
  Path b = *Path::parse("/interfaces/interface[name=eth1/1]/state/counters/out-octets");
  Path c = *Path::parse("/interfaces/interface[name=eth1/2]/state/counters/in-octets");
  tree.add(a.elems(), 1, Value(uint64_t{1}));
  tree.add(b.elems(), 1, Value(uint64_t{2}));
  tree.add(c.elems(), 1, Value(uint64_t{3}));
  EXPECT_EQ(tree.renderJson(),
            "{\"interface\":[{\"name\":\"eth1/1\",\"state\":{\"counters\":{\"in-octets\":1,\"out-octets\":2}}},"
            "{\"name\":\"eth1/2\",\"state\":{\"counters\":{\"in-octets\":3}}}]}");
  // A container the YANG modules do not define has nothing JSON_IETF can write.
  EXPECT_EQ(tree.renderIetf(nullptr, "/interfaces"), "{}");
}

// Every top-level tree of the schema is qualified with the module the
// schema says owns it, the fabric and LLDP trees included.
TEST(EncodingTest, JsonIetfQualifiesEveryTopLevelTreeOfTheSchema) {
  JsonTree tree;
  tree.add(Path::parse("/fabric/interfaces/interface[name=e]/dcb/state/consistency")->elems(), 0, Value(std::string("consistent")));
  tree.add(Path::parse("/lldp/interfaces/interface[name=e]/neighbors/neighbor[id=n]/state/system-name")->elems(), 0,
           Value(std::string("leaf01")));
  const std::string json = tree.renderIetf(&YangTree::schema().root(), "/");
  EXPECT_NE(json.find("\"rdmagw-fabric:fabric\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"openconfig-lldp:lldp\":"), std::string::npos) << json;
  const YangNode& root = YangTree::schema().root();
  EXPECT_EQ(root.child("hypervisor")->module, "rdmagw-hypervisor-nic");
  EXPECT_EQ(root.child("qos")->module, "openconfig-qos");
  EXPECT_EQ(root.child("nothing"), nullptr);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
