// LinkMap on a store holding LLDP neighbour leaves (models/lldp.h) and the
// ports they name: links learned from LLDP, each cable once, static links
// overriding LLDP for their ports, unmonitored systems ignored, the
// config's lldp_names, and disagreeing ends reported and left out.

#include "analytics/link_map.h"

#include <gtest/gtest.h>

#include "analytics/analytics_engine.h"
#include "models/lldp.h"
#include "tests/analytics/small_fabric.h"

namespace rdmagw::analytics {
namespace {

constexpr TimestampNs kT0 = 1'700'000'000'000'000'000;

struct Nbr {
  std::string system, port_id, type, desc;
};

class LinkMapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    target("leaf01", "nexus");
    target("host01", "rdma-host");
    target("host02", "rdma-host");
    target("esx01", "esxi");
    for (const char* p : {"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"}) port("leaf01", p);
    port("host01", "ens1f0np0");
    port("host02", "ens1f0np0");
    put("esx01", "/hypervisor/nics/nic[name=vmnic4]/state/counters/packets-received", Value{uint64_t{1}});
  }

  void target(const std::string& name, const std::string& kind) {
    TargetHealth h;
    h.kind = kind;
    h.up = true;
    store_.setHealth(name, h);
  }
  void put(const std::string& t, const std::string& path, Value v, TimestampNs ts = kT0) {
    PollBatch b;
    b.add(path, std::move(v), ts);
    const Store::ApplyResult r = store_.apply(t, b.updates);
    ASSERT_EQ(r.rejected, 0u) << r.first_error;
  }
  void port(const std::string& t, const std::string& iface) {
    put(t, "/interfaces/interface[name=" + iface + "]/state/counters/in-octets", Value{uint64_t{1}});
  }
  void hears(const std::string& t, const std::string& iface, const std::string& id, const Nbr& n,
             TimestampNs ts = kT0) {
    for (const auto& [leaf, v] : {std::pair{"system-name", n.system}, std::pair{"port-id", n.port_id},
                                  std::pair{"port-id-type", n.type}, std::pair{"port-description", n.desc}}) {
      if (!v.empty()) put(t, lldp::neighborPath(iface, id, leaf), Value{v}, ts);
    }
  }

