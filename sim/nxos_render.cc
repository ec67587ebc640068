#include "sim/nxos_render.h"

#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <vector>

namespace rdmagw::sim {
namespace {

void appendf(std::string* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string* out, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list again;
  va_copy(again, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    const size_t at = out->size();
    out->resize(at + size_t(n) + 1);
    std::vsnprintf(out->data() + at, size_t(n) + 1, fmt, again);
    out->resize(at + size_t(n));
  }
  va_end(again);
}

// "On  (8)": the VL bitmap is hex (priority 5 shows as (20)).
std::string operBitmap(int prio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "On  (%x)", 1u << prio);
  return buf;
}

void separator(std::string* out) {
  out->append("+-------------------------------------------------------------+\n");
}

void titleRow(std::string* out, const std::string& title) {
  // The title sits at column 31 of the 61-wide box, as NX-OS prints it.
  std::string row(61, ' ');
  row.replace(30, title.size(), title);
  out->append("|" + row.substr(0, 61) + "|\n");
}

void statRow(std::string* out, const char* label, uint64_t uc, uint64_t mc) {
  appendf(out, "|%26s |%16" PRIu64 "|%16" PRIu64 "|\n", label, uc, mc);
}

void egressConfig(std::string* out, int roce, int cnp) {
  out->append(
      "------------------------------------------------------------------------------\n"
      "QoS-Group# Bandwidth% PrioLevel                Shape                   QLimit\n"
      "                                   Min          Max        Units   \n"
      "------------------------------------------------------------------------------\n");
  for (int q = kQosGroups - 1; q >= 0; --q) {
    if (q == cnp) {
      appendf(out, "%7d%14s%10s%12s%13s%6s%16s\n", q, "-", "1", "-", "-", "-", "9(D)");
    } else {
      const char* bw = q == roce ? "50" : (q == 0 || (roce == 0 && q == 1)) ? "50" : "0";
      appendf(out, "%7d%14s%10s%12s%13s%6s%16s\n", q, bw, "-", "0", "0", "-", "9(D)");
    }
  }
}

std::string speedText(double gbps) {
  char buf[32];
  if (gbps == std::floor(gbps)) {
    std::snprintf(buf, sizeof buf, "%.0f Gb/s", gbps);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f Gb/s", gbps);
  }
  return buf;
}

std::string portMac(const Switch& sw, size_t index) {
  // Base MAC plus the port number in the low bytes.
  return sw.mac.substr(0, 10) + [&] {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04x", unsigned(index + 1) & 0xffff);
    return std::string(buf);
  }();
}

bool shown(const SwitchPort& p) { return p.kind != PortKind::kInternal; }

}  // namespace

std::string nxosShowPfc(const Switch& sw, const NxosView& view) {
  std::string out =
      "\n"
      "============================================================\n"
      "Port               Mode Oper(VL bmap)  RxPPP      TxPPP\n"
      "============================================================\n"
      "\n";
  const std::string oper = operBitmap(view.roce_priority);
  for (const SwitchPort& p : sw.ports) {
    // Host-facing ports have PFC configured on; ii ports follow DCBX (Auto).
    // A port with PFC turned off (pfc-mismatch-switch) shows Off/Off.
    const char* mode = !p.pfc_roce ? "Off" : p.kind == PortKind::kInternal ? "Auto" : "On";
    appendf(&out, "%-19s%-5s%-14s%-11" PRIu64 "%" PRIu64 "\n", p.name.c_str(), mode,
            p.pfc_roce ? oper.c_str() : "Off", p.rxPpp(), p.txPpp());
  }
  out += "\n";
  return out;
}

