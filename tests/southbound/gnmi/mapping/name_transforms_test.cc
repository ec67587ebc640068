// Label values equal the SSH parsers' for the same port, queue, priority.

#include <gtest/gtest.h>

#include "southbound/gnmi/mapping/name_transforms.h"
#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::gnmi {
namespace {

TEST(NameTransforms, InterfaceNamesLikeTheSshParsers) {
  for (std::string_view in : {"eth1/1", "Eth1/1", "Ethernet1/1", "ethernet1/1", "e1/1", "eth1/1/2", "Eth1/1/2",
                              "Br-Eth1/1/2", "po7", "Po7", "port-channel7", "veth9", "ii1/1/1", "mgmt0", "Vlan1",
                              "vlan3745", "nve1", "Ethernet101/1/5"}) {
    std::optional<std::string> ssh = nxos::normalizeIfName(in);
    ASSERT_TRUE(ssh.has_value()) << in;
    EXPECT_EQ(ifName(in), *ssh) << in;
  }
  EXPECT_EQ(ifName("eth1/1"), "Ethernet1/1");
  EXPECT_EQ(ifName("eth1/1/2"), "Ethernet1/1/2");
  // The native model's short port-channel form.
  EXPECT_EQ(ifName("pc12"), "port-channel12");
  // Not interface-shaped: as sent.
  for (std::string_view in : {"", "1/1", "eth", "eth1/", "weird name"}) EXPECT_EQ(ifName(in), in);
}

TEST(NameTransforms, QueueClassToQosGroup) {
  auto group = [](std::string_view n) {
    std::string_view g;
    return qosGroupOf(n, g) ? std::string(g) : std::string("none");
  };
  EXPECT_EQ(group("c-out-8q-q3"), "3");
  EXPECT_EQ(group("c-out-8q-q7"), "7");
  EXPECT_EQ(group("c-out-q2"), "2");
  EXPECT_EQ(group("c-8q-nq3"), "3");
  EXPECT_EQ(group("c-out-8q-q-default"), "0");
  EXPECT_EQ(group("c-out-q-default"), "0");
  EXPECT_EQ(group("class-default"), "0");
  EXPECT_EQ(group("3"), "3");
  EXPECT_EQ(group("RDMA"), "none");
  EXPECT_EQ(group("c-out-8q"), "none");
  EXPECT_EQ(group("queue3"), "none");
  EXPECT_EQ(group(""), "none");
}

TEST(NameTransforms, PriorityFromClassAssumesQosGroupEqualsCos) {
  std::string_view p;
  ASSERT_TRUE(priorityOf("c-out-8q-q3", p));
  EXPECT_EQ(p, "3");
  ASSERT_TRUE(priorityOf("c-out-8q-q-default", p));
  EXPECT_EQ(p, "0");
  EXPECT_FALSE(priorityOf("c-out-8q-q8", p));
  EXPECT_FALSE(priorityOf("c-out-8q-q12", p));
  EXPECT_FALSE(priorityOf("RDMA", p));
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
