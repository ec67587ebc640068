// The NX-API `| json` forms of the leaf's outputs: key names from the N9K
// show-command schema (show queuing) and the napalm N9000 capture (show
// interface). Counters are JSON numbers, as the N9000 capture has them;
// single rows are still wrapped as arrays except ROW_module, which NX-OS
// prints as an object when there is one module.

#include <cmath>
#include <cstdio>

#include "sim/json_writer.h"
#include "sim/nxos_render.h"

namespace rdmagw::sim {
namespace {

const char* kStatTypes[][2] = {
    {"Tx", "Pkts"}, {"Tx", "Byts"},
    {"WRED/AFD & Tail Drop", "Pkts"}, {"WRED/AFD & Tail Drop", "Byts"},
    {"ECN", "Pkts"}, {"ECN", "Byts"},
    {"Q Depth", "Byts"}, {"WD & Tail Drop", "Pkts"},
};

void statEntry(JsonWriter& j, int row, uint64_t uc, uint64_t mc) {
  j.beginObject()
      .field("eq-stat-type", kStatTypes[row][0])
      .field("eq-stat-units", kStatTypes[row][1])
      .field("eq-uc-stat-value", uc)
      .field("eq-oobfc-uc-stat-value", uint64_t(0))
      .field("eq-mc-stat-value", mc)
      .endObject();
}

std::string speedText(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, gbps == std::floor(gbps) ? "%.0f Gb/s" : "%.1f Gb/s", gbps);
  return buf;
}

}  // namespace

std::string nxosShowQueuingJson(const Switch& sw, const NxosView& view) {
  const int roce = view.roce_priority;
  JsonWriter j;
  j.beginObject().beginObject("TABLE_module").beginObject("ROW_module").field("module", "1");
  j.beginObject("TABLE_queuing_interface").beginArray("ROW_queuing_interface");
  for (const SwitchPort& p : sw.ports) {
    if (p.kind == PortKind::kInternal) continue;
    j.beginObject().field("dir", "Egress").field("if_name_str", p.name);
    j.beginObject("TABLE_qosgrp_egress_stats").beginArray("ROW_qosgrp_egress_stats");
    for (int q = 0; q < kQosGroups; ++q) {
      const QueueCounters& c = p.queues[q];
      j.beginObject().field("eq-qosgrp", std::to_string(q));
      j.beginObject("TABLE_qosgrp_egress_stats_entry").beginArray("ROW_qosgrp_egress_stats_entry");
      statEntry(j, 0, c.uc_tx_pkts, c.mc_tx_pkts);
      statEntry(j, 1, c.uc_tx_bytes, c.mc_tx_bytes);
      statEntry(j, 2, c.drop_pkts, 0);
      statEntry(j, 3, c.drop_bytes, 0);
      statEntry(j, 4, c.ecn_pkts, 0);
      statEntry(j, 5, c.ecn_bytes, 0);
      statEntry(j, 6, c.depth_bytes, 0);
      statEntry(j, 7, 0, 0);
      j.endArray().endObject().endObject();
    }
    j.endArray().endObject().endObject();

    j.beginObject().field("dir", "Ingress").field("if_name_str", p.name);
    j.beginObject("TABLE_ingress_stats_entry").beginArray("ROW_ingress_stats_entry");
    const std::pair<const char*, uint64_t> ingress[] = {
        {"Hi Priority Drop", 0}, {"Low Priority Drop", 0},
        {"Ingress Overflow Drop", p.ingress_overflow_drops}};
    for (const auto& [type, value] : ingress) {
      j.beginObject()
          .field("ip-stat-type", type)
          .field("ip-stat-units", "Pkts")
          .field("ip-stat-value", value)
          .endObject();
    }
    j.endArray().endObject();
    j.field("tx-ppp", p.txPpp()).field("rx-ppp", p.rxPpp());
    j.beginObject("TABLE_pfc_stats").beginArray("ROW_pfc_stats");
    for (int c = 0; c < kPriorities; ++c) {
      j.beginObject()
          .field("cos", std::to_string(c))
          .field("pfc-qosgrp", std::to_string(c == roce ? c : 0))
          .field("tx-pause-state", "Inactive")
          .field("tx-pause-count", p.tx_ppp[c])
          .field("rx-pause-state", "Inactive")
          .field("rx-pause-count", p.rx_ppp[c])
          .endObject();
    }
    j.endArray().endObject().endObject();
  }
  j.endArray().endObject().endObject().endObject().endObject();
  return j.take();
}