std::string nxosShowQueuing(const Switch& sw, const NxosView& view) {
  const int roce = view.roce_priority;
  const int cnp = view.cnp_priority;
  std::string out = "\nslot  1\n=======\n\n";
  for (size_t i = 0; i < sw.ports.size(); ++i) {
    const SwitchPort& p = sw.ports[i];
    if (!shown(p)) continue;
    out += "\nEgress Queuing for " + p.name + " [System]\n";
    egressConfig(&out, roce, cnp);
    for (int q = 0; q < kQosGroups; ++q) {
      const QueueCounters& c = p.queues[q];
      separator(&out);
      titleRow(&out, "QOS GROUP " + std::to_string(q));
      separator(&out);
      out += "|                           |  Unicast       |Multicast       |\n";
      separator(&out);
      statRow(&out, "Tx Pkts", c.uc_tx_pkts, c.mc_tx_pkts);
      statRow(&out, "Tx Byts", c.uc_tx_bytes, c.mc_tx_bytes);
      statRow(&out, "WRED/AFD & Tail Drop Pkts", c.drop_pkts, 0);
      statRow(&out, "WRED/AFD & Tail Drop Byts", c.drop_bytes, 0);
      statRow(&out, "ECN Pkts", c.ecn_pkts, 0);
      statRow(&out, "ECN Byts", c.ecn_bytes, 0);
      statRow(&out, "Q Depth Byts", c.depth_bytes, 0);
      statRow(&out, "WD & Tail Drop Pkts", 0, 0);
    }
    separator(&out);
    out += "\nIngress Queuing for " + p.name + "\n";
    out += "-----------------------------------------------------\n"
           "QoS-Group#                 Pause                    \n"
           "           Buff Size       Pause Th      Resume Th  \n"
           "-----------------------------------------------------\n";
    for (int q = kQosGroups - 1; q >= 0; --q) {
      if (q == roce) {
        appendf(&out, "%7d%15s%13s%13s\n", q, "348608", "77376", "75712");
      } else {
        appendf(&out, "%7d%15s%13s%13s\n", q, "-", "-", "-");
      }
    }
    out += "\nPer Port Ingress Statistics\n"
           "--------------------------------------------------------\n";
    appendf(&out, "%26s%28d\n", "Hi Priority Drop Pkts", 0);
    appendf(&out, "%26s%28d\n", "Low Priority Drop Pkts", 0);
    appendf(&out, "%26s%28" PRIu64 "\n", "Ingress Overflow Drop Pkts", p.ingress_overflow_drops);
    out += "\nPFC Statistics\n"
           "------------------------------------------------------------------------------\n";
    appendf(&out, "TxPPP: %20" PRIu64 ",   RxPPP: %20" PRIu64 "\n", p.txPpp(), p.rxPpp());
    out += "------------------------------------------------------------------------------\n"
           "PFC_COS QOS_Group   TxPause             TxCount   RxPause             RxCount\n";
    for (int c = 0; c < kPriorities; ++c) {
      appendf(&out, "%7d%10d  %-8s%20" PRIu64 "  %-8s%20" PRIu64 "\n", c, c == roce ? c : 0,
              "Inactive", p.tx_ppp[c], "Inactive", p.rx_ppp[c]);
    }
    out += "------------------------------------------------------------------------------\n\n";
  }
  return out;
}

std::string nxosShowInterface(const Switch& sw, const NxosView& view) {
  std::string out;
  // mgmt0 carries the SSH sessions that read this very output.
  const uint64_t t = uint64_t(view.tick) + 1;
  appendf(&out,
          "mgmt0 is up\n"
          "admin state is up,\n"
          "  Hardware: GigabitEthernet, address: %s (bia %s)\n"
          "  MTU 1500 bytes, BW 1000000 Kbit, DLY 10 usec\n"
          "  reliability 255/255, txload 1/255, rxload 1/255\n"
          "  Encapsulation ARPA, medium is broadcast\n"
          "  full-duplex, 1000 Mb/s\n"
          "  Auto-Negotiation is turned on\n"
          "  Auto-mdix is turned off\n"
          "  EtherType is 0x0000 \n"
          "  1 minute input rate 1312 bits/sec, 1 packets/sec\n"
          "  1 minute output rate 4000 bits/sec, 1 packets/sec\n"
          "  Rx\n"
          "    %" PRIu64 " input packets %" PRIu64 " unicast packets %" PRIu64
          " multicast packets\n"
          "    %" PRIu64 " broadcast packets %" PRIu64 " bytes\n"
          "  Tx\n"
          "    %" PRIu64 " output packets %" PRIu64 " unicast packets %" PRIu64
          " multicast packets\n"
          "    %" PRIu64 " broadcast packets %" PRIu64 " bytes\n\n",
          sw.mac.c_str(), sw.mac.c_str(), 42 * t, 40 * t, t, t, 42 * t * 88, 60 * t, 58 * t, 2 * t,
          uint64_t(0), 60 * t * 210);
  const std::string speed = speedText(view.link_gbps);
  const uint64_t bw_kbit = uint64_t(std::llround(view.link_gbps * 1e6));
  // Every port, the internal ii links between the ASICs included: they are
  // ports of the switch with counters of their own (IF-MIB rows).
  for (size_t i = 0; i < sw.ports.size(); ++i) {
    const SwitchPort& p = sw.ports[i];
    const std::string mac = portMac(sw, i);
    appendf(&out,
            "%s is up\n"
            "admin state is up, Dedicated Interface\n"
            "  Hardware: 40000/100000 Ethernet, address: %s (bia %s)\n"
            "  Description: %s\n"
            "  MTU %" PRIu64 " bytes, BW %" PRIu64 " Kbit, DLY 10 usec\n"
            "  reliability 255/255, txload 1/255, rxload 1/255\n"
            "  Encapsulation ARPA, medium is broadcast\n"
            "  Port mode is routed\n"
            "  full-duplex, %s, media type is 100G\n"
            "  Beacon is turned off\n"
            "  Auto-Negotiation is turned on  FEC mode is Auto\n"
            "  Input flow-control is off, output flow-control is off\n"
            "  Auto-mdix is turned off\n"
            "  Rate mode is dedicated\n"
            "  Switchport monitor is off \n"
            "  EtherType is 0x8100 \n"
            "  EEE (efficient-ethernet) : n/a\n"
            "  Last link flapped 5d01h\n"
            "  Last clearing of \"show interface\" counters never\n"
            "  1 interface resets\n",
            p.name.c_str(), mac.c_str(), mac.c_str(), p.description.c_str(), p.mtu, bw_kbit,
            speed.c_str());
    appendf(&out,
            "  30 seconds input rate %" PRIu64 " bits/sec, %" PRIu64 " packets/sec\n"
            "  30 seconds output rate %" PRIu64 " bits/sec, %" PRIu64 " packets/sec\n",
            p.in_bps, p.in_pps, p.out_bps, p.out_pps);
    appendf(&out,
            "  RX\n"
            "    %" PRIu64 " unicast packets  %" PRIu64 " multicast packets  %" PRIu64
            " broadcast packets\n"
            "    %" PRIu64 " input packets  %" PRIu64 " bytes\n"
            "    %" PRIu64 " jumbo packets  0 storm suppression bytes\n"
            "    0 runts  0 giants  %" PRIu64 " CRC  0 no buffer\n"
            "    %" PRIu64 " input error  0 short frame  0 overrun   0 underrun  0 ignored\n"
            "    0 watchdog  0 bad etype drop  0 bad proto drop  0 if down drop\n"
            "    0 input with dribble  %" PRIu64 " input discard\n"
            "    %" PRIu64 " Rx pause\n",
            // The fabric's receive errors are CRC errors (as FCS-Err in
            // `show interface counters errors`).
            p.in_ucast, p.in_mcast, p.in_bcast, p.inPackets(), p.in_octets, p.in_jumbo, p.in_error,
            p.in_error, p.in_discard, p.in_pause);
    appendf(&out,
            "  TX\n"
            "    %" PRIu64 " unicast packets  %" PRIu64 " multicast packets  %" PRIu64
            " broadcast packets\n"
            "    %" PRIu64 " output packets  %" PRIu64 " bytes\n"
            "    %" PRIu64 " jumbo packets\n"
            "    %" PRIu64 " output error  0 collision  0 deferred  0 late collision\n"
            "    0 lost carrier  0 no carrier  0 babble  %" PRIu64 " output discard\n"
            "    %" PRIu64 " Tx pause\n\n",
            p.out_ucast, p.out_mcast, p.out_bcast, p.outPackets(), p.out_octets, p.out_jumbo,
            p.out_error, p.out_discard, p.out_pause);
  }
  return out;
}

}  // namespace rdmagw::sim

