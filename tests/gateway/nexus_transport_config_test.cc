// A Nexus's transports in the configuration: NX-API alone, an order of
// preference with gNMI first, and every way of getting them wrong.

#include <gtest/gtest.h>

#include "gateway/config/config.h"
#include "gateway/config/target_config.h"

namespace rdmagw::gateway {
namespace {

using southbound::nxapi::Dialect;

TEST(NexusTransportConfigTest, NxapiAloneTakesTheTargetsAddressAndCredentials) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    transport: nxapi
    address: 192.0.2.10
    credentials: {username: admin, password_file: /etc/rdmagw/nexus.pw}
    nxapi:
      port: 8443
      dialect: jsonrpc
      ca_file: /etc/rdmagw/switch-ca.pem
      pinned_public_key: "sha256//AAAA"
      session_lifetime: 5m
)";
  auto cfg = parseConfig(text, "nx.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  const TargetConfig& t = cfg->targets[0];
  EXPECT_EQ(t.transport, "nxapi");
  EXPECT_FALSE(isGnmiSwitch(t.kind, t.transport)) << "NX-API is polled, not streamed";
  EXPECT_EQ(t.nxapi.host, "192.0.2.10");
  EXPECT_EQ(t.nxapi.port, 8443);
  EXPECT_EQ(t.nxapi.url(), "https://192.0.2.10:8443/ins");
  EXPECT_EQ(t.nxapi.username, "admin");
  EXPECT_EQ(t.nxapi.password_file, "/etc/rdmagw/nexus.pw");
  EXPECT_EQ(t.nxapi.dialect, Dialect::kJsonRpc);
  EXPECT_EQ(t.nxapi.ca_file, "/etc/rdmagw/switch-ca.pem");
  EXPECT_EQ(t.nxapi.pinned_public_key, "sha256//AAAA");
  EXPECT_FALSE(t.nxapi.insecure) << "verification is the default";
  EXPECT_EQ(t.nxapi.session_lifetime.count(), 300000);
}

TEST(NexusTransportConfigTest, AListIsAnOrderOfPreferenceWithGnmiFirst) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    transport: [gnmi, nxapi, ssh]
    address: 192.0.2.10
    credentials: {username: admin, password_env: NX_PW}
)";
  auto cfg = parseConfig(text, "order.yaml");
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  const TargetConfig& t = cfg->targets[0];
  EXPECT_EQ(t.transport, "gnmi,nxapi,ssh");
  EXPECT_EQ(nexusTransports(t.transport), (std::vector<std::string>{"gnmi", "nxapi", "ssh"}));
  EXPECT_TRUE(isGnmiSwitch(t.kind, t.transport));
  EXPECT_EQ(t.gnmi.address, "192.0.2.10:50051");
  EXPECT_EQ(t.nxapi.port, 443);
  EXPECT_EQ(t.ssh.port, 22);
  EXPECT_EQ(nexusTransports("auto"), (std::vector<std::string>{"gnmi", "ssh"}));
}

TEST(NexusTransportConfigTest, WrongOrdersAndBlocksSayWhy) {
  const char* text = R"(targets:
  - name: a
    kind: nexus
    transport: [nxapi, gnmi]
    address: 192.0.2.1
    credentials: {username: admin, password_env: P}
  - name: b
    kind: nexus
    transport: [ssh, ssh]
    address: 192.0.2.2
    credentials: {username: admin, password_env: P}
  - name: c
    kind: nexus
    transport: nxapi
    address: 192.0.2.3
    credentials: {username: admin, key_file: /k}
  - name: d
    kind: nexus
    transport: ssh
    address: 192.0.2.4
    credentials: {username: admin, key_file: /k}
    nxapi: {port: 443}
  - name: e
    kind: nexus
    transport: nxapi
    address: 192.0.2.5
    credentials: {username: admin, password_env: P}
    nxapi: {dialect: xml, insecure: true, ca_file: /ca.pem, colour: red}
  - name: f
    kind: esxi
    address: 192.0.2.6
    credentials: {username: root, key_file: /k}
    nxapi: {port: 443}
  - name: g
    kind: nexus
    transport: []
    address: 192.0.2.7
)";
  auto cfg = parseConfig(text, "bad.yaml");
  ASSERT_FALSE(cfg.isOk());
  const std::string m = cfg.status().message();
  EXPECT_NE(m.find("targets[0].transport: nexus supports transport auto, gnmi, nxapi or ssh"), std::string::npos) << m;
  EXPECT_NE(m.find("gnmi only first"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[1].transport: nexus supports"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[2].credentials: transport nxapi logs in with a password"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[3].nxapi: only for a nexus with transport nxapi"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[4].nxapi.dialect: unknown dialect \"xml\" (ins_api or jsonrpc)"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[4].nxapi.colour: unknown key"), std::string::npos) << m;
  EXPECT_NE(m.find("insecure: contradicts ca_file"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[5].nxapi: only for a nexus"), std::string::npos) << m;
  EXPECT_NE(m.find("targets[6].transport: an empty list names no transport"), std::string::npos) << m;
}

TEST(NexusTransportConfigTest, ChangingTheNxapiBlockRestartsTheTarget) {
  const char* text = R"(targets:
  - name: leaf1
    kind: nexus
    transport: nxapi
    address: 192.0.2.10
    credentials: {username: admin, password_env: P}
)";
  auto a = parseConfig(text, "a.yaml");
  ASSERT_TRUE(a.isOk()) << a.status().message();
  TargetConfig b = a->targets[0];
  EXPECT_TRUE(sameTargetSettings(a->targets[0], b));
  b.nxapi.pinned_public_key = "sha256//BBBB";
  EXPECT_FALSE(sameTargetSettings(a->targets[0], b)) << "a new pin must reach the running source";
}

}  // namespace
}  // namespace rdmagw::gateway
