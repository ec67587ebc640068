// A VM's PCI tree is the hypervisor's: the host is recognised as one and its
// distances reported unknown, unless NCCL's topology file gives the real
// pairing, tested with the file Azure ships for its ND H100 v5 VMs.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sim/gpu/pci_host.h"
#include "southbound/gpu/host_topology.h"
#include "southbound/gpu/nccl_topo_xml.h"
#include "southbound/gpu/virtualization.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

using southbound::gpu::GpuNicTopology;
using southbound::gpu::HostTopology;
using southbound::gpu::HostTopologyOptions;
using southbound::gpu::PathType;

// The fixture without its first line, the source note (which is no XML).
std::string azureXml() {
  const std::string text =
      readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/gpu/nccl-topo_azure-ndv5-h100_topo.xml");
  EXPECT_EQ(text.rfind("# source:", 0), 0u);
  return text.substr(text.find('\n') + 1);
}

Result<HostTopology> readWritten(const sim::SimPciHost& host, const TempDir& root,
                                 std::optional<std::string> xml = std::nullopt) {
  EXPECT_TRUE(sim::writePciHost(host, root.path()).isOk());
  HostTopologyOptions options;
  options.sys_root = root.file("sys");
  options.proc_root = root.file("proc");
  options.nccl_topology_xml = std::move(xml);
  return southbound::gpu::readHostTopology(options);
}

TEST(VirtualHost, KvmGuestIsDetectedAndItsDistancesUnknown) {
  TempDir root("gpu-vm");
  Result<HostTopology> host = readWritten(sim::virtualMachine2(), root);
  ASSERT_TRUE(host.isOk()) << host.status().toString();
  EXPECT_TRUE(host->virtualization.virtual_machine);
  EXPECT_TRUE(host->virtualization.flat_root_bus);
  const std::string why = host->topology.why_unknown;
  EXPECT_NE(why.find("hypervisor flag in " + root.file("proc/cpuinfo")), std::string::npos) << why;
  EXPECT_NE(why.find("sys_vendor: QEMU"), std::string::npos) << why;
  EXPECT_TRUE(host->topology.distances_unknown);
  ASSERT_EQ(host->topology.gpus.size(), 2u);
  ASSERT_EQ(host->topology.nics.size(), 2u);
  for (size_t g = 0; g < 2; ++g) {
    for (size_t n = 0; n < 2; ++n) EXPECT_EQ(host->topology.gpuToNic(g, n), PathType::kUnknown);
  }
}

TEST(VirtualHost, EachSignAloneIsEnough) {
  sim::SimPciHost flag_only = sim::virtualMachine2();
  flag_only.dmi_sys_vendor.clear();
  flag_only.dmi_product_name.clear();
  sim::SimPciHost dmi_only = sim::virtualMachine2();
  dmi_only.hypervisor_flag = false;  // KVM can hide the CPUID bit from the guest
  dmi_only.dmi_sys_vendor = "Microsoft Corporation";
  dmi_only.dmi_product_name = "Virtual Machine";
  for (const sim::SimPciHost& guest : {flag_only, dmi_only}) {
    TempDir root("gpu-vm");
    Result<HostTopology> host = readWritten(guest, root);
    ASSERT_TRUE(host.isOk());
    EXPECT_TRUE(host->virtualization.virtual_machine) << guest.dmi_sys_vendor;
    EXPECT_TRUE(host->topology.distances_unknown);
  }
}

