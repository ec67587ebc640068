// The gNMI client end to end against an in-test gNMI server (fake_target.h):
// encodings, stream modes, NX-OS quirks, TLS, status handling, reconnects.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "southbound/gnmi/fallback_source.h"
#include "southbound/gnmi/gnmi_factory.h"
#include "tests/southbound/gnmi/fake_target.h"
#include "tests/southbound/gnmi/test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::gnmi {
namespace {

using rdmagw::testing::FakeTarget;
using rdmagw::testing::FakeTargetOptions;
using rdmagw::testing::fastConfig;
using rdmagw::testing::octetsPath;
using rdmagw::testing::storedU64;
using rdmagw::testing::waitFor;

std::unique_ptr<FallbackSource> makeSource(Store& store, GnmiConfig config) {
  FallbackOptions o;
  o.target = "sw1";
  o.config = std::move(config);
  return std::make_unique<FallbackSource>(store, std::move(o));
}

TargetHealth healthOf(const Store& store) {
  for (const TargetStatus& t : store.targets()) {
    if (t.name == "sw1") return t.health;
  }
  return {};
}

TEST(GnmiClientTest, ProtoChosenWhenOfferedAndCountersLand) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(2)).has_value(); }));
  EXPECT_EQ(target.lastRequest().subscribe().encoding(), ::gnmi::PROTO);
  ASSERT_TRUE(waitFor([&] { return healthOf(store).up; }));
  TargetHealth h = healthOf(store);
  EXPECT_EQ(h.transport, "gnmi");
  EXPECT_EQ(h.kind, "nexus");
  ASSERT_TRUE(waitFor([&] { return healthOf(store).polls > 0; }));
  src->stop();
  EXPECT_EQ(target.capabilities_calls.load(), 1);
  EXPECT_EQ(target.subscribe_calls.load(), 1);  // one Subscribe carries every path
}

TEST(GnmiClientTest, JsonChosenWhenProtoNotOffered) {
  FakeTargetOptions o;
  o.encodings = {::gnmi::JSON};
  FakeTarget target(o);
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(1)).has_value(); }));
  EXPECT_EQ(target.lastRequest().subscribe().encoding(), ::gnmi::JSON);
}

TEST(GnmiClientTest, SampleAndOnChangeInOneStreamRequestWithoutPrefix) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return target.subscribe_calls.load() > 0; }));
  ::gnmi::SubscriptionList l = target.lastRequest().subscribe();
  EXPECT_EQ(l.mode(), ::gnmi::SubscriptionList::STREAM);
  EXPECT_FALSE(l.has_prefix());
  ASSERT_EQ(l.subscription_size(), 2);
  EXPECT_EQ(l.subscription(0).mode(), ::gnmi::SAMPLE);
  EXPECT_EQ(l.subscription(0).sample_interval(), 1'000'000'000ULL);
  EXPECT_EQ(l.subscription(1).mode(), ::gnmi::ON_CHANGE);
}

TEST(GnmiClientTest, OriginEchoKeepalivesAndNoSyncAreHandled) {
  FakeTargetOptions o;
  o.echo_origin = true;
  o.keepalives = true;
  o.never_sync = true;  // NX-OS 9.3(8): never waited for
  FakeTarget target(o);
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  // The value keeps moving: data flows although sync_response never came.
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(1)).value_or(0) > 1100; }));
  ASSERT_TRUE(waitFor([&] { return src->stats().keepalives > 2; }));
  GnmiSourceStats s = src->stats();
  EXPECT_EQ(s.sync_responses, 0u);
  EXPECT_EQ(s.map_errors, 0u);
  // The origin is not part of any stored path; keepalives added no series.
  for (const SeriesSnapshot& ser : store.snapshot("sw1")) {
    EXPECT_EQ(ser.path.find("openconfig"), std::string::npos) << ser.path;
  }
  EXPECT_EQ(store.snapshot("sw1").size(), 2u);
}

TEST(GnmiClientTest, JsonBlobValuesAreFlattenedIntoLeaves) {
  FakeTargetOptions o;
  o.json_blob = true;
  FakeTarget target(o);
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] {
    return storedU64(store, "sw1", octetsPath(1)).has_value() &&
           storedU64(store, "sw1", rdmagw::testing::modelPath(1, "out-octets")).has_value();
  }));
}

TEST(GnmiClientTest, DeletesRemoveLeavesInOrder) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  const std::string gone = rdmagw::testing::modelPath(9, "in-octets");
  ::gnmi::SubscribeResponse add;
  auto* u = add.mutable_update()->add_update();
  *u->mutable_path() = target.counterPath(1, "in-octets");
  *u->mutable_path() = target.counterPath(9, "in-octets");
  u->mutable_val()->set_uint_val(5);
  target.inject(add);
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", gone).has_value(); }));
  ::gnmi::SubscribeResponse del;
  *del.mutable_update()->add_delete_() = u->path();
  target.inject(del);
  ASSERT_TRUE(waitFor([&] { return !store.get("sw1", gone).has_value(); }));
  EXPECT_TRUE(storedU64(store, "sw1", octetsPath(1)).has_value());  // the rest stays
  EXPECT_GE(src->stats().removed, 1u);
}

TEST(GnmiClientTest, StreamResetReconnectsAndCountersContinue) {
  FakeTarget target;
  target.reset_after = 3;
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, fastConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return target.subscribe_calls.load() >= 3; }));
  ASSERT_TRUE(waitFor([&] { return healthOf(store).up; }));
  src->stop();
  EXPECT_EQ(store.targets().front().counter_resets, 0u);
  EXPECT_GE(healthOf(store).poll_errors, 2u);
}

