// `show lldp neighbors detail` of a simulated leaf, text and `| json`, in
// the layouts of the recorded outputs the parser is tested on
// (tests/fixtures/nxos: genie golden text, NetApp harvest NX-API JSON):
// local ports in NX-OS short form (Eth1/3), one block per host port.

#include "sim/json_writer.h"
#include "sim/nxos_render.h"

namespace rdmagw::sim {
namespace {

std::string shortName(const std::string& name) {
  constexpr std::string_view kEth = "Ethernet";
  return name.rfind(kEth, 0) == 0 ? "Eth" + name.substr(kEth.size()) : name;
}

bool heard(const SwitchPort& p) { return p.kind == PortKind::kHost && !p.lldp.system_name.empty(); }

std::string orNull(const std::string& s) { return s.empty() ? "null" : s; }

}  // namespace

std::string nxosShowLldpNeighbors(const Switch& sw) {
  std::string out =
      "Capability codes:\n"
      "  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device\n"
      "  (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other\n"
      "Device ID            Local Intf      Hold-time  Capability  Port ID  \n\n";
  int n = 0;
  for (const SwitchPort& p : sw.ports) {
    if (!heard(p)) continue;
    ++n;
    out += "Chassis id: " + p.lldp.chassis_id + "\n";
    out += "Port id: " + p.lldp.port_id + "\n";
    out += "Local Port id: " + shortName(p.name) + "\n";
    out += "Port Description: " + orNull(p.lldp.port_desc) + "\n";
    out += "System Name: " + p.lldp.system_name + "\n";
    out += "System Description: Linux 6.8.0 #1 SMP x86_64\n";
    out += "Time remaining: 101 seconds\n";
    out += "System Capabilities: S\nEnabled Capabilities: S\n";
    out += "Management Address: not advertised\nManagement Address IPV6: not advertised\n";
    out += "Vlan ID: not advertised\n\n\n";
  }
  out += "Total entries displayed: " + std::to_string(n) + "\n";
  return out;
}

std::string nxosShowLldpNeighborsJson(const Switch& sw) {
  JsonWriter j;
  j.beginObject().field("neigh_hdr", "neigh_hdr");
  int n = 0;
  for (const SwitchPort& p : sw.ports) n += heard(p) ? 1 : 0;
  if (n > 0) {
    j.beginObject("TABLE_nbor_detail").beginArray("ROW_nbor_detail");
    for (const SwitchPort& p : sw.ports) {
      if (!heard(p)) continue;
      j.beginObject()
          .field("chassis_type", "Mac Address")
          .field("chassis_id", p.lldp.chassis_id)
          .field("port_type", p.lldp.port_type)
          .field("port_id", p.lldp.port_id)
          .field("l_port_id", shortName(p.name))
          .field("port_desc", orNull(p.lldp.port_desc))
          .field("sys_name", p.lldp.system_name)
          .field("ttl", "101")
          .field("system_capability", "S")
          .field("enabled_capability", "S")
          .endObject();
    }
    j.endArray().endObject();
  }
  j.field("neigh_count", std::to_string(n)).endObject();
  return j.take();
}

}  // namespace rdmagw::sim