TEST(VirtualHost, BareMetalIsNotAVmEvenWithACloudVendorName) {
  sim::SimPciHost metal = sim::pixBox8();
  metal.dmi_sys_vendor = "Amazon EC2";
  metal.dmi_product_name = "p5.48xlarge";
  TempDir root("gpu-metal");
  Result<HostTopology> host = readWritten(metal, root);
  ASSERT_TRUE(host.isOk());
  EXPECT_FALSE(host->virtualization.virtual_machine) << host->virtualization.summary();
  EXPECT_FALSE(host->virtualization.flat_root_bus);
  EXPECT_FALSE(host->topology.distances_unknown);
  EXPECT_EQ(host->topology.gpuToNic(0, 0), PathType::kPix);
  EXPECT_TRUE(southbound::gpu::dmiNamesHypervisor("QEMU", "Standard PC (i440FX + PIIX, 1996)"));
  EXPECT_TRUE(southbound::gpu::dmiNamesHypervisor("VMware, Inc.", "VMware7,1"));
  EXPECT_FALSE(southbound::gpu::dmiNamesHypervisor("Microsoft Corporation", "Surface Laptop"));
}

// Azure's file pairs GPU 000N:00:00.0 with NIC 010N:00:00.0 under one
// virtual switch; its GPUs 0008..000c fill the gap in the numbering.
const std::map<std::string, std::string> kAzurePairs = {
    {"0001:00:00.0", "0101:00:00.0"}, {"0002:00:00.0", "0102:00:00.0"}, {"0003:00:00.0", "0103:00:00.0"},
    {"0008:00:00.0", "0104:00:00.0"}, {"0009:00:00.0", "0105:00:00.0"}, {"000a:00:00.0", "0106:00:00.0"},
    {"000b:00:00.0", "0107:00:00.0"}, {"000c:00:00.0", "0108:00:00.0"},
};

TEST(NcclTopologyFile, AzureNdv5PairsEachGpuWithItsNic) {
  Result<southbound::gpu::PciTree> tree = southbound::gpu::parseNcclTopoXml(azureXml());
  ASSERT_TRUE(tree.isOk()) << tree.status().toString();
  EXPECT_EQ(tree->devices.size(), 24u) << "8 virtual switches, 8 GPUs, 8 NICs";
  const GpuNicTopology topology = southbound::gpu::buildTopology(*tree);
  ASSERT_EQ(topology.gpus.size(), 8u);
  ASSERT_EQ(topology.nics.size(), 8u);
  const std::vector<southbound::gpu::NearestNics> nearest = southbound::gpu::nearestNics(topology);
  ASSERT_EQ(nearest.size(), 8u);
  for (const southbound::gpu::NearestNics& entry : nearest) {
    const std::string& gpu = topology.gpus[entry.gpu].address;
    ASSERT_EQ(kAzurePairs.count(gpu), 1u) << gpu;
    ASSERT_EQ(entry.nics.size(), 1u) << gpu;
    EXPECT_EQ(topology.nics[entry.nics[0]].address, kAzurePairs.at(gpu));
    EXPECT_EQ(entry.path, PathType::kPix) << gpu;
    EXPECT_TRUE(entry.gdr_by_default);
    EXPECT_EQ(topology.gpus[entry.gpu].numa_node, entry.gpu < 4 ? 0 : 1);
  }
  EXPECT_EQ(topology.gpuToNic(0, 1), PathType::kPhb) << "another switch on the same CPU";
  EXPECT_EQ(topology.gpuToNic(0, 7), PathType::kSys);
  EXPECT_EQ(topology.gpuToGpu(0, 4), PathType::kSys);
}

// The same VM's sysfs: every device its own PCI domain (Hyper-V), the ibdevs
// named mlx5_ib0..7 as on Azure images; the file gives paths, sysfs names.
sim::SimPciHost azureGuest() {
  sim::SimPciHost host;
  int nic = 0;
  for (const auto& pair : kAzurePairs) {
    for (const std::string& address : {pair.first, pair.second}) {
      sim::SimPciFunction f;
      f.address = address;
      f.host_bridge = "pci" + address.substr(0, 7);
      const bool gpu = address == pair.first;
      f.class_code = gpu ? sim::kClass3d : sim::kClassInfiniband;
      f.vendor = gpu ? sim::kVendorNvidia : sim::kVendorMellanox;
      if (!gpu) f.rdma_devices = {"mlx5_ib" + std::to_string(nic++)};
      host.functions.push_back(f);
    }
  }
  host.dmi_sys_vendor = "Microsoft Corporation";
  host.dmi_product_name = "Virtual Machine";
  host.hypervisor_flag = true;
  return host;
}

