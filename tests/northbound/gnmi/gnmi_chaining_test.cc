// Gateway chaining: gateway B relays gateway A's gNMI northbound
// (southbound/gnmi/relay_source.h). Every device of A becomes a target of
// B with equal values and timestamps; B's Get answers exactly as A's and
// B's /metrics carries A's counters. Waits are on the store's contents,
// with generous limits.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "northbound/gnmi/get_handler.h"
#include "northbound/gnmi/gnmi_server.h"
#include "northbound/prometheus/exposition.h"
#include "southbound/gnmi/relay_source.h"
#include "tests/northbound/gnmi/test_store.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {

// Polls `done` until true or 60 s passed; returns the last answer.
template <typename F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

std::string getAll(const Store& store, ::gnmi::Encoding enc) {
  ::gnmi::GetRequest req;
  req.mutable_prefix()->set_target("*");
  req.set_encoding(enc);
  ::gnmi::GetResponse resp;
  grpc::Status st = answerGet(store, req, &resp);
  return st.ok() ? resp.SerializeAsString() : "error: " + st.error_message();
}

TEST(GnmiChainingTest, GatewayBRelaysEveryDeviceOfGatewayA) {
  Store a;
  fillTestStore(a);
  GnmiServerConfig sc;
  sc.listen = "127.0.0.1:0";
  sc.insecure = true;
  GnmiServer server_a(a, sc);
  ASSERT_TRUE(server_a.start().isOk());

  Store b;
  southbound::gnmi::GnmiConfig g;
  g.address = server_a.address();
  g.kind = "rdmagw";
  g.tls = false;
  g.plaintext = true;
  g.backoff_initial = std::chrono::milliseconds(50);
  Result<southbound::StreamSourcePtr> relay = southbound::gnmi::createRelaySource("site-a", g, b);
  ASSERT_TRUE(relay.isOk()) << relay.status().message();
  ASSERT_TRUE((*relay)->start().isOk());

  ASSERT_TRUE(eventually([&] { return b.seriesCount() == a.seriesCount(); })) << b.seriesCount();
  for (const TargetStatus& t : a.targets()) {
    for (const SeriesSnapshot& s : a.snapshot(t.name)) {
      std::optional<SeriesSnapshot> got = b.get(t.name, s.path);
      ASSERT_TRUE(got.has_value()) << t.name << " " << s.path;
      EXPECT_EQ(got->value, s.value) << s.path;
      EXPECT_EQ(got->timestamp_ns, s.timestamp_ns) << s.path;
    }
  }
  // B's Get answers exactly what A's does, in every encoding.
  EXPECT_EQ(getAll(b, ::gnmi::PROTO), getAll(a, ::gnmi::PROTO));
  EXPECT_EQ(getAll(b, ::gnmi::JSON_IETF), getAll(a, ::gnmi::JSON_IETF));
  // B's /metrics: A's counters, each device its own target, up, relayed via site-a.
  const std::string metrics = northbound::prometheus::ExpositionWriter().build(b);
  EXPECT_NE(metrics.find("rdmagw_interface_in_bytes_total{target=\"leaf01\",interface=\"eth1/1\",via=\"site-a\"} 11\n"),
            std::string::npos) << metrics;
  EXPECT_NE(metrics.find("rdmagw_target_up{target=\"host02\",via=\"site-a\"} 1\n"), std::string::npos) << metrics;

  // Changes and deletes follow.
  std::vector<Update> change = {leaf(kLeafIn1, uint64_t{77}, kTs2 + 1)};
  a.apply("leaf01", change);
  EXPECT_TRUE(eventually([&] {
    auto s = b.get("leaf01", kLeafIn1);
    return s && s->value == Value(uint64_t{77}) && s->timestamp_ns == kTs2 + 1;
  }));
  a.removeTarget("host02");
  EXPECT_TRUE(eventually([&] { return b.snapshot("host02").empty(); }));

  // A gone: B marks the relayed targets down, and keeps them as targets.
  server_a.stop();
  EXPECT_TRUE(eventually([&] {
    for (const TargetStatus& t : b.targets()) {
      if (t.name == "leaf01") return !t.health.up;
    }
    return false;
  }));
  (*relay)->stop();
}

}  // namespace
}  // namespace rdmagw::testing
