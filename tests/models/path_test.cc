#include "models/path.h"

#include <gtest/gtest.h>

namespace rdmagw {
namespace {

TEST(PathTest, ParsesElementsAndKeys) {
  auto p = Path::parse("/interfaces/interface[name=Ethernet1/1]/state/counters/in-pkts");
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  ASSERT_EQ(p->elems().size(), 5u);
  EXPECT_EQ(p->elems()[1].name, "interface");
  EXPECT_EQ(p->elems()[1].keys.at("name"), "Ethernet1/1");
  EXPECT_EQ(p->elems()[4].name, "in-pkts");
  EXPECT_EQ(p->origin(), "");
}

TEST(PathTest, RoundTripsCanonicalForm) {
  const char* cases[] = {
      "/interfaces/interface[name=Ethernet1/1]/state/counters/in-pkts",
      "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent",
      "openconfig:/interfaces/interface[name=eth1/1]/state",
      "/a/b[k1=v1][k2=v2]/c",
      "/",
  };
  for (const char* c : cases) {
    auto p = Path::parse(c);
    ASSERT_TRUE(p.isOk()) << c << ": " << p.status().toString();
    EXPECT_EQ(p->toString(), c);
  }
}

TEST(PathTest, DmeKeyWithBracketsRoundTrips) {
  Path built;
  built.add("sys").add("intf").add("phys", {{"name", "phys-[eth1/1]"}}).add("dbgIfIn");
  std::string text = built.toString();
  EXPECT_EQ(text, "/sys/intf/phys[name=phys-[eth1/1\\]]/dbgIfIn");
  auto back = Path::parse(text);
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(*back, built);
  EXPECT_EQ(back->elems()[2].keys.at("name"), "phys-[eth1/1]");
}

TEST(PathTest, EscapedEqualsSlashAndBackslashInValues) {
  Path built;
  built.add("x", {{"k", "a=b/c\\d]e"}});
  auto back = Path::parse(built.toString());
  ASSERT_TRUE(back.isOk()) << back.status().toString();
  EXPECT_EQ(back->elems()[0].keys.at("k"), "a=b/c\\d]e");
  // An escaped '=' in a value parses to a plain '='.
  auto p = Path::parse("/x[k=a\\=b]");
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->elems()[0].keys.at("k"), "a=b");
}

TEST(PathTest, EscapedSlashInElementName) {
  Path built;
  built.add("a/b").add("c");
  EXPECT_EQ(built.toString(), "/a\\/b/c");
  auto back = Path::parse(built.toString());
  ASSERT_TRUE(back.isOk());
  EXPECT_EQ(back->elems()[0].name, "a/b");
}

TEST(PathTest, KeysAreCanonicallyOrdered) {
  auto p = Path::parse("/a[z=1][b=2]");
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->toString(), "/a[b=2][z=1]");
}

TEST(PathTest, RejectsMalformedPaths) {
  const char* bad[] = {"", "/a[k=v", "/a[kv]", "/a[=v]", "/a//b", "/a/", "/a[k=v][k=w]", "/a]b",
                       "/a\\"};
  for (const char* b : bad) {
    auto p = Path::parse(b);
    EXPECT_FALSE(p.isOk()) << "accepted: " << b;
    if (!p.isOk()) EXPECT_EQ(p.status().code(), Status::Code::kInvalidArgument);
  }
}

TEST(PathTest, KeylessStringDropsKeys) {
  auto p = Path::parse("/interfaces/interface[name=eth0]/ethernet/pfc/priorities/priority[id=3]/state");
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->keylessString(), "/interfaces/interface/ethernet/pfc/priorities/priority/state");
}

TEST(PathTest, PrefixMatchingWithWildcards) {
  auto leaf = *Path::parse("/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/rate");
  EXPECT_TRUE(leaf.hasPrefix(*Path::parse("/rdma/devices")));
  EXPECT_TRUE(leaf.hasPrefix(*Path::parse("/rdma/devices/device[name=mlx5_0]")));
  EXPECT_TRUE(leaf.hasPrefix(*Path::parse("/rdma/devices/device[name=*]/ports")));
  EXPECT_TRUE(leaf.hasPrefix(*Path::parse("/rdma/*/device")));
  EXPECT_FALSE(leaf.hasPrefix(*Path::parse("/rdma/devices/device[name=mlx5_1]")));
  EXPECT_FALSE(leaf.hasPrefix(*Path::parse("/interfaces")));
}

}  // namespace
}  // namespace rdmagw
