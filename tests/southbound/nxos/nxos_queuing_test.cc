#include <gtest/gtest.h>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

TEST(NxosQueuingTest, CollapsedN93180Fx2Golden) {
  Parsed p = parse("nxos-queuing", readFixture("nxos_n93180fx2_queuing_pfc_detail_COLLAPSED_NEWLINES__zartbot_wechat.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  const std::string e = "Ethernet1/51";  // from the prompt `show queueing interface e1/51`
  EXPECT_EQ(u64At(p.batch, queue(e, "5", "transmit-pkts")), 202328436u);
  EXPECT_EQ(u64At(p.batch, queue(e, "5", "transmit-octets")), 203884632744u);
  EXPECT_EQ(u64At(p.batch, queue(e, "5", "dropped-pkts")), 0u);
  EXPECT_EQ(u64At(p.batch, queue(e, "5", "dropped-octets")), 0u);
  EXPECT_FALSE(findUpdate(p.batch, queue(e, "6", "transmit-pkts")));  // box cut off
  // Per-port ingress: 0 + 0 + 19490; the per-slice 71206 is not the port's.
  EXPECT_EQ(u64At(p.batch, qosIn(e)), 19490u);
  EXPECT_EQ(u64At(p.batch, pfcCtr(e, "out-pfc-frames")), 150u);
  EXPECT_EQ(u64At(p.batch, pfcCtr(e, "in-pfc-frames")), 0u);
  EXPECT_EQ(u64At(p.batch, prio(e, 5, "out-pause-frames")), 150u);
  EXPECT_EQ(u64At(p.batch, prio(e, 3, "in-pause-frames")), 0u);
}

TEST(NxosQueuingTest, LegacyN5kGolden) {
  Parsed p = parse("nxos-queuing", readFixture("nxos_n5k_show_queuing_interface_legacy__oswalt_blog.txt"));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, queue("Ethernet1/47", "1", "transmit-pkts")), 3774439486u);
  EXPECT_EQ(u64At(p.batch, qosIn("Ethernet1/47")), 160104u);
  EXPECT_EQ(p.batch.updates.size(), 2u);
}

TEST(NxosQueuingTest, SyntheticLayoutHintsMangledGroupRefused) {
  Parsed p = parse("nxos-queuing", readFixture("SYNTHETIC_nxos_show_queuing_and_pfc_watchdog__otel_ciscoosreceiver_fork_test.txt"));
  ASSERT_TRUE(p.status.isOk());
  const std::string e = "Ethernet2/1";
  EXPECT_EQ(u64At(p.batch, queue(e, "0", "transmit-pkts")), 12u + 22u + 34u);  // uc + oobfc + mc
  EXPECT_EQ(u64At(p.batch, queue(e, "0", "transmit-octets")), 6800u);
  EXPECT_EQ(u64At(p.batch, queue(e, "0", "dropped-pkts")), 3u);
  // QOS GROUP 3's row mixes two labels in one line: refused, not guessed.
  EXPECT_FALSE(findUpdate(p.batch, queue(e, "3", "transmit-pkts")));
  EXPECT_FALSE(findUpdate(p.batch, queue(e, "3", "dropped-pkts")));
  EXPECT_FALSE(p.batch.errors.empty());
  EXPECT_EQ(u64At(p.batch, qosIn(e)), 10u);
  EXPECT_EQ(u64At(p.batch, prio(e, 3, "out-pause-frames")), 7u);
  EXPECT_EQ(u64At(p.batch, prio(e, 3, "in-pause-frames")), 8u);
  EXPECT_EQ(u64At(p.batch, pfcCtr(e, "out-pfc-frames")), 11u);
}

constexpr std::string_view kModern = R"nx(switch# show queuing interface ethernet 1/1/2
slot  1
=======

Egress Queuing for Ethernet1/1/2 [System]
------------------------------------------------------------------------------
QoS-Group# Bandwidth% PrioLevel                Shape                   QLimit
                                   Min          Max        Units
------------------------------------------------------------------------------
      3             0         -           0            0  mbps            9(D)
+-------------------------------------------------------------+
|                              QOS GROUP 3                    |
+-------------------------------------------------------------+
|                           |  Unicast       |Multicast       |
+-------------------------------------------------------------+
|                   Tx Pkts |         1,000,000|               5|
|                   Tx Byts |    99999999999999999999|               0|
| WRED/AFD & Tail Drop Pkts |              17|               0|
|       WD & Tail Drop Pkts |              99|               0|
|                  ECN Pkts |             321|               -|
|           Some Future Row |               1|               2|
+-------------------------------------------------------------+
|                      CONTROL QOS GROUP                      |
+-------------------------------------------------------------+
|                   Tx Pkts |             777|               0|
+-------------------------------------------------------------+
)nx";

