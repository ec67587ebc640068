// TLS, mutual TLS, users with hashed passwords, the plain-text rules and
// reflection, with the independent client. The PKI comes from the openssl
// CLI (sim/gnmi/gnmi_tls.h).

#include <cstdlib>
#include <filesystem>

#include "northbound/gnmi/user_auth.h"
#include "sim/gnmi/gnmi_tls.h"
#include "tests/northbound/gnmi/server_fixture.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {

class GnmiSecurityTest : public GnmiServerFixture {
 protected:
  void SetUp() override {
    GnmiServerFixture::SetUp();
    Status st = sim::generateGnmiTlsFiles(&pki_);
    ASSERT_TRUE(st.isOk()) << st.toString();
  }
  void TearDown() override {
    GnmiServerFixture::TearDown();
    std::error_code ec;
    std::filesystem::remove_all(pki_.dir, ec);
  }
  GnmiServerConfig tlsConfig() {
    GnmiServerConfig c = plainConfig();
    c.insecure = false;
    c.tls_cert = pki_.server_cert;
    c.tls_key = pki_.server_key;
    return c;
  }
  std::string caps(const std::string& extra) { return last(run(R"({"rpc": "caps")" + extra + "}")); }
  std::string ca() const { return R"(, "ca": ")" + pki_.ca_cert + "\""; }
  std::string clientCert() const {
    return R"(, "cert": ")" + pki_.client_cert + R"(", "key": ")" + pki_.client_key + "\"";
  }
  sim::GnmiTlsFiles pki_;
};

TEST_F(GnmiSecurityTest, Tls) {
  start(tlsConfig());
  EXPECT_EQ(caps(ca()), "STATUS OK");
  EXPECT_EQ(caps("").rfind("STATUS UNAVAILABLE", 0), 0u);  // plain text to a TLS port
  Lines out = run(R"({"rpc": "get", "target": "leaf01", "paths": [")" + kLeafIn1 + "\"]" + ca() + "}");
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafIn1 + " uint_val 11", "STATUS OK"}));
}

TEST_F(GnmiSecurityTest, MutualTls) {
  GnmiServerConfig c = tlsConfig();
  c.tls_client_ca = pki_.ca_cert;
  start(c);
  EXPECT_EQ(caps(ca() + clientCert()), "STATUS OK");
  EXPECT_EQ(caps(ca()).rfind("STATUS UNAVAILABLE", 0), 0u);  // no client certificate
  EXPECT_EQ(caps(ca() + R"(, "cert": ")" + pki_.untrusted_client_cert + R"(", "key": ")" +
                 pki_.untrusted_client_key + "\"").rfind("STATUS UNAVAILABLE", 0), 0u);
}

TEST_F(GnmiSecurityTest, UsersWithHashedPasswords) {
  testing::TempDir dir("rdmagw-gnmi-users");
  ASSERT_TRUE(testing::writeFile(dir.file("users"), "# ops\nops:" + hashPassword("Corr3ct-horse", 20000) + "\n"));
  GnmiServerConfig c = tlsConfig();
  c.users_file = dir.file("users");
  start(c);
  const std::string good = ca() + R"(, "user": "ops", "pass": "Corr3ct-horse")";
  const std::string bad = ca() + R"(, "user": "ops", "pass": "wrong-horse")";
  EXPECT_EQ(caps(good), "STATUS OK");
  EXPECT_EQ(caps(bad), "STATUS UNAUTHENTICATED authentication failed");
  EXPECT_EQ(caps(ca()), "STATUS UNAUTHENTICATED authentication failed");
  EXPECT_EQ(caps(ca() + R"(, "user": "root", "pass": "Corr3ct-horse")"), "STATUS UNAUTHENTICATED authentication failed");
  EXPECT_EQ(last(run(R"({"rpc": "get", "paths": ["/"])" + bad + "}")), "STATUS UNAUTHENTICATED authentication failed");
  EXPECT_EQ(last(run(R"({"rpc": "sub", "mode": "ONCE", "subs": [{"path": "/"}])" + bad + "}")),
            "STATUS UNAUTHENTICATED authentication failed");
  Lines out = run(R"({"rpc": "sub", "mode": "ONCE", "target": "leaf01", "subs": [{"path": ")" + kLeafQueue + "\"}]" + good + "}");
  EXPECT_EQ(out, (Lines{"N leaf01 " + ts(kTs2), "U " + kLeafQueue + " uint_val 13", "SYNC", "STATUS OK"}));
  EXPECT_EQ(server_->stats().subscribe_errors[16].load(), 1u);  // 16: UNAUTHENTICATED
}

TEST_F(GnmiSecurityTest, UsersFromTheEnvironment) {
  ::setenv("RDMAGW_TEST_GNMI_USERS_SRV", ("viewer:" + hashPassword("pw", 1000)).c_str(), 1);
  GnmiServerConfig c = plainConfig();
  c.users_env = "RDMAGW_TEST_GNMI_USERS_SRV";
  start(c);
  EXPECT_EQ(caps(R"(, "user": "viewer", "pass": "pw")"), "STATUS OK");
  EXPECT_EQ(caps(R"(, "user": "viewer", "pass": "pW")"), "STATUS UNAUTHENTICATED authentication failed");
}

TEST_F(GnmiSecurityTest, PlainTextOnlyWhenAskedAndOnLoopback) {
  GnmiServerConfig c = plainConfig();
  c.insecure = false;
  Status st = GnmiServer(store_, c).start();
  EXPECT_NE(st.message().find("insecure: true"), std::string::npos) << st.toString();
  c.insecure = true;
  c.listen = "0.0.0.0:0";
  st = GnmiServer(store_, c).start();
  EXPECT_NE(st.message().find("plain text (insecure: true) listens on loopback only"), std::string::npos) << st.toString();
  c.insecure_remote = true;
  GnmiServer remote(store_, c);
  EXPECT_TRUE(remote.start().isOk());
  c = tlsConfig();
  c.tls_key = "/nonexistent/server.key";
  st = GnmiServer(store_, c).start();
  EXPECT_EQ(st.message(), "tls.key: cannot read /nonexistent/server.key");
}

TEST_F(GnmiSecurityTest, ReflectionListsTheService) {
  start();
  Lines out = run(R"({"rpc": "reflect"})");
  EXPECT_EQ(out, (Lines{"REFLECT gnmi.gNMI", "STATUS OK"}));
}

}  // namespace
}  // namespace rdmagw::testing
