// The simulated NX-API driven by the real curl CLI over TLS: both dialects,
// the bodies against the leaf's rendered `| json` files, every error shape,
// cookie sessions and their limit, the faults, restart on the same port,
// certificate checking and keep-alive. Waits are generous; no durations
// are asserted.

#include "sim/nxapi/nxapi_server.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "sim/device_shell.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "tests/sim/nxapi/nxapi_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::sim;  // the helpers speak the vocabulary of the code they test
namespace {

using nlohmann::json;
constexpr const char* kPassword = "nx-secret";

class NxapiServerTest : public ::testing::Test {
 protected:
  // openssl runs once for the suite: a CA and the server's certificate.
  static void SetUpTestSuite() {
    pki_ = new GnmiTlsFiles;
    ASSERT_TRUE(generateGnmiTlsFiles(pki_).isOk());
    other_ca_ = new GnmiCa;
    ASSERT_TRUE(generateGnmiCa(other_ca_).isOk());
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(pki_->dir, ec);
    std::filesystem::remove_all(other_ca_->dir, ec);
    delete pki_;
    delete other_ca_;
  }
  void SetUp() override {
    FabricConfig c;
    c.hosts = 2;
    c.esxi_hosts = 0;
    Fabric f(c);
    f.step();
    ASSERT_TRUE(TreeWriter(dir_.path()).write(f).isOk());
    device_dir_ = dir_.file(f.switches()[0].name);
  }
  NxapiServerOptions options() const {
    NxapiServerOptions o;
    o.device_dir = device_dir_;
    o.cert_file = pki_->server_cert;
    o.key_file = pki_->server_key;
    o.password = kPassword;
    return o;
  }
  void startServer(NxapiServerOptions o) {
    server_ = std::make_unique<NxapiServer>(o);
    ASSERT_TRUE(server_->start().isOk());
    ASSERT_GT(server_->port(), 0);
  }
  CurlRequest request(const std::string& body, const std::string& type = "application/json",
                      const NxapiServer* server = nullptr) const {
    CurlRequest r;
    r.url = (server != nullptr ? server : server_.get())->url();
    r.body = body;
    r.content_type = type;
    r.user = "admin";
    r.password = kPassword;
    r.ca_file = pki_->ca_cert;
    return r;
  }
  CurlResult post(const CurlRequest& r) const { return curlPost(scratch_, r); }
  json jsonFile(const std::string& command) const {
    const ShellResult r = runNxos(device_dir_, command);
    EXPECT_EQ(r.exit_code, 0) << command;
    return json::parse(r.out);
  }

  static GnmiTlsFiles* pki_;
  static GnmiCa* other_ca_;
  TempDir dir_{"rdmagw-nxapi-tree"};
  TempDir scratch_{"rdmagw-nxapi-curl"};
  std::string device_dir_;
  std::unique_ptr<NxapiServer> server_;
};
GnmiTlsFiles* NxapiServerTest::pki_ = nullptr;
GnmiCa* NxapiServerTest::other_ca_ = nullptr;

TEST_F(NxapiServerTest, InsApiOneCommandAnswersTheJsonFileAsAnObject) {
  startServer(options());
  const CurlResult r = post(request(insApi("cli_show", "show interface")));
  ASSERT_EQ(r.exit_code, 0) << r.body;
  ASSERT_EQ(r.http, std::vector<int>{200});
  const json j = r.json();
  ASSERT_FALSE(j.is_discarded()) << r.body;
  EXPECT_EQ(j["ins_api"]["type"], "cli_show");
  EXPECT_EQ(j["ins_api"]["sid"], "eoc");
  const json& out = j["ins_api"]["outputs"]["output"];
  ASSERT_TRUE(out.is_object());
  EXPECT_EQ(out["code"], "200");  // a string, as NX-API sends it
  EXPECT_EQ(out["msg"], "Success");
  EXPECT_EQ(out["input"], "show interface");
  EXPECT_EQ(out["body"], jsonFile("show interface | json"));
  EXPECT_EQ(server_->counters().commands, 1u);
}

TEST_F(NxapiServerTest, InsApiSeveralCommandsAnswerAListInOrder) {
  startServer(options());
  const CurlResult r = post(request(insApi("cli_show", "show interface ;sh lldp neighbors detail ;show bogus")));
  ASSERT_EQ(r.http, std::vector<int>{200});  // per-command errors keep HTTP 200
  const json out = r.json()["ins_api"]["outputs"]["output"];
  ASSERT_TRUE(out.is_array()) << r.body;
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]["body"], jsonFile("show interface | json"));
  EXPECT_EQ(out[1]["input"], "sh lldp neighbors detail");
  EXPECT_EQ(out[1]["body"], jsonFile("show lldp neighbors detail | json"));
  EXPECT_EQ(out[2]["code"], "400");
  EXPECT_EQ(server_->counters().commands, 3u);
}

