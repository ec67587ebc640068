#include "sim/esxi_render.h"

#include <cmath>
#include <vector>

namespace rdmagw::sim {
namespace {

// esxcli tables: each column as wide as its widest cell, two spaces apart,
// dashes under the headers; numeric columns are right-aligned.
std::string table(const std::vector<std::string>& headers, const std::vector<bool>& right,
                  const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(headers.size());
  for (size_t c = 0; c < headers.size(); ++c) {
    width[c] = headers[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      const bool last = c + 1 == cells.size();
      out += (right[c] && !header) ? pad + cells[c] : cells[c] + (last ? "" : pad);
      if (!last) out += "  ";
    }
    return out + "\n";
  };
  std::string out = line(headers, true);
  std::vector<std::string> dashes;
  for (size_t w : width) dashes.push_back(std::string(w, '-'));
  out += line(dashes, true);
  for (const auto& r : rows) out += line(r, false);
  return out;
}

}  // namespace

std::string esxcliNicList(const EsxiHost& host, double link_gbps) {
  const std::string speed = std::to_string(uint64_t(std::llround(link_gbps * 1000)));  // Mb/s
  std::vector<std::vector<std::string>> rows;
  for (const Vmnic& n : host.nics) {
    rows.push_back({n.name, n.pci, n.driver, "Up", "Up", speed, "Full", n.mac, "9000",
                    n.description});
  }
  return table({"Name", "PCI Device", "Driver", "Admin Status", "Link Status", "Speed", "Duplex",
                "MAC Address", "MTU", "Description"},
               {false, false, false, false, false, true, false, false, true, false}, rows);
}

std::string esxcliNicStats(const Vmnic& nic) {
  const PortCounters& c = nic.port;
  std::string out = "NIC statistics for " + nic.name + "\n";
  auto add = [&out](const char* name, uint64_t v) {
    out += std::string("   ") + name + ": " + std::to_string(v) + "\n";
  };
  add("Packets received", c.rx_packets);
  add("Packets sent", c.tx_packets);
  add("Bytes received", c.rx_bytes);
  add("Bytes sent", c.tx_bytes);
  add("Receive packets dropped", c.rx_discards_phy);
  add("Transmit packets dropped", 0);
  add("Multicast packets received", c.rx_multicast_packets);
  add("Broadcast packets received", c.rx_broadcast_packets);
  add("Multicast packets sent", c.tx_multicast_packets);
  add("Broadcast packets sent", c.tx_broadcast_packets);
  for (const char* zero :
       {"Total receive errors", "Receive length errors", "Receive over errors",
        "Receive CRC errors", "Receive frame errors", "Receive FIFO errors",
        "Receive missed errors", "Total transmit errors", "Transmit aborted errors",
        "Transmit carrier errors", "Transmit FIFO errors", "Transmit heartbeat errors",
        "Transmit window errors"}) {
    add(zero, 0);
  }
  return out;
}

std::string vsishPnicStats(const Vmnic& nic, int roce_priority) {
  const PortCounters& c = nic.port;
  std::string out = "{\n   \"dumsw\" : \"\",\n";
  auto top = [&out](const char* name, uint64_t v) {
    out += std::string("   \"") + name + "\" : " + std::to_string(v) + ",\n";
  };
  top("rxpkt", c.rx_packets);
  top("txpkt", c.tx_packets);
  top("rxbytes", c.rx_bytes);
  top("txbytes", c.tx_bytes);
  top("rxerr", 0);
  top("txerr", 0);
  top("rxdrp", c.rx_discards_phy);
  top("txdrp", 0);
  top("rxmltcast", c.rx_multicast_packets);
  top("rxbrdcast", c.rx_broadcast_packets);
  top("txmltcast", c.tx_multicast_packets);
  top("txbrdcast", c.tx_broadcast_packets);
  for (const char* zero : {"col", "rxlgterr", "rxoverr", "rxcrcerr", "rxfrmerr", "rxfifoerr",
                           "rxmisserr", "txaborterr", "txcarerr", "txfifoerr", "txhearterr",
                           "txwinerr", "intrxpkt", "inttxpkt", "intrxdrp", "inttxdrp"}) {
    top(zero, 0);
  }
  // The driver-private block: one "name: value" per line inside "hw".
  std::string hw;
  auto priv = [&hw](const std::string& name, uint64_t v) {
    hw += name + ": " + std::to_string(v) + "\n";
  };
  priv("rxPackets", c.rx_packets);
  priv("txPackets", c.tx_packets);
  priv("rxBytes", c.rx_bytes);
  priv("txBytes", c.tx_bytes);
  priv("rxDiscardsPhy", c.rx_discards_phy);
  priv("rxOutOfBuffer", c.out_of_buffer);
  priv("rxPauseCtrlPhy", c.rx_pause_ctrl_phy);
  priv("txPauseCtrlPhy", c.tx_pause_ctrl_phy);
  // 802.3x global pause is off on a PFC fabric.
  for (const char* zero : {"rx_global_pause", "rx_global_pause_duration", "tx_global_pause",
                           "tx_global_pause_duration", "rx_global_pause_transition"}) {
    priv(zero, 0);
  }
  priv("tx_pause_storm_warning_events", c.tx_pause_storm_warning_events);
  priv("tx_pause_storm_error_events", c.tx_pause_storm_error_events);
  for (int p : {0, roce_priority}) {
    const bool roce = p == roce_priority;
    const std::string rx = "rx_prio" + std::to_string(p);
    const std::string tx = "tx_prio" + std::to_string(p);
    priv(rx + "_pause", roce ? c.rx_roce_prio_pause : 0);
    priv(rx + "_pause_duration", roce ? c.rx_roce_prio_pause_duration : 0);
    priv(tx + "_pause", roce ? c.tx_roce_prio_pause : 0);
    priv(tx + "_pause_duration", roce ? c.tx_roce_prio_pause_duration : 0);
    priv(rx + "_pause_transition", roce ? c.rx_roce_prio_pause_transition : 0);
    if (roce_priority == 0) break;  // prio 0 is the RoCE one: print it once
  }
  hw += "rxq0: packets=" + std::to_string(c.rx_packets) + " bytes=" + std::to_string(c.rx_bytes) +
        " csumErr=0\n";
  hw += "txq0: packets=" + std::to_string(c.tx_packets) + " bytes=" + std::to_string(c.tx_bytes) +
        " stopped=0\n";
  out += "   \"hw\" : \"" + hw + "\",\n}\n";
  return out;
}

std::string esxcliNicDcbStatus(const Vmnic& nic, const RoceQosPlan& plan) {
  auto eight = [](auto value) {
    std::string out;
    for (int i = 0; i < kPriorities; ++i) out += (i ? " " : "") + value(i);
    return out;
  };
  const std::string pfc =
      eight([&](int p) { return std::string(p == plan.roce_priority && nic.port.pfc_roce ? "1" : "0"); });
  const HostEts ets = hostEts(nic.port, plan);
  const std::string bw = eight([&](int tc) { return std::to_string(ets.bw[tc]); });
  // IEEE 802.1Qaz TSA codes: 0 strict, 2 ETS.
  const std::string tsa = eight([&](int tc) { return std::string(ets.strict[tc] ? "0" : "2"); });
  const std::string prio_tc = eight([&](int p) { return std::to_string(ets.prio_tc[p]); });
  return "   Nic Name: " + nic.name + "\n"
         "   Mode: 3 - IEEE Mode\n"
         "   Enabled: true\n"
         "   Capabilities:\n"
         "         Priority Group: true\n"
         "         Priority Flow Control: true\n"
         "         PG Traffic Classes: 8\n"
         "         PFC Traffic Classes: 8\n"
         "   PFC Enabled: " + std::string(nic.port.pfc_roce ? "true" : "false") + "\n"
         "   PFC Configuration: " + pfc + "\n"
         "   IEEE ETS Configuration:\n"
         "         Willing Bit In ETS Config TLV: 0\n"
         "         Supported Capacity: 8\n"
         "         Credit Based Shaper ETS Algorithm Supported: 0x0\n"
         "         TX Bandwidth Per TC: " + bw + "\n"
         "         RX Bandwidth Per TC: " + bw + "\n"
         "         TSA Assignment Table Per TC: " + tsa + "\n"
         "         Priority Assignment Per TC: " + prio_tc + "\n"
         "   IEEE PFC Configuration:\n"
         "         Number Of Traffic Classes: 8\n"
         "         PFC Configuration: " + pfc + "\n"
         "         Macsec Bypass Capability Is Enabled: 0\n"
         "         Round Trip Propagation Delay Of Link: 0\n";
}

}  // namespace rdmagw::sim