TEST(NcclTopologyFile, OverridesAVmsTreeAndKeepsItsIbdevNames) {
  TempDir root("gpu-azure");
  Result<HostTopology> without = readWritten(azureGuest(), root);
  ASSERT_TRUE(without.isOk());
  EXPECT_TRUE(without->topology.distances_unknown);
  EXPECT_TRUE(without->virtualization.flat_root_bus);

  TempDir root2("gpu-azure");
  Result<HostTopology> with = readWritten(azureGuest(), root2, azureXml());
  ASSERT_TRUE(with.isOk()) << with.status().toString();
  EXPECT_TRUE(with->virtualization.virtual_machine);
  EXPECT_TRUE(with->from_nccl_topology_file);
  EXPECT_FALSE(with->topology.distances_unknown);
  ASSERT_EQ(with->topology.nics.size(), 8u);
  const std::vector<southbound::gpu::NearestNics> nearest = southbound::gpu::nearestNics(with->topology);
  ASSERT_EQ(nearest.size(), 8u);
  for (const southbound::gpu::NearestNics& entry : nearest) {
    ASSERT_EQ(entry.nics.size(), 1u);
    const southbound::gpu::TopologyDevice& nic = with->topology.nics[entry.nics[0]];
    EXPECT_EQ(nic.address, kAzurePairs.at(with->topology.gpus[entry.gpu].address));
    EXPECT_EQ(nic.rdma_device.rfind("mlx5_ib", 0), 0u) << nic.address;
  }
}

TEST(NcclTopologyFile, NamesFromTheFileAndBrokenFiles) {
  Result<southbound::gpu::PciTree> named = southbound::gpu::parseNcclTopoXml(
      "<?xml version=\"1.0\"?><!-- dumped --><system version=\"1\"><cpu numaid=\"1\">"
      "<pci busid=\"0000:0A:00.0\" class=\"0x060400\"><pci busid=\"0000:0b:00.0\" class=\"0x030200\"><gpu dev=\"0\"/>"
      "</pci><pci busid=\"0000:0c:00.0\" class=\"0x020000\"><nic><net name=\"mlx5_0\" dev=\"0\"/>"
      "<net name=\"mlx5_1\" dev=\"1\"/></nic></pci></pci></cpu></system>");
  ASSERT_TRUE(named.isOk()) << named.status().toString();
  const southbound::gpu::PciDevice* nic = named->find("0000:0c:00.0");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->rdma_devices, (std::vector<std::string>{"mlx5_0", "mlx5_1"}));
  EXPECT_EQ(nic->bridges, std::vector<std::string>{"0000:0a:00.0"});
  EXPECT_EQ(nic->numa_node, 1);
  const GpuNicTopology topology = southbound::gpu::buildTopology(*named);
  ASSERT_EQ(topology.nics.size(), 2u);
  EXPECT_EQ(topology.gpuToNic(0, 1), PathType::kPix);

  for (const char* broken : {"<system><cpu numaid=\"0\"><pci busid=\"nope\"/></cpu></system>",
                             "<system><cpu numaid=\"0\"><pci busid=\"0000:01:00.0\" class=\"VGA\"/></cpu></system>",
                             "<system><pci busid=\"0000:01:00.0\"/></system>", "<system><cpu numaid=\"0\"></system>",
                             "<system><cpu numaid=\"0\">", "<system attr=unquoted></system>", "<system"}) {
    Result<southbound::gpu::PciTree> tree = southbound::gpu::parseNcclTopoXml(broken);
    ASSERT_FALSE(tree.isOk()) << broken;
    EXPECT_EQ(tree.status().code(), Status::Code::kCorrupt) << broken;
  }
}

}  // namespace
}  // namespace rdmagw::testing