TEST_F(NxapiServerTest, InsApiAsciiAnswersTheCliText) {
  startServer(options());
  const CurlResult r = post(request(insApi("cli_show_ascii", "show interface counters errors")));
  ASSERT_EQ(r.http, std::vector<int>{200});
  const json out = r.json()["ins_api"]["outputs"]["output"];
  EXPECT_EQ(r.json()["ins_api"]["type"], "cli_show_ascii");
  EXPECT_EQ(out["code"], "200");
  ASSERT_TRUE(out["body"].is_string());
  EXPECT_EQ(out["body"], runNxos(device_dir_, "show interface counters errors").out);
}

TEST_F(NxapiServerTest, InsApiPerCommandErrors) {
  startServer(options());
  server_->refuseJsonFor("sh int");
  const CurlResult r = post(
      request(insApi("cli_show", "show bogus ;show interface counters errors ;show interface | json ;show interface")));
  ASSERT_EQ(r.http, std::vector<int>{200});
  const json out = r.json()["ins_api"]["outputs"]["output"];
  ASSERT_EQ(out.size(), 4u) << r.body;
  EXPECT_EQ(out[0]["code"], "400");
  EXPECT_EQ(out[0]["msg"], "Input CLI command error");
  EXPECT_NE(out[0]["clierror"].get<std::string>().find("% Invalid command"), std::string::npos);
  EXPECT_FALSE(out[0].contains("body"));
  EXPECT_EQ(out[1]["code"], "501");
  EXPECT_EQ(out[1]["msg"], "Structured output unsupported");
  EXPECT_EQ(out[2]["code"], "501");
  EXPECT_EQ(out[2]["msg"], "Pipe is not allowed for this message type");
  EXPECT_EQ(out[3]["code"], "501");  // refuseJsonFor, given abbreviated
  EXPECT_EQ(out[3]["msg"], "Structured output unsupported");
}

TEST_F(NxapiServerTest, JsonRpcSingleCallAnswersAnObject) {
  startServer(options());
  const CurlResult r = post(request(rpcCall("cli", "show interface", 7), "application/json-rpc"));
  ASSERT_EQ(r.http, std::vector<int>{200});
  const json j = r.json();
  ASSERT_TRUE(j.is_object()) << r.body;
  EXPECT_EQ(j["jsonrpc"], "2.0");
  EXPECT_EQ(j["id"], 7);
  EXPECT_EQ(j["result"]["body"], jsonFile("show interface | json"));
}

TEST_F(NxapiServerTest, JsonRpcBatchAnswersAnArrayWithErrorsAndStatus500) {
  startServer(options());
  const CurlResult ok = post(
      request(rpcBatch({rpcCall("cli", "show lldp neighbors detail", 1), rpcCall("cli_ascii", "show interface", 2)}),
              "application/json-rpc"));
  ASSERT_EQ(ok.http, std::vector<int>{200});
  const json a = ok.json();
  ASSERT_TRUE(a.is_array()) << ok.body;
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0]["result"]["body"], jsonFile("show lldp neighbors detail | json"));
  EXPECT_EQ(a[1]["id"], 2);
  EXPECT_EQ(a[1]["result"]["msg"], runNxos(device_dir_, "show interface").out);

  const CurlResult bad = post(request(rpcBatch({rpcCall("cli", "show interface", 1), rpcCall("cli", "show bogus", 2),
                                                rpcCall("cli", "show interface counters errors", 3)}),
                                      "application/json-rpc"));
  EXPECT_EQ(bad.http, std::vector<int>{500});
  const json b = bad.json();
  ASSERT_EQ(b.size(), 3u) << bad.body;
  EXPECT_TRUE(b[0].contains("result"));
  EXPECT_EQ(b[1]["error"]["code"], -32602);
  EXPECT_EQ(b[1]["error"]["message"], "Invalid params");
  EXPECT_NE(b[1]["error"]["data"]["msg"].get<std::string>().find("% Invalid command"), std::string::npos);
  EXPECT_EQ(b[1]["id"], 2);
  EXPECT_EQ(b[2]["error"]["code"], -32603);
  EXPECT_EQ(b[2]["error"]["data"]["msg"], "Structured output unsupported");
}

