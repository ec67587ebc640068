// The rendered CLI outputs of leaves and ESXi hosts: the layouts of the
// recorded device outputs, carrying exactly the model's counters.

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "sim/cli_catalog.h"
#include "sim/esxi_render.h"
#include "sim/fabric.h"
#include "sim/nxos_render.h"

namespace rdmagw::sim {
namespace {

const Fabric& fabric() {
  static const Fabric* f = [] {
    auto* fab = new Fabric(FabricConfig{});
    for (int t = 0; t < 40; ++t) fab->step();
    return fab;
  }();
  return *f;
}

std::string lineStartingWith(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

std::string render(const std::string& command) {
  for (const RenderedCommand& c : renderSwitch(fabric(), fabric().switches()[0])) {
    if (c.command == command) return c.output;
  }
  return "";
}

TEST(CliRenderTest, SlugsAreStableFileNames) {
  EXPECT_EQ(commandSlug("show interface priority-flow-control"),
            "show_interface_priority_flow_control");
  EXPECT_EQ(commandSlug("show queuing interface | json"), "show_queuing_interface_json");
  EXPECT_EQ(commandSlug("esxcli network nic stats get -n vmnic1"),
            "esxcli_network_nic_stats_get_n_vmnic1");
  EXPECT_EQ(commandSlug("vsish -e cat /net/pNics/vmnic0/stats"),
            "vsish_e_cat_net_pnics_vmnic0_stats");
}

TEST(CliRenderTest, PfcTableHasEveryPortInTheN9kColumns) {
  const std::string out = render("show interface priority-flow-control");
  EXPECT_NE(out.find("Port               Mode Oper(VL bmap)  RxPPP      TxPPP\n"),
            std::string::npos);
  for (const SwitchPort& p : fabric().switches()[0].ports) {
    char want[128];
    std::snprintf(want, sizeof want, "%-19s%-5s%-14s%-11llu%llu", p.name.c_str(),
                  p.kind == PortKind::kInternal ? "Auto" : "On", "On  (8)",
                  (unsigned long long)p.rxPpp(), (unsigned long long)p.txPpp());
    EXPECT_EQ(lineStartingWith(out, p.name + " "), want);
  }
  EXPECT_NE(out.find("ii1/1/4            Auto On  (8)"), std::string::npos);
}

TEST(CliRenderTest, QueuingTextCarriesQueueAndPfcCounters) {
  const std::string out = render("show queuing interface");
  const SwitchPort& p = fabric().switchPortOf(1);  // host01:mlx5_1, congested early
  ASSERT_GT(p.queues[3].ecn_pkts, 0u);
  const size_t at = out.find("Egress Queuing for " + p.name + " [System]");
  ASSERT_NE(at, std::string::npos);
  const size_t q3 = out.find("QOS GROUP 3", at);
  char ecn[128];
  std::snprintf(ecn, sizeof ecn, "|                  ECN Pkts |%16llu|               0|",
                (unsigned long long)p.queues[3].ecn_pkts);
  EXPECT_EQ(out.find(ecn, q3), out.find("ECN Pkts", q3) - 19);
  char ppp[128];
  std::snprintf(ppp, sizeof ppp, "TxPPP: %20llu,   RxPPP: %20llu", (unsigned long long)p.txPpp(),
                (unsigned long long)p.rxPpp());
  EXPECT_NE(out.find(ppp, at), std::string::npos);
  EXPECT_NE(out.find("PFC_COS QOS_Group   TxPause             TxCount   RxPause             RxCount",
                     at),
            std::string::npos);
  EXPECT_NE(out.find("Ingress Overflow Drop Pkts", at), std::string::npos);
  EXPECT_EQ(out.find("Egress Queuing for ii"), std::string::npos);
}

TEST(CliRenderTest, QueuingJsonUsesTheSchemaKeys) {
  const std::string out = render("show queuing interface | json");
  for (const char* key :
       {"\"TABLE_module\"", "\"ROW_module\"", "\"TABLE_queuing_interface\"",
        "\"ROW_queuing_interface\"", "\"if_name_str\": \"Ethernet1/1\"",
        "\"TABLE_qosgrp_egress_stats\"", "\"ROW_qosgrp_egress_stats\"", "\"eq-qosgrp\": \"3\"",
        "\"TABLE_qosgrp_egress_stats_entry\"", "\"ROW_qosgrp_egress_stats_entry\"",
        "\"eq-stat-type\": \"ECN\"", "\"eq-stat-type\": \"WRED/AFD & Tail Drop\"",
        "\"eq-stat-units\": \"Pkts\"", "\"eq-uc-stat-value\"", "\"TABLE_pfc_stats\"",
        "\"ROW_pfc_stats\"", "\"cos\": \"3\"", "\"tx-pause-count\"", "\"rx-pause-count\""}) {
    EXPECT_NE(out.find(key), std::string::npos) << key;
  }
  const SwitchPort& p = fabric().switchPortOf(0);
  EXPECT_NE(out.find("\"tx-ppp\": " + std::to_string(p.txPpp())), std::string::npos);
}

TEST(CliRenderTest, ShowInterfaceTextAndJsonCarryPortCounters) {
  const SwitchPort& p = fabric().switchPortOf(4);
  const std::string text = render("show interface");
  const size_t at = text.find(p.name + " is up\n");
  ASSERT_NE(at, std::string::npos);
  const std::string rx = "    " + std::to_string(p.in_ucast) + " unicast packets  " +
                         std::to_string(p.in_mcast) + " multicast packets  " +
                         std::to_string(p.in_bcast) + " broadcast packets\n    " +
                         std::to_string(p.inPackets()) + " input packets  " +
                         std::to_string(p.in_octets) + " bytes\n";
  EXPECT_EQ(text.find(rx, at), text.find("  RX\n", at) + 5);
  EXPECT_NE(text.find(std::to_string(p.outPackets()) + " output packets  " +
                          std::to_string(p.out_octets) + " bytes", at),
            std::string::npos);
  EXPECT_NE(text.find("    0 Rx pause\n", at), std::string::npos);
  EXPECT_EQ(text.rfind("mgmt0 is up\n", 0), 0u);

  const std::string json = render("show interface | json");
  const size_t row = json.find("\"interface\": \"" + p.name + "\"");
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(json.find("\"eth_inbytes\": " + std::to_string(p.in_octets), row), std::string::npos);
  EXPECT_NE(json.find("\"eth_outucast\": " + std::to_string(p.out_ucast), row), std::string::npos);
  EXPECT_NE(json.find("\"eth_inpause\": 0", row), std::string::npos);
  EXPECT_NE(json.find("\"TABLE_interface\""), std::string::npos);
}

TEST(CliRenderTest, CountersErrorsHasTheFiveRecordedSectionsPerPort) {
  const std::string text = render("show interface counters errors");
  for (const char* header : {"Port          Align-Err    FCS-Err   Xmit-Err    Rcv-Err  UnderSize OutDiscards",
                             "Port           Single-Col  Multi-Col   Late-Col  Exces-Col  Carri-Sen       Runts",
                             "Port            Giants SQETest-Err Deferred-Tx IntMacTx-Er IntMacRx-Er Symbol-Err",
                             "Port           InDiscards", "Port         Stomped-CRC"}) {
    EXPECT_NE(text.find(std::string(header) + "\n"), std::string::npos) << header;
  }
  const SwitchPort& p = fabric().switchPortOf(4);
  const std::string eth = "Eth" + p.name.substr(std::string("Ethernet").size());
  size_t rows = 0;
  for (size_t at = text.find("\n" + eth + " "); at != std::string::npos; at = text.find("\n" + eth + " ", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 5u) << "one row per section for " << eth;
  std::istringstream first(text.substr(text.find("\n" + eth + " ") + 1));
  std::string name, align, fcs, xmit, rcv, under, outdisc;
  first >> name >> align >> fcs >> xmit >> rcv >> under >> outdisc;
  EXPECT_EQ(fcs, std::to_string(p.in_error));
  EXPECT_EQ(outdisc, std::to_string(p.out_discard));
}

TEST(CliRenderTest, EsxiOutputsFollowTheRecordedLayouts) {
  const EsxiHost& esx = fabric().esxiHosts()[0];
  const std::string list = esxcliNicList(esx, 100);
  EXPECT_EQ(list.rfind("Name    PCI Device    Driver      Admin Status  Link Status  Speed", 0),
            0u);
  EXPECT_NE(list.find("\nvmnic1  0000:3b:00.1  nmlx5_core  Up"), std::string::npos);

  const Vmnic& nic = esx.nics[1];
  const std::string stats = esxcliNicStats(nic);
  EXPECT_EQ(stats.rfind("NIC statistics for vmnic1\n   Packets received: " +
                            std::to_string(nic.port.rx_packets) + "\n",
                        0),
            0u);
  EXPECT_NE(stats.find("   Receive packets dropped: " + std::to_string(nic.port.rx_discards_phy)),
            std::string::npos);
  EXPECT_NE(stats.find("   Transmit window errors: 0\n"), std::string::npos);

  const std::string vsish = vsishPnicStats(nic, 3);
  EXPECT_EQ(vsish.rfind("{\n   \"dumsw\" : \"\",\n   \"rxpkt\" : ", 0), 0u);
  ASSERT_GT(nic.port.rx_roce_prio_pause, 0u);
  for (const std::string& line :
       {"rx_prio3_pause: " + std::to_string(nic.port.rx_roce_prio_pause),
        "tx_prio3_pause: " + std::to_string(nic.port.tx_roce_prio_pause),
        "rxPauseCtrlPhy: " + std::to_string(nic.port.rx_pause_ctrl_phy),
        "txPauseCtrlPhy: " + std::to_string(nic.port.tx_pause_ctrl_phy),
        std::string("rx_global_pause_transition: 0")}) {
    EXPECT_NE(vsish.find("\n" + line + "\n"), std::string::npos) << line;
  }
  EXPECT_NE(vsish.find("   \"hw\" : \"rxPackets: "), std::string::npos);
  EXPECT_EQ(vsish.substr(vsish.size() - 5), "\",\n}\n");
}

}  // namespace
}  // namespace rdmagw::sim
