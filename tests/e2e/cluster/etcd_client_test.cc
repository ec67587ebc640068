// The etcd client against a real etcd 3.4 on loopback: the hand-written
// .proto subset must speak etcd's wire, and the client must survive a dead
// endpoint, a frozen server, compaction and authentication.

#include "cluster/etcd_client.h"

#include <gtest/gtest.h>

#include "sim/etcd_launcher.h"
#include "tests/support/test_support.h"

namespace rdmagw::cluster {
namespace {

using testing::runCommand;

std::unique_ptr<EtcdClient> clientFor(std::vector<std::string> endpoints, std::chrono::milliseconds timeout =
                                                                              std::chrono::milliseconds(2000)) {
  EtcdClientConfig c;
  c.endpoints = std::move(endpoints);
  c.call_timeout = timeout;
  auto client = EtcdClient::create(std::move(c));
  EXPECT_TRUE(client.isOk()) << client.status().message();
  return client.isOk() ? std::move(client).value() : nullptr;
}

std::string etcdctl(const sim::EtcdLauncher& etcd, const std::string& args) {
  testing::CommandResult r = runCommand("ETCDCTL_API=3 etcdctl --endpoints=" + etcd.endpoint() + " " + args);
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.output;
  return r.output;
}

class EtcdClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = etcd_.start();
    ASSERT_TRUE(s.isOk()) << s.message();
  }
  sim::EtcdLauncher etcd_;
};

TEST_F(EtcdClientTest, PutRangeAndWatchAPrefix) {
  auto client = clientFor({etcd_.endpoint()});
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->put("/p/a", "1").isOk());
  ASSERT_TRUE(client->put("/p/b", "2").isOk());
  ASSERT_TRUE(client->put("/q/c", "3").isOk());  // outside the prefix
  Result<EtcdRange> r = client->rangePrefix("/p/");
  ASSERT_TRUE(r.isOk()) << r.status().message();
  ASSERT_EQ(r->kvs.size(), 2u);
  EXPECT_EQ(r->kvs[0].key, "/p/a");
  EXPECT_EQ(r->kvs[0].value, "1");
  EXPECT_EQ(r->kvs[1].key, "/p/b");
  EXPECT_GT(r->revision, 0);

  auto w = client->watchPrefix("/p/", r->revision + 1);
  ASSERT_TRUE(w.isOk()) << w.status().message();
  ASSERT_TRUE(client->put("/p/c", "4").isOk());
  ASSERT_TRUE(client->put("/q/d", "5").isOk());
  ASSERT_TRUE(client->deleteKey("/p/a").isOk());
  std::vector<EtcdEvent> events;
  EtcdWatchBatch batch;
  while (events.size() < 2 && (*w)->next(&batch)) {
    ASSERT_FALSE(batch.canceled) << batch.cancel_reason;
    events.insert(events.end(), batch.events.begin(), batch.events.end());
  }
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, EtcdEvent::Type::kPut);
  EXPECT_EQ(events[0].kv.key, "/p/c");
  EXPECT_EQ(events[0].kv.value, "4");
  EXPECT_EQ(events[1].type, EtcdEvent::Type::kDelete);
  EXPECT_EQ(events[1].kv.key, "/p/a");
  (*w)->cancel();
  EXPECT_FALSE((*w)->next(&batch));
  EXPECT_GE(client->requests(EtcdRequestKind::kPut), 4u);
  EXPECT_EQ(client->requests(EtcdRequestKind::kWatch), 1u);
}

