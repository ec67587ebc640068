// Capabilities, Get and Set over the wire, with an independent client.

#include "models/schema.h"
#include "tests/northbound/gnmi/server_fixture.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {



class GnmiGetTest : public GnmiServerFixture {};

TEST_F(GnmiGetTest, Capabilities) {
  start();
  Lines out = run(R"({"rpc": "caps"})");
  ASSERT_EQ(out.size(), 2u) << ::testing::PrintToString(out);
  EXPECT_EQ(out[0].rfind("CAPS 0.10.0 JSON,JSON_IETF,PROTO ", 0), 0u) << out[0];
  // Every module of the schema, at the version it states.
  for (const YangModule& m : SchemaTable::instance().modules()) {
    EXPECT_NE(out[0].find(std::string(m.name) + "@" + std::string(m.version)), std::string::npos) << m.name;
  }
  EXPECT_NE(out[0].find("openconfig-interfaces@3.8.1"), std::string::npos) << out[0];  // the release we validate against
  EXPECT_NE(out[0].find("openconfig-lldp@1.1.0"), std::string::npos);
  EXPECT_EQ(out[1], "STATUS OK");
}

TEST_F(GnmiGetTest, LeavesInProto) {
  start();
  Lines out = run(R"({"rpc": "get", "target": "host01", "encoding": "PROTO",
    "paths": [")" + kHostXmit + R"(", ")" + kHostFw + R"(", ")" + kHostPortRate + R"("]})");
  EXPECT_EQ(out, (Lines{"N host01 " + ts(kTs1), "U " + kHostXmit + " uint_val 1152921504606846983",
                        "N host01 " + ts(kTs1), "U " + kHostFw + " string_val 28.39.1002",
                        "N host01 " + ts(kTs1), "U " + kHostPortRate + " double_val 100000000000.0", "STATUS OK"}));
}

TEST_F(GnmiGetTest, LeafAndContainerInJsonAndJsonIetf) {
  start();
  Lines out = run(R"({"rpc": "get", "target": "host01", "encoding": "JSON", "paths": [")" + kHostXmit + R"("]})");
  EXPECT_EQ(out, (Lines{"N host01 " + ts(kTs1), "U " + kHostXmit + " json_val 1152921504606846983", "STATUS OK"}));
  out = run(R"({"rpc": "get", "target": "host01", "encoding": "JSON_IETF", "paths": [")" + kHostXmit + R"("]})");
  EXPECT_EQ(out[1], "U " + kHostXmit + " json_ietf_val \"1152921504606846983\"");
  out = run(R"({"rpc": "get", "target": "leaf01", "encoding": "JSON", "paths": ["/interfaces"]})");
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2),
                        "U /interfaces json_val {\"interface\":[{\"name\":\"eth1/1\",\"state\":{\"counters\":"
                        "{\"in-octets\":11}}},{\"name\":\"eth1/2\",\"state\":{\"counters\":{\"in-octets\":12}}}]}",
                        "STATUS OK"}));
  // A wildcard container: one grouped update per instance.
  out = run(R"({"rpc": "get", "target": "leaf01", "encoding": "JSON_IETF",
               "paths": ["/interfaces/interface[name=*]/state"]})");
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2),
                        "U /interfaces/interface[name=eth1/1]/state json_ietf_val {\"openconfig-interfaces:counters\":{\"in-octets\":\"11\"}}",
                        "U /interfaces/interface[name=eth1/2]/state json_ietf_val {\"openconfig-interfaces:counters\":{\"in-octets\":\"12\"}}",
                        "STATUS OK"}));
}

TEST_F(GnmiGetTest, WildcardsAcrossTargets) {
  start();
  Lines out = run(R"({"rpc": "get", "target": "*", "paths": ["/interfaces/interface[name=*]/state/counters/in-octets"]})");
  EXPECT_EQ(out, (Lines{"N host01 " + ts(kTs1), "U " + kHostIfIn + " uint_val 100",
                        "N host02 " + ts(kTs1), "U " + kHostIfIn + " uint_val 1000",
                        "N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "U " + kLeafIn2 + " uint_val 12",
                        "STATUS OK"}));
  out = run(R"({"rpc": "get", "target": "*", "paths": ["openconfig:/.../transmit-pkts", "rdmagw:/rdma/*/device/ports/port[port-num=1]/state/state"]})");
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafQueue + " uint_val 13",
                        "N host01 " + ts(kTs1), "U " + kHostPortState + " string_val ACTIVE",
                        "N host02 " + ts(kTs1), "U " + kHostPortState + " string_val ACTIVE", "STATUS OK"}));
  // An empty target means every target too; a prefix joins the path.
  out = run(R"({"rpc": "get", "prefix": "/qos/interfaces", "paths": ["/interface/output"]})");
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafQueue + " uint_val 13", "STATUS OK"}));
}

TEST_F(GnmiGetTest, DataTypes) {
  start();
  Lines out = run(R"({"rpc": "get", "target": "host02", "type": "CONFIG", "paths": [")" + kHostFw + R"("]})");
  EXPECT_EQ(out, (Lines{"N host02 " + ts(kTs1), "STATUS OK"}));
  for (const char* type : {"STATE", "OPERATIONAL"}) {
    out = run(R"({"rpc": "get", "target": "host02", "type": ")" + std::string(type) + R"(", "paths": [")" + kHostFw + R"("]})");
    EXPECT_EQ(out, (Lines{"N host02 " + ts(kTs1), "U " + kHostFw + " string_val 28.39.1002", "STATUS OK"})) << type;
  }
}

TEST_F(GnmiGetTest, ErrorsNameWhatWasWrong) {
  start();
  EXPECT_EQ(last(run(R"({"rpc": "get", "target": "host01", "paths": ["/interfaces/interface[name=]"]})")),
            "STATUS INVALID_ARGUMENT path[0]: path element 1 \"interface\" key \"name\" has an empty value (use \"*\" for any)");
  EXPECT_EQ(last(run(R"({"rpc": "get", "paths": ["device:/System/intf-items"]})")),
            "STATUS INVALID_ARGUMENT path[0]: unknown origin \"device\"; this server serves \"openconfig\" (or empty) and \"rdmagw\"");
  EXPECT_EQ(last(run(R"({"rpc": "get", "target": "host01", "paths": ["/qos"]})")),
            "STATUS NOT_FOUND path /qos matches no data on target \"host01\"");
  EXPECT_EQ(last(run(R"({"rpc": "get", "target": "nosuch", "paths": ["/interfaces"]})")),
            "STATUS NOT_FOUND target \"nosuch\" is not known to this gateway");
  EXPECT_EQ(last(run(R"({"rpc": "get", "encoding": "ASCII", "paths": ["/interfaces"]})")),
            "STATUS UNIMPLEMENTED encoding ASCII is not served; use PROTO, JSON or JSON_IETF");
  EXPECT_EQ(last(run(R"({"rpc": "set"})")),
            "STATUS UNIMPLEMENTED Set is not implemented: this gateway serves telemetry read-only");
  // gRPC codes: 5 NOT_FOUND, 3 INVALID_ARGUMENT.
  EXPECT_EQ(server_->stats().get_errors[5].load(), 2u);
  EXPECT_EQ(server_->stats().get_errors[3].load(), 2u);
}

}  // namespace
}  // namespace rdmagw::testing