  // "a<->b source [last-seen s]" per link, sorted.
  std::vector<std::string> links(const std::vector<LinkConfig>& statics = {},
                                 const std::map<std::string, std::string>& names = {},
                                 std::vector<std::string>* conflicts = nullptr) {
    CounterWindow window(std::chrono::seconds(60));
    const FabricInventory inv = readFabric(store_, window, testing::fabricRoles());
    const LinkMap map(statics, inv, names);
    std::vector<std::string> out;
    for (const ResolvedLink& l : map.links()) {
      std::string line = l.a.toString() + "<->" + l.b.toString() + " " + l.source;
      if (l.last_seen) line += " " + std::to_string((l.last_seen - kT0) / 1'000'000'000);
      out.push_back(line);
      EXPECT_EQ(*map.peerOf(l.a), l.b);
      EXPECT_EQ(*map.peerOf(l.b), l.a);
    }
    std::sort(out.begin(), out.end());
    if (conflicts) *conflicts = map.conflicts();
    return out;
  }

  static LinkConfig cable(const std::string& sw_port, const std::string& host, const std::string& iface) {
    return {{"leaf01", LinkEnd::Kind::kInterface, sw_port}, {host, LinkEnd::Kind::kInterface, iface}};
  }

  Store store_;
  const Nbr host01_{"host01.rdma.lab", "24:8a:07:b4:a0:c2", "MAC_ADDRESS", "ens1f0np0"};
  const Nbr leaf01_e1_{"LEAF01", "Ethernet1/1", "INTERFACE_NAME", "to host01"};
};

TEST_F(LinkMapTest, OneEndsLldpMakesTheLinkThroughThePortDescriptionWhenThePortIdIsAMac) {
  hears("leaf01", "Ethernet1/1", "248a.07b4.a0c2", host01_);
  hears("leaf01", "Ethernet1/3", "b859.9f00.0004", {"esx01", "vmnic4", "LOCAL", ""});
  std::vector<std::string> conflicts;
  EXPECT_EQ(links({}, {}, &conflicts), (std::vector<std::string>{"leaf01:Ethernet1/1<->host01:ens1f0np0 lldp 0",
                                                                 "leaf01:Ethernet1/3<->esx01:vmnic4 lldp 0"}));
  EXPECT_TRUE(conflicts.empty());
}

TEST_F(LinkMapTest, BothEndsHeardCountOnceWithTheNewerTime) {
  hears("leaf01", "Ethernet1/1", "248a.07b4.a0c2", host01_, kT0);
  hears("host01", "ens1f0np0", "00de.fb01.0000", leaf01_e1_, kT0 + 5'000'000'000);
  EXPECT_EQ(links(), (std::vector<std::string>{"host01:ens1f0np0<->leaf01:Ethernet1/1 lldp 5"}));
}

TEST_F(LinkMapTest, AStaticLinkOverridesLldpForItsPorts) {
  hears("leaf01", "Ethernet1/1", "248a.07b4.a0c2", host01_);
  hears("leaf01", "Ethernet1/2", "aaaa.bbbb.cccc", {"host02", "ens1f0np0", "INTERFACE_NAME", ""});
  // The config says Ethernet1/1 goes to host02 (LLDP is wrong or stale there).
  std::vector<std::string> conflicts;
  EXPECT_EQ(links({cable("Ethernet1/1", "host02", "ens1f0np0")}, {}, &conflicts),
            (std::vector<std::string>{"leaf01:Ethernet1/1<->host02:ens1f0np0 static"}));
  EXPECT_TRUE(conflicts.empty());
}

TEST_F(LinkMapTest, UnmonitoredSystemsAndUnknownPortsAreIgnored) {
  hears("leaf01", "Ethernet1/1", "1", {"spine07.dc", "Ethernet1/49", "INTERFACE_NAME", ""});
  hears("leaf01", "Ethernet1/2", "2", {"host02", "ens9", "INTERFACE_NAME", ""});  // host02 has no ens9
  std::vector<std::string> conflicts;
  EXPECT_TRUE(links({}, {}, &conflicts).empty());
  EXPECT_TRUE(conflicts.empty());
}

TEST_F(LinkMapTest, LldpNamesMapASystemNameToItsTarget) {
  hears("leaf01", "Ethernet1/2", "2", {"gpu-node-17-bmc", "ens1f0np0", "INTERFACE_NAME", ""});
  EXPECT_TRUE(links().empty());
  EXPECT_EQ(links({}, {{"gpu-node-17-bmc", "host02"}}),
            (std::vector<std::string>{"leaf01:Ethernet1/2<->host02:ens1f0np0 lldp 0"}));
}

TEST_F(LinkMapTest, DisagreeingEndsAreReportedAndLeftOutUnlessAStaticLinkSettlesThem) {
  hears("leaf01", "Ethernet1/1", "248a.07b4.a0c2", host01_);
  hears("host01", "ens1f0np0", "00de.fb01.0000", {"leaf01", "Ethernet1/2", "INTERFACE_NAME", ""});
  std::vector<std::string> conflicts;
  EXPECT_TRUE(links({}, {}, &conflicts).empty());
  ASSERT_FALSE(conflicts.empty());
  for (const std::string& c : conflicts) EXPECT_NE(c.find("disagree"), std::string::npos) << c;
  EXPECT_EQ(links({cable("Ethernet1/1", "host01", "ens1f0np0")}, {}, &conflicts),
            (std::vector<std::string>{"leaf01:Ethernet1/1<->host01:ens1f0np0 static"}));
  EXPECT_TRUE(conflicts.empty());
}

// The engine reports a disagreement once, not on every run.
TEST_F(LinkMapTest, TheEngineLogsADisagreementOnce) {
  hears("leaf01", "Ethernet1/1", "248a.07b4.a0c2", host01_);
  hears("host01", "ens1f0np0", "00de.fb01.0000", {"leaf01", "Ethernet1/2", "INTERFACE_NAME", ""});
  AnalyticsConfig config;
  config.roles = testing::fabricRoles();
  config.period = std::chrono::seconds(1);
  config.window = std::chrono::seconds(4);
  AnalyticsEngine engine(store_, config);
  ::testing::internal::CaptureStderr();
  for (int run = 1; run <= 5; ++run) engine.runOnce(kT0 + run * 1'000'000'000LL);
  const std::string log = ::testing::internal::GetCapturedStderr();
  size_t lines = 0;
  for (size_t at = 0; (at = log.find("LLDP ends disagree", at)) != std::string::npos; ++at) ++lines;
  EXPECT_GE(lines, 1u) << log;
  EXPECT_LE(lines, 2u) << log;  // one line per disagreeing claim, never per run
}

TEST_F(LinkMapTest, TheEngineWritesLldpLinksWithSourceAndLastSeen) {
  hears("leaf01", "Ethernet1/1", "248a.07b4.a0c2", host01_, kT0);
  AnalyticsConfig config;
  config.roles = testing::fabricRoles();
  config.period = std::chrono::seconds(1);
  config.window = std::chrono::seconds(4);
  AnalyticsEngine engine(store_, config);
  ASSERT_EQ(engine.runOnce(kT0 + 1'000'000'000).rejected, 0u);
  std::map<std::string, std::string> got;
  store_.forEach([&](const SeriesView& s) {
    if (!s.path.starts_with("/fabric/")) return;
    const auto* text = std::get_if<std::string>(&s.value);
    got[std::string(s.target) + ":" + s.label_values[0] + ":" + std::string(s.path.substr(s.path.rfind('/') + 1))] =
        text ? *text : valueToString(s.value);
  });
  const std::string seen = std::to_string(kT0 / 1'000'000'000);
  EXPECT_EQ(got, (std::map<std::string, std::string>{
                     {"leaf01:Ethernet1/1:peer-target", "host01"},
                     {"leaf01:Ethernet1/1:peer-interface", "ens1f0np0"},
                     {"leaf01:Ethernet1/1:source", "lldp"},
                     {"leaf01:Ethernet1/1:last-seen", seen},
                     {"leaf01:Ethernet1/1:peer-state", "current"},
                     {"host01:ens1f0np0:peer-target", "leaf01"},
                     {"host01:ens1f0np0:peer-interface", "Ethernet1/1"},
                     {"host01:ens1f0np0:source", "lldp"},
                     {"host01:ens1f0np0:last-seen", seen},
                     {"host01:ens1f0np0:peer-state", "current"},
                 }));
}

}  // namespace
}  // namespace rdmagw::analytics