TEST_F(EtcdClientTest, ALeaseKeepsItsKeysUntilRevoked) {
  auto client = clientFor({etcd_.endpoint()});
  ASSERT_NE(client, nullptr);
  Result<EtcdLease> lease = client->grantLease(30);
  ASSERT_TRUE(lease.isOk()) << lease.status().message();
  EXPECT_NE(lease->id, 0);
  EXPECT_GE(lease->ttl_seconds, 30);
  ASSERT_TRUE(client->put("/l/k", "v", lease->id).isOk());
  Result<int64_t> ttl = client->keepAliveOnce(lease->id);
  ASSERT_TRUE(ttl.isOk()) << ttl.status().message();
  EXPECT_GT(*ttl, 0);
  Result<EtcdRange> r = client->rangePrefix("/l/");
  ASSERT_TRUE(r.isOk());
  ASSERT_EQ(r->kvs.size(), 1u);
  EXPECT_EQ(r->kvs[0].lease, lease->id);

  ASSERT_TRUE(client->revokeLease(lease->id).isOk());
  r = client->rangePrefix("/l/");
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(r->kvs.empty()) << "revoking a lease deletes its keys";
  // A lease etcd no longer knows renews to TTL 0: the member's cue that it is lost.
  ttl = client->keepAliveOnce(lease->id);
  ASSERT_TRUE(ttl.isOk()) << ttl.status().message();
  EXPECT_LE(*ttl, 0);
  // And a put under it fails as "not found".
  Status put = client->put("/l/k", "v", lease->id);
  EXPECT_EQ(put.code(), Status::Code::kNotFound) << put.toString();
}

TEST_F(EtcdClientTest, ADeadEndpointIsSkipped) {
  const int dead = testing::freeLoopbackPort();
  auto client = clientFor({"http://127.0.0.1:" + std::to_string(dead), etcd_.endpoint()});
  ASSERT_NE(client, nullptr);
  Status s = client->put("/f/k", "v");
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(client->currentEndpoint(), "127.0.0.1:" + std::to_string(etcd_.clientPort()));
  EXPECT_EQ(client->requests(EtcdRequestKind::kPut), 2u) << "one try on each endpoint";
  // The live endpoint stays in use.
  ASSERT_TRUE(client->put("/f/k", "w").isOk());
  EXPECT_EQ(client->requests(EtcdRequestKind::kPut), 3u);
}

TEST_F(EtcdClientTest, AFrozenServerCostsOneDeadline) {
  auto client = clientFor({etcd_.endpoint()}, std::chrono::milliseconds(500));
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->put("/z/k", "v").isOk());
  etcd_.pause();
  Status s = client->put("/z/k", "w");
  EXPECT_EQ(s.code(), Status::Code::kUnavailable) << s.toString();
  Result<int64_t> ka = client->keepAliveOnce(1);
  EXPECT_EQ(ka.status().code(), Status::Code::kUnavailable) << ka.status().toString();
  etcd_.resume();
  EXPECT_TRUE(testing::waitUntil([&] { return client->put("/z/k", "x").isOk(); }));
}

TEST_F(EtcdClientTest, AWatchFromACompactedRevisionIsCanceled) {
  auto client = clientFor({etcd_.endpoint()});
  ASSERT_NE(client, nullptr);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(client->put("/c/k", std::to_string(i)).isOk());
  Result<EtcdRange> r = client->rangePrefix("/c/");
  ASSERT_TRUE(r.isOk());
  etcdctl(etcd_, "compact " + std::to_string(r->revision));
  auto w = client->watchPrefix("/c/", 2);
  ASSERT_TRUE(w.isOk());
  EtcdWatchBatch batch;
  bool canceled = false;
  while (!canceled && (*w)->next(&batch)) canceled = batch.canceled;
  EXPECT_TRUE(canceled);
  EXPECT_EQ(batch.compact_revision, r->revision);
}

TEST_F(EtcdClientTest, AuthenticatesWithUserAndPassword) {
  etcdctl(etcd_, "user add root:root-secret");
  etcdctl(etcd_, "auth enable");
  EtcdClientConfig c;
  c.endpoints = {etcd_.endpoint()};
  c.user = "root";
  c.password = "root-secret";
  auto client = EtcdClient::create(c);
  ASSERT_TRUE(client.isOk());
  Status s = (*client)->put("/a/k", "v");
  EXPECT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ((*client)->requests(EtcdRequestKind::kAuth), 1u);
  Result<EtcdRange> r = (*client)->rangePrefix("/a/");
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->kvs.size(), 1u);
  EXPECT_EQ((*client)->requests(EtcdRequestKind::kAuth), 1u) << "the token is kept";

  c.password = "wrong";
  auto wrong = EtcdClient::create(c);
  ASSERT_TRUE(wrong.isOk());
  s = (*wrong)->put("/a/k", "v");
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("authentication failed"), std::string::npos) << s.message();

  auto anonymous = clientFor({etcd_.endpoint()});
  s = anonymous->put("/a/k", "v");
  EXPECT_FALSE(s.isOk()) << "etcd refuses a client without a token once auth is on";
}

