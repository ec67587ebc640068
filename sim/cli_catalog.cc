#include "sim/cli_catalog.h"

#include "sim/esxi_render.h"
#include "sim/nxos_render.h"
#include "sim/roce_qos.h"

namespace rdmagw::sim {

std::vector<RenderedCommand> renderSwitch(const Fabric& fabric, const Switch& sw) {
  NxosView view;
  view.roce_priority = fabric.config().roce_priority;
  view.cnp_priority = fabric.cnpPriority();
  const RoceQosPlan plan = fabric.roceQos();
  view.link_gbps = fabric.config().link_gbps;
  view.tick = fabric.tick();
  const std::vector<std::string>& c = nxosCommands();
  return {
      {c[0], nxosShowPfc(sw, view)},
      {c[1], nxosShowQueuing(sw, view)},
      {c[2], nxosShowQueuingJson(sw, view)},
      {c[3], nxosShowInterface(sw, view)},
      {c[4], nxosShowInterfaceJson(sw, view)},
      {c[5], nxosShowCountersErrors(sw, view)},
      {c[6], nxosShowLldpNeighbors(sw)},
      {c[7], nxosShowLldpNeighborsJson(sw)},
      {c[8], nxosShowNetworkQos(sw, plan)},
      {c[9], nxosShowClassMapQos()},
      {c[10], nxosRunningConfigIpqos(sw, plan)},
      {c[11], nxosShowPfcQueueDetail(sw, plan)},
  };
}

std::vector<RenderedCommand> renderEsxi(const Fabric& fabric, const EsxiHost& host) {
  std::vector<RenderedCommand> out;
  out.push_back({"esxcli network nic list", esxcliNicList(host, fabric.config().link_gbps)});
  for (const Vmnic& nic : host.nics) {
    out.push_back({"esxcli network nic stats get -n " + nic.name, esxcliNicStats(nic)});
    out.push_back({"vsish -e cat /net/pNics/" + nic.name + "/stats",
                   vsishPnicStats(nic, fabric.config().roce_priority)});
    out.push_back({"esxcli network nic dcb status get -n " + nic.name,
                   esxcliNicDcbStatus(nic, fabric.roceQos())});
  }
  return out;
}

}  // namespace rdmagw::sim