std::string nxosShowInterfaceJson(const Switch& sw, const NxosView& view) {
  JsonWriter j;
  j.beginObject().beginObject("TABLE_interface").beginArray("ROW_interface");
  const uint64_t t = uint64_t(view.tick) + 1;
  j.beginObject()
      .field("interface", "mgmt0")
      .field("state", "up")
      .field("admin_state", "up")
      .field("eth_hw_desc", "GigabitEthernet")
      .field("eth_hw_addr", sw.mac)
      .field("eth_bia_addr", sw.mac)
      .field("eth_mtu", "1500")
      .field("eth_bw", uint64_t(1000000))
      .field("eth_duplex", "full")
      .field("eth_speed", "1000 Mb/s")
      .field("vdc_lvl_in_pkts", 42 * t)
      .field("vdc_lvl_in_ucast", 40 * t)
      .field("vdc_lvl_in_mcast", t)
      .field("vdc_lvl_in_bcast", t)
      .field("vdc_lvl_in_bytes", 42 * t * 88)
      .field("vdc_lvl_out_pkts", 60 * t)
      .field("vdc_lvl_out_ucast", 58 * t)
      .field("vdc_lvl_out_mcast", 2 * t)
      .field("vdc_lvl_out_bcast", uint64_t(0))
      .field("vdc_lvl_out_bytes", 60 * t * 210)
      .endObject();
  const uint64_t bw_kbit = uint64_t(std::llround(view.link_gbps * 1e6));
  // Every port, ii links included (as the text form).
  for (size_t i = 0; i < sw.ports.size(); ++i) {
    const SwitchPort& p = sw.ports[i];
    char mac[24];
    std::snprintf(mac, sizeof mac, "%s%04x", sw.mac.substr(0, 10).c_str(), unsigned(i + 1) & 0xffff);
    j.beginObject()
        .field("interface", p.name)
        .field("state", "up")
        .field("admin_state", "up")
        .field("share_state", "Dedicated")
        .field("eth_hw_desc", "40000/100000 Ethernet")
        .field("eth_hw_addr", mac)
        .field("eth_bia_addr", mac)
        .field("desc", p.description)
        .field("eth_mtu", std::to_string(p.mtu))
        .field("eth_bw", bw_kbit)
        .field("eth_dly", 10)
        .field("eth_reliability", "255")
        .field("eth_txload", "1")
        .field("eth_rxload", "1")
        .field("medium", "broadcast")
        .field("eth_mode", "routed")
        .field("eth_duplex", "full")
        .field("eth_speed", speedText(view.link_gbps))
        .field("eth_media", "100G")
        .field("eth_beacon", "off")
        .field("eth_autoneg", "on")
        .field("eth_in_flowctrl", "off")
        .field("eth_out_flowctrl", "off")
        .field("eth_mdix", "off")
        .field("eth_swt_monitor", "off")
        .field("eth_ethertype", "0x8100")
        .field("eth_eee_state", "n/a")
        .field("eth_link_flapped", "5d01h")
        .field("eth_clear_counters", "never")
        .field("eth_reset_cntr", 1)
        .field("eth_load_interval1_rx", 30)
        .field("eth_inrate1_bits", p.in_bps)
        .field("eth_inrate1_pkts", p.in_pps)
        .field("eth_load_interval1_tx", 30)
        .field("eth_outrate1_bits", p.out_bps)
        .field("eth_outrate1_pkts", p.out_pps)
        .field("eth_inucast", p.in_ucast)
        .field("eth_inmcast", p.in_mcast)
        .field("eth_inbcast", p.in_bcast)
        .field("eth_inpkts", p.inPackets())
        .field("eth_inbytes", p.in_octets)
        .field("eth_jumbo_inpkts", p.in_jumbo)
        .field("eth_storm_supp", 0)
        .field("eth_runts", 0)
        .field("eth_giants", 0)
        .field("eth_crc", p.in_error)
        .field("eth_nobuf", 0)
        .field("eth_inerr", p.in_error)
        .field("eth_frame", 0)
        .field("eth_overrun", 0)
        .field("eth_underrun", 0)
        .field("eth_ignored", 0)
        .field("eth_watchdog", 0)
        .field("eth_bad_eth", 0)
        .field("eth_bad_proto", 0)
        .field("eth_in_ifdown_drops", 0)
        .field("eth_dribble", 0)
        .field("eth_indiscard", p.in_discard)
        .field("eth_inpause", p.in_pause)
        .field("eth_outucast", p.out_ucast)
        .field("eth_outmcast", p.out_mcast)
        .field("eth_outbcast", p.out_bcast)
        .field("eth_outpkts", p.outPackets())
        .field("eth_outbytes", p.out_octets)
        .field("eth_jumbo_outpkts", p.out_jumbo)
        .field("eth_outerr", p.out_error)
        .field("eth_coll", 0)
        .field("eth_deferred", 0)
        .field("eth_latecoll", 0)
        .field("eth_lostcarrier", 0)
        .field("eth_nocarrier", 0)
        .field("eth_babbles", 0)
        .field("eth_outdiscard", p.out_discard)
        .field("eth_outpause", p.out_pause)
        .endObject();
  }
  j.endArray().endObject().endObject();
  return j.take();
}

}  // namespace rdmagw::sim