namespace rdmagw::sim {

// The layout of the recorded N9K output (genie's golden file): five sections
// of up to six columns, ports abbreviated Eth1/N, mgmt0 first with `--` where
// NX-OS does not count a column, SQETest-Err `--` on Ethernet ports.
std::string nxosShowCountersErrors(const Switch& sw, const NxosView& view) {
  const std::string rule(80, '-');
  auto eth = [](const std::string& name) {
    return name.rfind("Ethernet", 0) == 0 ? "Eth" + name.substr(8) : name;
  };
  auto num = [](uint64_t v) { return std::to_string(v); };
  const uint64_t t = uint64_t(view.tick) + 1;
  std::string out = "\n";
  auto section = [&](const char* header, const std::vector<std::string>& mgmt0,
                     const std::function<std::vector<std::string>(const SwitchPort&)>& cols) {
    out += rule + "\n" + header + "\n" + rule + "\n";
    auto row = [&](const std::string& port, const std::vector<std::string>& v) {
      appendf(&out, "%-13s", port.c_str());
      for (size_t i = 0; i < v.size(); ++i) appendf(&out, i == 0 ? "%10s" : " %10s", v[i].c_str());
      out += "\n";
    };
    if (!mgmt0.empty()) row("mgmt0", mgmt0);
    for (const SwitchPort& p : sw.ports) {
      if (shown(p)) row(eth(p.name), cols(p));
    }
    out += "\n";
  };
  section("Port          Align-Err    FCS-Err   Xmit-Err    Rcv-Err  UnderSize OutDiscards",
          {"0", num(t / 100), "--", "--", "--", "--"}, [&](const SwitchPort& p) {
            // The fabric's receive errors are CRC errors (a bad cable or optic).
            return std::vector<std::string>{"0", num(p.in_error), num(p.out_error), num(p.in_error), "0",
                                            num(p.out_discard)};
          });
  section("Port           Single-Col  Multi-Col   Late-Col  Exces-Col  Carri-Sen       Runts",
          {"0", "0", "0", "0", "--", "--"},
          [](const SwitchPort&) { return std::vector<std::string>{"0", "0", "0", "0", "0", "0"}; });
  section("Port            Giants SQETest-Err Deferred-Tx IntMacTx-Er IntMacRx-Er Symbol-Err",
          {"0", "0", "0", "0", "0", "0"},
          [](const SwitchPort&) { return std::vector<std::string>{"0", "--", "0", "0", "0", "0"}; });
  section("Port           InDiscards", {"--"},
          [&](const SwitchPort& p) { return std::vector<std::string>{num(p.in_discard)}; });
  section("Port         Stomped-CRC", {},
          [](const SwitchPort&) { return std::vector<std::string>{"0"}; });
  return out;
}

}  // namespace rdmagw::sim