TEST_F(NxapiServerTest, JsonRpcMalformedRequestIsInvalidRequestWithNullId) {
  startServer(options());
  const CurlResult r = post(request("{not json", "application/json-rpc"));
  const json j = r.json();
  ASSERT_FALSE(j.is_discarded()) << r.body;
  EXPECT_EQ(j["error"]["code"], -32600);
  EXPECT_EQ(j["error"]["message"], "Invalid request");
  EXPECT_TRUE(j["id"].is_null());
}

TEST_F(NxapiServerTest, NoOrWrongCredentialsAnswer401Html) {
  startServer(options());
  CurlRequest none = request(insApi("cli_show", "show interface"));
  none.user.clear();
  const CurlResult r = post(none);
  EXPECT_EQ(r.http, std::vector<int>{401});
  EXPECT_NE(r.body.find("<title>401 Authorization Required</title>"), std::string::npos) << r.body;
  CurlRequest wrong = request(insApi("cli_show", "show interface"));
  wrong.password = "nope";
  EXPECT_EQ(post(wrong).http, std::vector<int>{401});
  EXPECT_EQ(server_->counters().unauthorized, 2u);
  EXPECT_EQ(server_->counters().commands, 0u);
}

TEST_F(NxapiServerTest, CookieServesWithoutBasicAuth) {
  startServer(options());
  const CurlResult first = post(request(insApi("cli_show", "show interface")));
  ASSERT_EQ(first.http, std::vector<int>{200});
  const std::string cookie = first.cookie();
  ASSERT_FALSE(cookie.empty()) << first.headers;
  EXPECT_EQ(server_->counters().authentications, 1u);

  CurlRequest again = request(insApi("cli_show", "show interface"));
  again.user.clear();
  again.cookie = cookie;
  EXPECT_EQ(post(again).http, std::vector<int>{200});
  EXPECT_EQ(server_->counters().authentications, 1u);
  EXPECT_EQ(server_->counters().cookie_requests, 1u);

  again.cookie = "not-a-session";
  EXPECT_EQ(post(again).http, std::vector<int>{401});
}

TEST_F(NxapiServerTest, CookieExpires) {
  NxapiServerOptions o = options();
  o.cookie_ttl = std::chrono::seconds(1);
  startServer(o);
  const std::string cookie = post(request(insApi("cli_show", "show interface"))).cookie();
  ASSERT_FALSE(cookie.empty());
  CurlRequest again = request(insApi("cli_show", "show interface"));
  again.user.clear();
  again.cookie = cookie;
  EXPECT_TRUE(
      waitUntil([&] { return post(again).http == std::vector<int>{401}; }, kEventWait, std::chrono::milliseconds(200)));
  EXPECT_EQ(server_->liveSessions(), 0u);
}

TEST_F(NxapiServerTest, LoginsBeyondTheSessionLimitAnswer429) {
  NxapiServerOptions o = options();
  o.max_sessions = 3;
  startServer(o);
  std::string cookie;
  for (int i = 0; i < 3; ++i) {
    const CurlResult r = post(request(insApi("cli_show", "show interface")));
    ASSERT_EQ(r.http, std::vector<int>{200}) << i;
    cookie = r.cookie();
  }
  const CurlResult refused = post(request(insApi("cli_show", "show interface")));
  EXPECT_EQ(refused.http, std::vector<int>{429});
  EXPECT_EQ(refused.json()["ins_api"]["outputs"]["output"]["msg"], "Max sessions reached") << refused.body;
  EXPECT_EQ(server_->counters().too_many_sessions, 1u);
  EXPECT_EQ(server_->counters().authentications, 3u);
  // A held session still works.
  CurlRequest with_cookie = request(insApi("cli_show", "show interface"));
  with_cookie.user.clear();
  with_cookie.cookie = cookie;
  EXPECT_EQ(post(with_cookie).http, std::vector<int>{200});
}

TEST_F(NxapiServerTest, InjectedFaults) {
  startServer(options());
  server_->failNextWith429(2);
  const CurlResult rpc = post(request(rpcCall("cli", "show interface", 1), "application/json-rpc"));
  EXPECT_EQ(rpc.http, std::vector<int>{429});
  EXPECT_EQ(rpc.json()["error"]["data"]["msg"], "Max sessions reached") << rpc.body;
  EXPECT_EQ(post(request(insApi("cli_show", "show interface"))).http, std::vector<int>{429});
  EXPECT_EQ(post(request(insApi("cli_show", "show interface"))).http, std::vector<int>{200});
  server_->failAllWith(413);
  EXPECT_EQ(post(request(insApi("cli_show", "show interface"))).http, std::vector<int>{413});
  server_->failAllWith(0);
  EXPECT_EQ(post(request(insApi("cli_show", "show interface"))).http, std::vector<int>{200});
}