TEST(NxosQueuingTest, ModernLayoutEdgeCases) {
  Parsed p = parse("nxos-queuing", kModern);
  ASSERT_TRUE(p.status.isOk());
  const std::string e = "Ethernet1/1/2";
  EXPECT_EQ(u64At(p.batch, queue(e, "3", "transmit-pkts")), 1000005u);
  EXPECT_FALSE(findUpdate(p.batch, queue(e, "3", "transmit-octets")));  // overflow
  EXPECT_TRUE(anyErrorContains(p.batch, "beyond 64 bits"));
  EXPECT_EQ(u64At(p.batch, queue(e, "3", "dropped-pkts")), 17u);  // not the WD row
  EXPECT_EQ(u64At(p.batch, queue(e, "3", "ecn-marked-pkts")), 321u);
  for (const Update& u : p.batch.updates) {
    EXPECT_EQ(u.path.find("777"), std::string::npos);
    EXPECT_EQ(schemaProblem(u.path), "");
  }
}

TEST(NxosQueuingJsonTest, SyntheticSchemaFixtureGolden) {
  std::string text = readFixture("SYNTHETIC_nxos_show_queuing_interface_json__built_from_schema.json");
  for (std::string_view fmt : {"nxos-queuing-json", "nxos-queuing"}) {
    Parsed p = parse(fmt, text);
    ASSERT_TRUE(p.status.isOk()) << fmt << p.status.toString();
    EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
    const std::string e = "Ethernet1/51";
    EXPECT_EQ(u64At(p.batch, queue(e, "0", "transmit-pkts")), 1023u);
    EXPECT_EQ(u64At(p.batch, queue(e, "0", "transmit-octets")), 1500300u);
    EXPECT_EQ(u64At(p.batch, queue(e, "0", "dropped-pkts")), 7u);
    EXPECT_EQ(u64At(p.batch, queue(e, "0", "dropped-octets")), 7000u);
    EXPECT_EQ(u64At(p.batch, queue(e, "3", "transmit-pkts")), 202328436u);
    EXPECT_EQ(u64At(p.batch, queue(e, "3", "transmit-octets")), 203884632744u);
    EXPECT_EQ(u64At(p.batch, queue(e, "3", "dropped-pkts")), 5u);
    EXPECT_EQ(u64At(p.batch, queue(e, "3", "ecn-marked-pkts")), 4242u);
    EXPECT_EQ(u64At(p.batch, queue(e, "3", "ecn-marked-octets")), 4242000u);
    EXPECT_EQ(u64At(p.batch, qosIn(e)), 19493u);
    EXPECT_EQ(u64At(p.batch, pfcCtr(e, "out-pfc-frames")), 150u);
    EXPECT_EQ(u64At(p.batch, pfcCtr(e, "in-pfc-frames")), 7u);
    EXPECT_EQ(u64At(p.batch, prio(e, 3, "out-pause-frames")), 150u);
    EXPECT_EQ(u64At(p.batch, prio(e, 3, "in-pause-frames")), 7u);
    // Single-object ROW_* and a short name for a breakout port.
    EXPECT_EQ(u64At(p.batch, queue("Ethernet1/1/2", "3", "transmit-pkts")), 42u);
    EXPECT_EQ(u64At(p.batch, prio("Ethernet1/1/2", 3, "in-pause-frames")), 12u);
  }
}

TEST(NxosQueuingJsonTest, BrokenJson) {
  std::string text = readFixture("SYNTHETIC_nxos_show_queuing_interface_json__built_from_schema.json");
  // Cut inside qos-group 3's first entry: group 0 survives, the cut entry does not.
  size_t cut = text.find("202328436");
  Parsed p = parse("nxos-queuing-json", text.substr(0, cut + 4));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, queue("Ethernet1/51", "0", "transmit-pkts")), 1023u);
  EXPECT_FALSE(findUpdate(p.batch, queue("Ethernet1/51", "3", "transmit-pkts")));
  EXPECT_TRUE(anyErrorContains(p.batch, "JSON damaged"));
  EXPECT_FALSE(parse("nxos-queuing-json", "{ not json").status.isOk());
  EXPECT_FALSE(parse("nxos-queuing-json", "% Invalid command at '^' marker.\n").status.isOk());
}

}  // namespace
}  // namespace rdmagw::testing
