// What each endpoint's host advertises over LLDP to its leaf, as the leaf's
// `show lldp neighbors detail` prints it. Linux hosts run lldpd: system name
// the FQDN, chassis ID the MAC of the host's first port, port ID the port's
// MAC with the netdev as port description (lldpd's defaults). ESXi hosts on
// a distributed switch: system name the host name, port ID the vmnic.
// lldpctlJson is the other direction: what a Linux host's lldpd hears from
// its leaves (system name, MAC chassis ID, port ID the interface name).

#include <cctype>

#include "sim/fabric.h"
#include "sim/json_writer.h"

namespace rdmagw::sim {
namespace {

// 12 hex digits as NX-OS prints a MAC: 248a.07b4.a0c2.
std::string dotted(const std::string& hex12) {
  return hex12.substr(0, 4) + "." + hex12.substr(4, 4) + "." + hex12.substr(8, 4);
}

std::string hexDigits(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isxdigit(static_cast<unsigned char>(c))) out.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// A ConnectX port's MAC from its node GUID: the GUID is the MAC with ff:fe
// (or 03:00) inserted in the middle.
std::string macOfGuid(const std::string& guid) {
  const std::string h = hexDigits(guid);
  return dotted(h.substr(0, 6) + h.substr(10, 6));
}

}  // namespace

LldpNeighbor Fabric::lldpAdvertised(int e) const {
  LldpNeighbor n;
  if (e < device_count_) {
    const Host& host = hosts_[e / config_.devices_per_host];
    n.system_name = host.name + ".rdma.sim";
    n.chassis_id = macOfGuid(host.devices.front().node_guid);
    n.port_id = macOfGuid(device(e).node_guid);
    n.port_type = "Mac Address";
    n.port_desc = device(e).netdev;
    return n;
  }
  const int v = e - device_count_;
  const EsxiHost& esx = esxi_[v / 2];
  n.system_name = esx.name;
  n.chassis_id = dotted(hexDigits(esx.nics.front().mac));
  n.port_id = esx.nics[v % 2].name;
  n.port_type = "Locally Assigned";
  return n;
}

std::string Fabric::lldpctlJson(int h) const {
  JsonWriter j;
  j.beginObject().beginArray("lldp").beginObject().beginArray("interface");
  for (int d = 0; d < config_.devices_per_host; ++d) {
    const int e = h * config_.devices_per_host + d;
    const Switch& sw = switches()[attachment(e).sw];
    const std::string mac = hexDigits(sw.mac);
    std::string colons;
    for (size_t i = 0; i < mac.size(); i += 2) colons += (i ? ":" : "") + mac.substr(i, 2);
    auto value = [&j](const char* key, const std::string& v) {
      j.beginArray(key).beginObject().field("value", v).endObject().endArray();
    };
    j.beginObject().field("name", device(e).netdev).field("via", "LLDP").field("rid", std::to_string(d + 1));
    j.beginArray("chassis").beginObject();
    j.beginArray("id").beginObject().field("type", "mac").field("value", colons).endObject().endArray();
    value("name", sw.name);
    value("descr", "Cisco Nexus Operating System (NX-OS) Software 10.3(4a)");
    j.endObject().endArray();
    j.beginArray("port").beginObject();
    j.beginArray("id").beginObject().field("type", "ifname").field("value", switchPortOf(e).name).endObject().endArray();
    value("descr", switchPortOf(e).description);
    value("ttl", "120");
    j.endObject().endArray();
    j.endObject();
  }
  j.endArray().endObject().endArray().endObject();
  return j.take();
}

}  // namespace rdmagw::sim