TEST_F(NxapiServerTest, SlowCommandsPastTheLimitAreBackEndErrors) {
  NxapiServerOptions o = options();
  o.command_delay = std::chrono::milliseconds(5000);
  o.command_limit = std::chrono::milliseconds(100);
  startServer(o);
  const CurlResult r = post(request(insApi("cli_show", "show interface")));
  EXPECT_EQ(r.http, std::vector<int>{500});
  EXPECT_EQ(r.json()["ins_api"]["outputs"]["output"]["msg"], "Back-end processing error") << r.body;
  const CurlResult rpc = post(request(rpcCall("cli", "show interface", 4), "application/json-rpc"));
  EXPECT_EQ(rpc.http, std::vector<int>{500});
  EXPECT_EQ(rpc.json()["error"]["data"]["msg"], "Back-end processing error") << rpc.body;
  // Slow but within the limit: answered.
  server_->setCommandDelay(std::chrono::milliseconds(50));
  EXPECT_EQ(post(request(insApi("cli_show", "show interface"))).http, std::vector<int>{200});
}

TEST_F(NxapiServerTest, StopAndStartOnTheSamePort) {
  startServer(options());
  const uint16_t port = server_->port();
  const std::string cookie = post(request(insApi("cli_show", "show interface"))).cookie();
  ASSERT_FALSE(cookie.empty());
  server_->stop();
  const CurlResult down = post(request(insApi("cli_show", "show interface")));
  EXPECT_NE(down.exit_code, 0);
  EXPECT_TRUE(down.http.empty());
  ASSERT_TRUE(server_->start().isOk());
  EXPECT_EQ(server_->port(), port);
  EXPECT_EQ(post(request(insApi("cli_show", "show interface"))).http, std::vector<int>{200});
  // The switch came back without the sessions of before.
  CurlRequest old = request(insApi("cli_show", "show interface"));
  old.user.clear();
  old.cookie = cookie;
  EXPECT_EQ(post(old).http, std::vector<int>{401});
}

TEST_F(NxapiServerTest, AnotherCaIsRefusedByCurl) {
  startServer(options());
  CurlRequest r = request(insApi("cli_show", "show interface"));
  r.ca_file = other_ca_->cert;
  const CurlResult refused = post(r);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_TRUE(refused.http.empty());
  EXPECT_EQ(server_->counters().requests, 0u);
  r.ca_file = pki_->ca_cert;
  EXPECT_EQ(post(r).http, std::vector<int>{200});
}

TEST_F(NxapiServerTest, KeepAliveReusesOneConnection) {
  startServer(options());
  CurlRequest r = request(insApi("cli_show", "show interface"));
  r.urls = 3;
  r.cookie_engine = true;  // as a client keeping its session
  const CurlResult res = post(r);
  EXPECT_EQ(res.exit_code, 0);
  EXPECT_EQ(res.http, (std::vector<int>{200, 200, 200}));
  EXPECT_EQ(res.connects, 1);
  EXPECT_EQ(server_->counters().connections, 1u);
  EXPECT_EQ(server_->counters().requests, 3u);
  EXPECT_EQ(server_->counters().authentications, 1u);
  EXPECT_EQ(server_->counters().cookie_requests, 2u);
}

// A benchmark runs one server per leaf, dozens at once: each gets its own
// port and answers, and all of them stop.
TEST_F(NxapiServerTest, FiftyServersSideBySide) {
  std::vector<std::unique_ptr<NxapiServer>> fleet;
  std::set<uint16_t> ports;
  for (int i = 0; i < 50; ++i) {
    NxapiServerOptions o = options();
    o.threads = 2;
    fleet.push_back(std::make_unique<NxapiServer>(o));
    ASSERT_TRUE(fleet.back()->start().isOk()) << i;
    ports.insert(fleet.back()->port());
  }
  EXPECT_EQ(ports.size(), 50u);
  for (const auto& server : fleet) {
    const CurlRequest r = request(insApi("cli_show", "show interface"), "application/json", server.get());
    EXPECT_EQ(post(r).http, std::vector<int>{200}) << server->url();
  }
  for (const auto& server : fleet) server->stop();
  for (const auto& server : fleet) EXPECT_FALSE(server->running());
}

TEST_F(NxapiServerTest, PlainHttpWithoutCertificates) {
  NxapiServerOptions o = options();
  o.cert_file.clear();
  o.key_file.clear();
  startServer(o);
  EXPECT_TRUE(server_->url().starts_with("http://"));
  CurlRequest r = request(insApi("cli_show", "show interface"));
  r.ca_file.clear();
  EXPECT_EQ(post(r).http, std::vector<int>{200});
}

}  // namespace
}  // namespace rdmagw::testing
