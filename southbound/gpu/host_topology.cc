#include "southbound/gpu/host_topology.h"

#include <utility>

#include "southbound/gpu/nccl_topo_xml.h"
#include "southbound/gpu/pci_dump.h"

namespace rdmagw::southbound::gpu {

namespace {

// The relations of a tree read one way or the other.
Result<HostTopology> classify(HostTopology host, const std::optional<std::string>& nccl_topology_xml) {
  if (nccl_topology_xml) {
    Result<PciTree> file_tree = parseNcclTopoXml(*nccl_topology_xml);
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

}  // namespace

Result<HostTopology> readHostTopology(const HostTopologyOptions& options) {
  Result<PciTree> tree = readPciTree(options.sys_root);
  if (!tree.isOk()) return tree.status();
  HostTopology host;
  host.tree = std::move(tree).value();
  host.virtualization = detectVirtualization(options.sys_root, options.proc_root, host.tree);
  return classify(std::move(host), options.nccl_topology_xml);
}

Result<HostTopology> hostTopologyFromDump(std::string_view dump_text,
                                          const std::optional<std::string>& nccl_topology_xml) {
  Result<PciDump> dump = parsePciDump(dump_text);
  if (!dump.isOk()) return dump.status();
  HostTopology host;
  host.tree = std::move(dump->tree);
  host.virtualization = judgeVirtualization(dump->hypervisor_flag, dump->sys_vendor, dump->product_name, host.tree);
  return classify(std::move(host), nccl_topology_xml);
}

}  // namespace rdmagw::southbound::gpu
