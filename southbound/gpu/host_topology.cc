#include "southbound/gpu/host_topology.h"

#include <utility>

#include "southbound/gpu/nccl_topo_xml.h"

namespace rdmagw::southbound::gpu {

Result<HostTopology> readHostTopology(const HostTopologyOptions& options) {
  Result<PciTree> tree = readPciTree(options.sys_root);
  if (!tree.isOk()) return tree.status();
  HostTopology host;
  host.tree = std::move(tree).value();
  host.virtualization = detectVirtualization(options.sys_root, options.proc_root, host.tree);
  if (options.nccl_topology_xml) {
    Result<PciTree> file_tree = parseNcclTopoXml(*options.nccl_topology_xml);
    if (!file_tree.isOk()) {
      return Status::corrupt("NCCL topology file: " + file_tree.status().message());
    }
    adoptRdmaNames(file_tree.value(), host.tree);
    host.from_nccl_topology_file = true;
    host.topology = buildTopology(*file_tree);
    return host;
  }
  if (host.virtualization.virtual_machine) {
    host.topology =
        buildTopology(host.tree, true, "virtual machine, distances unknown: " + host.virtualization.summary());
  } else {
    host.topology = buildTopology(host.tree);
  }
  return host;
}

}  // namespace rdmagw::southbound::gpu
