// Per-VF statistics from a PF's RTM_NEWLINK: the parser on replies built
// byte by byte here as the kernel lays them out (net/core/rtnetlink.c,
// rtnl_fill_vfinfo), then broken every way a reply can be; the reader on
// this machine's own netdevs, which have no VFs (no SR-IOV NIC here).

#include "southbound/k8s/vf_stats.h"

#include <gtest/gtest.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include <cstring>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "southbound/k8s/attribution_leaves.h"

namespace rdmagw::southbound::k8s {
namespace {

using Bytes = std::vector<uint8_t>;

// The uAPI numbers the replies below are written with, as documented in
// <linux/if_link.h>: checked against the header so a typo cannot agree
// with itself.
constexpr uint16_t kIfName = 3, kNumVf = 21, kVfInfoList = 22;
constexpr uint16_t kVfInfo = 1, kVfMac = 1, kVfVlan = 2, kVfTrust = 9, kVfStats = 8;
constexpr uint16_t kRxPackets = 0, kTxPackets = 1, kRxBytes = 2, kTxBytes = 3, kBroadcast = 4, kMulticast = 5, kPad = 6,
                   kRxDropped = 7, kTxDropped = 8;
static_assert(kIfName == IFLA_IFNAME && kNumVf == IFLA_NUM_VF && kVfInfoList == IFLA_VFINFO_LIST);
static_assert(kVfInfo == IFLA_VF_INFO && kVfMac == IFLA_VF_MAC && kVfVlan == IFLA_VF_VLAN &&
              kVfTrust == IFLA_VF_TRUST && kVfStats == IFLA_VF_STATS);
static_assert(kRxPackets == IFLA_VF_STATS_RX_PACKETS && kTxPackets == IFLA_VF_STATS_TX_PACKETS &&
              kRxBytes == IFLA_VF_STATS_RX_BYTES && kTxBytes == IFLA_VF_STATS_TX_BYTES &&
              kBroadcast == IFLA_VF_STATS_BROADCAST && kMulticast == IFLA_VF_STATS_MULTICAST &&
              kPad == IFLA_VF_STATS_PAD && kRxDropped == IFLA_VF_STATS_RX_DROPPED &&
              kTxDropped == IFLA_VF_STATS_TX_DROPPED);

// Little-endian host order, as netlink carries them on x86 and arm64.
void put16(Bytes& b, uint16_t v) {
  for (int i = 0; i < 2; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void put32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void put64(Bytes& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

// struct nlattr: u16 nla_len (header included, padding not), u16 nla_type;
// the payload padded to 4 bytes.
Bytes attr(uint16_t type, const Bytes& payload) {
  Bytes b;
  put16(b, uint16_t(4 + payload.size()));
  put16(b, type);
  b.insert(b.end(), payload.begin(), payload.end());
  while (b.size() % 4 != 0) b.push_back(0);
  return b;
}
Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const Bytes& p : parts) b.insert(b.end(), p.begin(), p.end());
  return b;
}
Bytes u64(uint64_t v) {
  Bytes b;
  put64(b, v);
  return b;
}

// A counter value unique to (VF, counter) and above 2^32, so a swapped or
// narrowed field shows.
uint64_t value(uint32_t vf, uint16_t counter) { return (uint64_t(vf + 1) << 40) | (uint64_t(counter + 1) << 8) | vf; }

// struct ifla_vf_mac { __u32 vf; __u8 mac[32]; }
Bytes vfMac(uint32_t vf) {
  Bytes b;
  put32(b, vf);
  for (int i = 0; i < 32; ++i) b.push_back(i < 6 ? uint8_t(0x10 + vf + i) : 0);
  return b;
}

Bytes vfStats(uint32_t vf) {
  return cat({attr(kPad, {}), attr(kRxPackets, u64(value(vf, kRxPackets))),
              attr(kTxPackets, u64(value(vf, kTxPackets))), attr(kRxBytes, u64(value(vf, kRxBytes))),
              attr(kTxBytes, u64(value(vf, kTxBytes))), attr(kBroadcast, u64(value(vf, kBroadcast))),
              attr(kMulticast, u64(value(vf, kMulticast))), attr(kRxDropped, u64(value(vf, kRxDropped))),
              attr(kTxDropped, u64(value(vf, kTxDropped)))});
}

// One IFLA_VF_INFO as rtnl_fill_vfinfo writes it: MAC first, then the
// rest (a VLAN, trust), stats last; the nest flag set on the stats.
Bytes vfInfo(uint32_t vf) {
  Bytes vlan;  // struct ifla_vf_vlan { __u32 vf, vlan, qos; }
  put32(vlan, vf);
  put32(vlan, 100 + vf);
  put32(vlan, 0);
  Bytes trust;
  put32(trust, vf);
  put32(trust, 0);
  return attr(kVfInfo, cat({attr(kVfMac, vfMac(vf)), attr(kVfVlan, vlan), attr(kVfTrust, trust),
                            attr(kVfStats | NLA_F_NESTED, vfStats(vf))}));
}

// nlmsghdr (len, type, flags, seq, pid) and ifinfomsg (family, pad, type,
// index, flags, change), then the attributes.
Bytes message(int32_t ifindex, const Bytes& attributes, uint16_t type = RTM_NEWLINK) {
  Bytes b;
  put32(b, uint32_t(16 + 16 + attributes.size()));
  put16(b, type);
  put16(b, 0);
  put32(b, 7);
  put32(b, 0);
  b.push_back(AF_UNSPEC);
  b.push_back(0);
  put16(b, 1);  // ARPHRD_ETHER
  put32(b, uint32_t(ifindex));
  put32(b, IFF_UP);
  put32(b, 0);
  b.insert(b.end(), attributes.begin(), attributes.end());
  return b;
}

Bytes twoVfs() {
  Bytes num;
  put32(num, 8);
  const std::string text = "ens1f0np0";
  Bytes name(text.begin(), text.end());
  name.push_back(0);
  // VF 5 before VF 2: the number is the one in ifla_vf_mac, not the order.
  return message(4, cat({attr(kIfName, name), attr(kNumVf, num), attr(kVfInfoList, cat({vfInfo(5), vfInfo(2)}))}));
}

VfStats expected(uint32_t vf) {
  VfStats s;
  s.vf = vf;
  s.has_stats = true;
  s.rx_packets = value(vf, kRxPackets);
  s.tx_packets = value(vf, kTxPackets);
  s.rx_bytes = value(vf, kRxBytes);
  s.tx_bytes = value(vf, kTxBytes);
  s.broadcast = value(vf, kBroadcast);
  s.multicast = value(vf, kMulticast);
  s.rx_dropped = value(vf, kRxDropped);
  s.tx_dropped = value(vf, kTxDropped);
  return s;
}

Result<LinkVfStats> parse(const Bytes& b) { return parseLinkVfStats(std::span<const uint8_t>(b.data(), b.size())); }

// The corrupt error's text, or a failure naming what parsed instead.
std::string errorOf(const Bytes& b) {
  Result<LinkVfStats> r = parse(b);
  if (r.isOk()) return "(parsed: " + std::to_string(r->vfs.size()) + " VFs)";
  EXPECT_EQ(r.status().code(), Status::Code::kCorrupt) << r.status().message();
  return r.status().message();
}

TEST(VfStatsParserTest, TwoVfsEveryCounterInItsPlace) {
  Result<LinkVfStats> r = parse(twoVfs());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->ifindex, 4);
  EXPECT_EQ(r->ifname, "ens1f0np0");
  EXPECT_EQ(r->num_vf, 8u);
  ASSERT_EQ(r->vfs.size(), 2u);
  EXPECT_EQ(r->vfs[0], expected(5));
  EXPECT_EQ(r->vfs[1], expected(2));
  // Spelled out once, so the expectation does not only agree with itself.
  EXPECT_EQ(*r->vfs[1].rx_bytes, (uint64_t(3) << 40) | (3u << 8) | 2u);
  EXPECT_EQ(*r->vfs[1].tx_dropped, (uint64_t(3) << 40) | (9u << 8) | 2u);
}

TEST(VfStatsParserTest, NoVfInfoListIsNoVfs) {
  Result<LinkVfStats> r = parse(message(1, attr(kIfName, Bytes{'l', 'o', 0})));
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->ifname, "lo");
  EXPECT_FALSE(r->num_vf.has_value());
  EXPECT_TRUE(r->vfs.empty());
}

TEST(VfStatsParserTest, AVfWithoutStatsOrWithOldCountersKeepsWhatWasSent) {
  // RTEXT_FILTER_SKIP_STATS leaves IFLA_VF_STATS out; kernels before 4.19
  // send no drop counters.
  const Bytes old_stats = cat({attr(kRxPackets, u64(11)), attr(kTxPackets, u64(12))});
  const Bytes list = cat(
      {attr(kVfInfo, attr(kVfMac, vfMac(0))), attr(kVfInfo, cat({attr(kVfMac, vfMac(1)), attr(kVfStats, old_stats)}))});
  Result<LinkVfStats> r = parse(message(4, attr(kVfInfoList, list)));
  ASSERT_TRUE(r.isOk()) << r.status().message();
  ASSERT_EQ(r->vfs.size(), 2u);
  EXPECT_FALSE(r->vfs[0].has_stats);
  EXPECT_FALSE(r->vfs[0].rx_packets.has_value());
  EXPECT_TRUE(r->vfs[1].has_stats);
  EXPECT_EQ(r->vfs[1].tx_packets, 12u);
  EXPECT_FALSE(r->vfs[1].rx_dropped.has_value());
}

TEST(VfStatsParserTest, MalformedRepliesSayWhatAndWhere) {
  // Not an RTM_NEWLINK, shorter than its headers, nlmsg_len past the bytes.
  EXPECT_NE(errorOf(message(4, {}, RTM_NEWADDR)).find("not RTM_NEWLINK"), std::string::npos);
  EXPECT_NE(errorOf(Bytes(20, 0)).find("less than its headers"), std::string::npos);
  Bytes cut = twoVfs();
  cut.resize(cut.size() - 10);
  EXPECT_NE(errorOf(cut).find("nlmsg_len"), std::string::npos);

  // An attribute longer than its nest: IFLA_VF_STATS claims 400 bytes.
  Bytes stats_too_long = cat({attr(kVfMac, vfMac(0)), attr(kVfStats, vfStats(0))});
  const size_t stats_at = attr(kVfMac, vfMac(0)).size();
  stats_too_long[stats_at] = 0x90;
  stats_too_long[stats_at + 1] = 0x01;
  std::string e = errorOf(message(4, attr(kVfInfoList, attr(kVfInfo, stats_too_long))));
  EXPECT_NE(e.find("IFLA_VF_INFO #0"), std::string::npos) << e;
  EXPECT_NE(e.find("past the end"), std::string::npos) << e;

  // A header whose length is under its own 4 bytes (a walk that trusted it
  // would never advance).
  Bytes zero_length = attr(kVfInfoList, attr(kVfInfo, attr(kVfMac, vfMac(0))));
  zero_length[4] = 2;
  zero_length[5] = 0;
  e = errorOf(message(4, zero_length));
  EXPECT_NE(e.find("has length 2"), std::string::npos) << e;

  // Two stray bytes after the last attribute.
  Bytes stray = cat({attr(kIfName, Bytes{'x', 0}), Bytes{1, 2}});
  e = errorOf(message(4, stray));
  EXPECT_NE(e.find("less than a header"), std::string::npos) << e;

  // No IFLA_VF_MAC: no VF number to key the counters by.
  e = errorOf(message(4, attr(kVfInfoList, cat({vfInfo(0), attr(kVfInfo, attr(kVfStats, vfStats(1)))}))));
  EXPECT_NE(e.find("IFLA_VF_INFO #1 has no IFLA_VF_MAC"), std::string::npos) << e;

  // IFLA_VF_MAC shorter than struct ifla_vf_mac.
  e = errorOf(message(4, attr(kVfInfoList, attr(kVfInfo, attr(kVfMac, Bytes{1, 0, 0, 0})))));
  EXPECT_NE(e.find("IFLA_VF_MAC has 4 bytes"), std::string::npos) << e;

  // A counter of 4 bytes, not 8.
  e = errorOf(message(4, attr(kVfInfoList, attr(kVfInfo, cat({attr(kVfMac, vfMac(0)),
                                                              attr(kVfStats, attr(kRxBytes, Bytes{1, 2, 3, 4}))})))));
  EXPECT_NE(e.find("IFLA_VF_STATS: counter type 2 has 4 bytes, not 8"), std::string::npos) << e;
}

TEST(VfStatsParserTest, EveryTruncationIsAnErrorOrAShorterValidReply) {
  // nlmsg_len cut to each length in turn, the bytes cut with it: a cut
  // inside an attribute is an error, never a read past the end.
  const Bytes whole = twoVfs();
  size_t errors = 0;
  for (size_t n = 0; n < whole.size(); ++n) {
    Bytes cut(whole.begin(), whole.begin() + n);
    if (n >= 4) {
      cut[0] = uint8_t(n);
      cut[1] = uint8_t(n >> 8);
    }
    Result<LinkVfStats> r = parse(cut);
    if (r.isOk()) {
      EXPECT_LT(r->vfs.size(), 2u) << n;  // only a cut between attributes parses
    } else {
      ++errors;
      EXPECT_FALSE(r.status().message().empty()) << n;
    }
  }
  EXPECT_GT(errors, whole.size() * 9 / 10);
}

TEST(VfStatsLeavesTest, EachCounterUnderThePfsRdmaDevices) {
  VfStats partial;  // an old kernel's: no drop counters
  partial.vf = 3;
  partial.has_stats = true;
  partial.rx_bytes = 42;
  PollBatch batch;
  writeVfStats({PfVfStats{{"mlx5_0"}, "ens1f0np0", {expected(5), partial}}}, 1000, batch);
  ASSERT_EQ(batch.replaced.size(), 1u);
  EXPECT_EQ(batch.replaced[0], "/rdma/devices/device[name=*]/vfs");
  std::map<std::string, uint64_t> got;
  for (const Update& u : batch.updates) got[u.path] = std::get<uint64_t>(u.value);
  EXPECT_EQ(got.size(), 9u);
  const std::string vf5 = "/rdma/devices/device[name=mlx5_0]/vfs/vf[index=5]/state/";
  EXPECT_EQ(got[vf5 + "rx-packets"], value(5, kRxPackets));
  EXPECT_EQ(got[vf5 + "tx-packets"], value(5, kTxPackets));
  EXPECT_EQ(got[vf5 + "rx-bytes"], value(5, kRxBytes));
  EXPECT_EQ(got[vf5 + "tx-bytes"], value(5, kTxBytes));
  EXPECT_EQ(got[vf5 + "rx-dropped"], value(5, kRxDropped));
  EXPECT_EQ(got[vf5 + "tx-dropped"], value(5, kTxDropped));
  EXPECT_EQ(got[vf5 + "broadcast"], value(5, kBroadcast));
  EXPECT_EQ(got[vf5 + "multicast"], value(5, kMulticast));
  EXPECT_EQ(got["/rdma/devices/device[name=mlx5_0]/vfs/vf[index=3]/state/rx-bytes"], 42u);
}

// The real kernel: this machine's netdevs have no VFs, so the answer is a
// link without IFLA_VFINFO_LIST, and no error.
TEST(VfStatsReaderTest, ThisMachinesLoopbackHasNoVfs) {
  VfStatsReader reader;
  Result<LinkVfStats> by_name = reader.read("lo");
  if (!by_name.isOk() && by_name.status().code() == Status::Code::kUnavailable) {
    GTEST_SKIP() << "no rtnetlink here: " << by_name.status().message();
  }
  ASSERT_TRUE(by_name.isOk()) << by_name.status().message();
  EXPECT_EQ(by_name->ifname, "lo");
  EXPECT_EQ(by_name->ifindex, int32_t(if_nametoindex("lo")));
  EXPECT_TRUE(by_name->vfs.empty());
  EXPECT_FALSE(by_name->num_vf.has_value());  // lo has no parent device

  // The same socket again, by index.
  Result<LinkVfStats> by_index = reader.read(by_name->ifindex);
  ASSERT_TRUE(by_index.isOk()) << by_index.status().message();
  EXPECT_EQ(by_index->ifname, "lo");

  Result<LinkVfStats> missing = reader.read("rdmagw-none0");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound) << missing.status().message();
  EXPECT_NE(missing.status().message().find("rdmagw-none0"), std::string::npos) << missing.status().message();
  EXPECT_FALSE(reader.read("").isOk());
  EXPECT_FALSE(reader.read(std::string(IFNAMSIZ, 'x')).isOk());
}

TEST(VfStatsReaderTest, PfsOfThisMachineWithoutVfsGiveNoRowsAndNamedErrors) {
  VfStatsReader reader;
  if (Result<LinkVfStats> lo = reader.read("lo"); !lo.isOk())
    GTEST_SKIP() << "no rtnetlink here: " << lo.status().message();
  auto pf = [](const std::string& address, std::vector<std::string> rdma, std::vector<std::string> netdevs) {
    PhysicalFunction p;
    p.function.address = parsePciAddress(address).value();
    p.function.rdma_devices = std::move(rdma);
    p.function.netdevs = std::move(netdevs);
    return p;
  };
  std::vector<Status> errors;
  const std::vector<PfVfStats> got =
      readPfVfStats({pf("0000:3b:00.0", {"mlx5_0"}, {"lo"}), pf("0000:5e:00.0", {"mlx5_1"}, {"rdmagw-none0"}),
                     pf("0000:af:00.0", {}, {"rdmagw-none1"})},  // no RDMA: not asked
                    reader, errors);
  EXPECT_TRUE(got.empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code(), Status::Code::kNotFound);
  EXPECT_NE(errors[0].message().find("PF 0000:5e:00.0"), std::string::npos) << errors[0].message();
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
