// What the simulator renders for interface state, read back by the real
// parsers: every kind of interface it simulates (Nexus Ethernet, mgmt0 and
// ii ports, text and `| json`; ESXi vmnics; Linux netdevs in sysfs) shows
// speed, MTU, description, CRC and admin/oper state, as the recorded outputs
// do, and the internal ii links count the traffic that crosses them.

#include <gtest/gtest.h>

#include <string>

#include "models/update.h"
#include "sim/cli_catalog.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "southbound/esxi/esxi_nic_list.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/rdma/netdev_dcb.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/support/test_support.h"

namespace rdmagw::sim {
namespace {

using testing::strAt;
using testing::u64At;

const Fabric& fabric() {
  static const Fabric* f = [] {
    FabricConfig c;
    c.link_gbps = 25;
    auto* fab = new Fabric(c);
    for (int t = 0; t < 20; ++t) fab->step();
    return fab;
  }();
  return *f;
}

std::string render(const std::vector<RenderedCommand>& outputs, const std::string& command) {
  for (const RenderedCommand& c : outputs) {
    if (c.command == command) return c.output;
  }
  ADD_FAILURE() << "no " << command;
  return "";
}

std::string ifPath(const std::string& ifname, const std::string& leaf) {
  return "/interfaces/interface[name=" + ifname + "]/" + leaf;
}

TEST(InterfaceStateRenderTest, NexusShowInterfaceTextAndJsonParseToEveryPortsState) {
  const Switch& sw = fabric().switches()[0];
  const std::vector<RenderedCommand> outputs = renderSwitch(fabric(), sw);
  for (const char* command : {"show interface", "show interface | json"}) {
    SCOPED_TRACE(command);
    PollBatch b;
    ASSERT_TRUE(southbound::nxos::parseInterface(render(outputs, command), 1, b).isOk());
    EXPECT_TRUE(b.errors.empty()) << b.errors.front();
    bool ii_seen = false;
    for (const SwitchPort& p : sw.ports) {
      SCOPED_TRACE(p.name);
      EXPECT_EQ(strAt(b, ifPath(p.name, "state/oper-status")), "UP");
      EXPECT_EQ(strAt(b, ifPath(p.name, "state/admin-status")), "UP");
      EXPECT_EQ(strAt(b, ifPath(p.name, "state/description")), p.description);
      EXPECT_EQ(u64At(b, ifPath(p.name, "state/mtu")), kPortMtu);
      EXPECT_EQ(u64At(b, ifPath(p.name, "state/speed")), 25'000'000'000u);
      EXPECT_EQ(strAt(b, ifPath(p.name, "ethernet/state/port-speed")), "SPEED_25GB");
      EXPECT_EQ(u64At(b, ifPath(p.name, "state/counters/in-fcs-errors")), p.in_error);
      EXPECT_EQ(u64At(b, ifPath(p.name, "state/counters/in-octets")), p.in_octets);
      EXPECT_EQ(u64At(b, ifPath(p.name, "state/counters/out-octets")), p.out_octets);
      if (p.kind == PortKind::kInternal) ii_seen = true;
    }
    EXPECT_TRUE(ii_seen);
    EXPECT_EQ(u64At(b, ifPath("mgmt0", "state/speed")), 1'000'000'000u);
    EXPECT_EQ(strAt(b, ifPath("mgmt0", "state/oper-status")), "UP");
  }
}

TEST(InterfaceStateRenderTest, TrafficBetweenTheAsicsCountsOnTheIiPorts) {
  // The default fabric has hosts on both ASICs talking to each other.
  uint64_t ii_octets = 0;
  for (const SwitchPort& p : fabric().switches()[0].ports) {
    if (p.kind == PortKind::kInternal) ii_octets += p.in_octets;
  }
  EXPECT_GT(ii_octets, 0u);
}

TEST(InterfaceStateRenderTest, EsxiNicListParsesToSpeedMtuAndStates) {
  ASSERT_FALSE(fabric().esxiHosts().empty());
  const EsxiHost& esx = fabric().esxiHosts()[0];
  PollBatch b;
  ASSERT_TRUE(southbound::esxi::parseEsxiNicList(render(renderEsxi(fabric(), esx), "esxcli network nic list"), 1, b)
                  .isOk());
  EXPECT_TRUE(b.errors.empty()) << b.errors.front();
  for (const Vmnic& n : esx.nics) {
    const std::string base = "/hypervisor/nics/nic[name=" + n.name + "]/state/";
    EXPECT_EQ(u64At(b, base + "speed"), 25'000'000'000u);
    EXPECT_EQ(u64At(b, base + "mtu"), 9000u);
    EXPECT_EQ(strAt(b, base + "link-state"), "Up");
    EXPECT_EQ(strAt(b, base + "admin-status"), "Up");
  }
}

TEST(InterfaceStateRenderTest, LinuxSysfsNetdevHasSpeedAndLinkState) {
  testing::TempDir tmp("rdmagw-sim-netdev");
  ASSERT_TRUE(writeTree(fabric(), tmp.path()).isOk());
  const Host& host = fabric().hosts()[0];
  southbound::rdma::SysfsReaderImpl reader(tmp.path() + "/" + host.name + "/sys");
  for (const Device& d : host.devices) {
    PollBatch b;
    southbound::rdma::appendNetdevDcb(reader, nullptr, d.netdev, 1, b);
    EXPECT_TRUE(b.errors.empty()) << b.errors.front();
    EXPECT_EQ(u64At(b, ifPath(d.netdev, "state/speed")), 25'000'000'000u);
    EXPECT_EQ(strAt(b, ifPath(d.netdev, "ethernet/state/port-speed")), "SPEED_25GB");
    EXPECT_EQ(strAt(b, ifPath(d.netdev, "state/oper-status")), "UP");
    EXPECT_EQ(strAt(b, ifPath(d.netdev, "state/admin-status")), "UP");
    EXPECT_EQ(u64At(b, ifPath(d.netdev, "state/mtu")), 9000u);
  }
}

}  // namespace
}  // namespace rdmagw::sim