// A CA, a server certificate for 127.0.0.1 and a client certificate, made
// with the openssl tool for one test.
void makeCertificates(const testing::TempDir& dir) {
  const std::string d = dir.path();
  const std::string cmd =
      "cd " + d + " && openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1"
      " -subj /CN=rdmagw-test-ca && "
      "printf 'subjectAltName=IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > server.ext && "
      "printf 'extendedKeyUsage=clientAuth\\n' > client.ext && "
      "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1 && "
      "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1"
      " -extfile server.ext && "
      "openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj /CN=rdmagw && "
      "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 1"
      " -extfile client.ext";
  testing::CommandResult r = runCommand(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

TEST(EtcdClientTlsTest, TalksToAnEtcdThatWantsClientCertificates) {
  testing::TempDir dir("rdmagw-etcd-tls");
  makeCertificates(dir);
  sim::EtcdOptions o;
  o.server_cert_file = dir.file("server.pem");
  o.server_key_file = dir.file("server.key");
  o.trusted_ca_file = dir.file("ca.pem");
  sim::EtcdLauncher etcd(o);
  Status started = etcd.start();
  ASSERT_TRUE(started.isOk()) << started.message();
  ASSERT_EQ(etcd.endpoint().rfind("https://", 0), 0u);

  EtcdClientConfig c;
  c.endpoints = {etcd.endpoint()};
  c.tls.ca_file = dir.file("ca.pem");
  c.tls.cert_file = dir.file("client.pem");
  c.tls.key_file = dir.file("client.key");
  auto client = EtcdClient::create(c);
  ASSERT_TRUE(client.isOk()) << client.status().message();
  Status s = (*client)->put("/t/k", "v");
  EXPECT_TRUE(s.isOk()) << s.message();
  Result<EtcdRange> r = (*client)->rangePrefix("/t/");
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->kvs.size(), 1u);

  // Without a client certificate etcd refuses the handshake.
  c.tls.cert_file.clear();
  c.tls.key_file.clear();
  c.call_timeout = std::chrono::milliseconds(1000);
  auto anonymous = EtcdClient::create(c);
  ASSERT_TRUE(anonymous.isOk());
  EXPECT_FALSE((*anonymous)->put("/t/k", "w").isOk());
  // Nor does a client that does not trust etcd's CA get through.
  EtcdClientConfig plain;
  plain.endpoints = {"127.0.0.1:" + std::to_string(etcd.clientPort())};
  plain.call_timeout = std::chrono::milliseconds(1000);
  auto insecure = EtcdClient::create(plain);
  ASSERT_TRUE(insecure.isOk());
  EXPECT_FALSE((*insecure)->put("/t/k", "x").isOk());
}

TEST(EtcdClientConfigTest, BadConfigIsAClearError) {
  EtcdClientConfig c;
  EXPECT_EQ(EtcdClient::create(c).status().code(), Status::Code::kInvalidArgument);
  c.endpoints = {"http://127.0.0.1:2379/v3/path"};
  auto r = EtcdClient::create(c);
  EXPECT_NE(r.status().message().find("expected host:port"), std::string::npos) << r.status().message();
  c.endpoints = {"127.0.0.1:2379"};
  c.tls.ca_file = "/nonexistent/ca.pem";
  r = EtcdClient::create(c);
  EXPECT_NE(r.status().message().find("/nonexistent/ca.pem"), std::string::npos) << r.status().message();
  c.tls = {};
  c.tls.cert_file = "/etc/hostname";
  r = EtcdClient::create(c);
  EXPECT_NE(r.status().message().find("go together"), std::string::npos) << r.status().message();
}

TEST(EtcdClientConfigTest, PrefixEndIsTheNextKeyAfterThePrefix) {
  EXPECT_EQ(EtcdClient::prefixEnd("/rdmagw/a/members/"), "/rdmagw/a/members0");
  EXPECT_EQ(EtcdClient::prefixEnd(std::string("a\xff", 2)), "b");
  EXPECT_EQ(EtcdClient::prefixEnd(std::string("\xff", 1)), std::string(1, '\0'));
}

}  // namespace
}  // namespace rdmagw::cluster