TEST(GnmiClientTest, StalledStreamIsDetectedAndReopened) {
  FakeTarget target;
  ASSERT_TRUE(target.start());
  Store store;
  GnmiConfig c = fastConfig(target.address());
  c.idle_timeout = std::chrono::milliseconds(300);
  auto src = makeSource(store, c);
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(1)).has_value(); }));
  target.stall = true;
  ASSERT_TRUE(waitFor([&] { return src->stats().stalls >= 1; }));
  target.stall = false;
  ASSERT_TRUE(waitFor([&] { return target.subscribe_calls.load() >= 2; }));
  ASSERT_TRUE(waitFor([&] { return healthOf(store).up; }));
}

TEST(GnmiClientTest, RefusedConnectionRetriesWithBackoff) {
  int port = 0;
  {
    FakeTarget probe;  // find a free port, then leave it closed
    ASSERT_TRUE(probe.start());
    port = probe.port();
  }
  Store store;
  auto src = makeSource(store, fastConfig("127.0.0.1:" + std::to_string(port)));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return src->stats().dials >= 3; }));
  TargetHealth h = healthOf(store);
  EXPECT_FALSE(h.up);
  EXPECT_EQ(h.transport, "gnmi");
  EXPECT_NE(h.last_error.find("UNAVAILABLE"), std::string::npos) << h.last_error;
  // The target comes up on that port: the client finds it.
  FakeTarget target;
  ASSERT_TRUE(target.start(port));
  ASSERT_TRUE(waitFor([&] { return healthOf(store).up; }));
}

TEST(GnmiClientTest, WrongCredentialsAreFatalAndNeverLeakThePassword) {
  FakeTargetOptions o;
  o.username = "admin";
  o.password = "right-secret";
  FakeTarget target(o);
  ASSERT_TRUE(target.start());
  const std::string dir = ::testing::TempDir() + "/gnmi_pw";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/pw") << "wrong-secret-123\n";
  Store store;
  GnmiConfig c = fastConfig(target.address());
  c.username = "admin";
  c.password_file = dir + "/pw";
  c.retry_gnmi_after = std::chrono::seconds(600);
  auto src = makeSource(store, c);
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return healthOf(store).last_error.find("UNAUTHENTICATED") != std::string::npos; }));
  EXPECT_EQ(healthOf(store).last_error.find("wrong-secret-123"), std::string::npos);
  // Fatal: no hammering with wrong credentials; the long timer applies.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(src->stats().dials, 1u);
  src->stop();
  // The right password from the same file is read at the next dial.
  std::ofstream(dir + "/pw") << "right-secret\n";
  c.retry_gnmi_after = std::chrono::milliseconds(50);
  auto src2 = makeSource(store, c);
  ASSERT_TRUE(src2->start().isOk());
  ASSERT_TRUE(waitFor([&] { return healthOf(store).up; }));
}

class GnmiTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/gnmi_tls_" + std::to_string(::getpid());
    std::filesystem::create_directories(dir_);
    if (!rdmagw::testing::makeTlsFiles(dir_)) GTEST_SKIP() << "openssl could not make test certificates";
  }
  GnmiConfig tlsConfig(const std::string& address) {
    GnmiConfig c = fastConfig(address);
    c.plaintext = false;
    c.tls = true;
    c.ca_file = dir_ + "/ca.pem";
    c.server_name_override = "localhost";
    return c;
  }
  FakeTargetOptions serverOptions(bool mutual) {
    FakeTargetOptions o;
    o.server_cert = rdmagw::testing::readFile(dir_ + "/server.pem");
    o.server_key = rdmagw::testing::readFile(dir_ + "/server.key");
    if (mutual) o.client_ca = rdmagw::testing::readFile(dir_ + "/ca.pem");
    return o;
  }
  std::string dir_;
};

TEST_F(GnmiTlsTest, ServerVerifiedWithCaFile) {
  FakeTarget target(serverOptions(false));
  ASSERT_TRUE(target.start());
  Store store;
  auto src = makeSource(store, tlsConfig(target.address()));
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(1)).has_value(); }));
}

TEST_F(GnmiTlsTest, ClientCertificateForMutualTls) {
  FakeTarget target(serverOptions(true));
  ASSERT_TRUE(target.start());
  Store store;
  // Without a client certificate the handshake fails: retried, not fatal.
  auto bare = makeSource(store, tlsConfig(target.address()));
  ASSERT_TRUE(bare->start().isOk());
  ASSERT_TRUE(waitFor([&] { return bare->stats().dials >= 2; }));
  EXPECT_FALSE(healthOf(store).up);
  bare->stop();
  GnmiConfig c = tlsConfig(target.address());
  c.cert_file = dir_ + "/client.pem";
  c.key_file = dir_ + "/client.key";
  auto src = makeSource(store, c);
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(1)).has_value(); }));
}

TEST_F(GnmiTlsTest, InsecureSkipVerifyAcceptsAnUnknownCa) {
  FakeTarget target(serverOptions(false));
  ASSERT_TRUE(target.start());
  Store store;
  GnmiConfig c = tlsConfig(target.address());
  c.ca_file.clear();
  c.insecure_skip_verify = true;
  auto src = makeSource(store, c);
  ASSERT_TRUE(src->start().isOk());
  ASSERT_TRUE(waitFor([&] { return storedU64(store, "sw1", octetsPath(1)).has_value(); }));
}

TEST(GnmiFactoryTest, ValidatesConfigFirst) {
  Store store;
  GnmiConfig c;
  auto r = createGnmiSource("sw1", c, store);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("address"), std::string::npos);
  c.address = "127.0.0.1:1";
  c.plaintext = true;
  c.tls = false;
  EXPECT_TRUE(createGnmiSource("sw1", c, store).isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
