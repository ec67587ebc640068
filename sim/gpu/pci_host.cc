#include "sim/gpu/pci_host.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

std::string hex(uint32_t value, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%0*x", digits, value);
  return buf;
}

std::string busHex(uint32_t bus) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%02x", bus & 0xff);
  return buf;
}

Status writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return out.good() ? Status::ok() : Status::ioError("cannot write " + path.string());
}

// A bridge's configuration space as root reads it (4 KiB): its extended
// capabilities from 0x100 hold ACS (ID 0x000d) and nothing after it; the
// control register at +6 has P2P request (bit 2) and completion (bit 3)
// redirect as `redirect` says, source validation (bit 0) always.
std::string bridgeConfig(bool redirect) {
  std::string config(4096, '\0');
  const uint32_t header = 0x000d | (1u << 16);  // ID, version 1, next 0
  for (int i = 0; i < 4; ++i) config[0x100 + i] = char((header >> (8 * i)) & 0xff);
  const uint16_t control = 0x0001 | (redirect ? 0x000c : 0);
  config[0x106] = char(control & 0xff);
  config[0x107] = char(control >> 8);
  return config;
}

Status writeFunction(const SimPciFunction& function, const fs::path& sys, const std::string& relative) {
  const fs::path dir = sys / "devices" / relative;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::ioError("cannot create " + dir.string() + ": " + ec.message());
  const std::vector<std::pair<std::string, std::string>> files = {
      {"class", hex(function.class_code, 6)},
      {"vendor", hex(function.vendor, 4)},
      {"device", hex(function.device, 4)},
      {"numa_node", std::to_string(function.numa_node)},
  };
  for (const auto& file : files) {
    Status written = writeText(dir / file.first, file.second + "\n");
    if (!written.isOk()) return written;
  }
  if (!function.link_speed.empty()) {
    for (const char* name : {"current_link_speed", "max_link_speed"}) {
      Status written = writeText(dir / name, function.link_speed + "\n");
      if (!written.isOk()) return written;
    }
    for (const char* name : {"current_link_width", "max_link_width"}) {
      Status written = writeText(dir / name, std::to_string(function.link_width) + "\n");
      if (!written.isOk()) return written;
    }
  }
  if ((function.class_code >> 8) == (kClassPciBridge >> 8)) {
    Status written = writeText(dir / "config", bridgeConfig(function.acs_redirect));
    if (!written.isOk()) return written;
  }
  fs::create_directory_symlink("../../../devices/" + relative, sys / "bus/pci/devices" / function.address, ec);
  if (ec) return Status::ioError("cannot link " + function.address + ": " + ec.message());
  for (const std::string& ibdev : function.rdma_devices) {
    const fs::path ib_dir = dir / "infiniband" / ibdev;
    fs::create_directories(ib_dir, ec);
    if (!ec) fs::create_directory_symlink("../../../" + function.address, ib_dir / "device", ec);
    if (!ec) {
      fs::create_directory_symlink("../../devices/" + relative + "/infiniband/" + ibdev,
                                   sys / "class/infiniband" / ibdev, ec);
    }
    if (ec) return Status::ioError("cannot create RDMA device " + ibdev + ": " + ec.message());
  }
  return Status::ok();
}

SimPciFunction function(const std::string& address, const std::string& parent, const std::string& host_bridge,
                        uint32_t class_code, uint16_t vendor, uint16_t device, int numa) {
  SimPciFunction f;
  f.address = address;
  f.parent = parent;
  f.host_bridge = host_bridge;
  f.class_code = class_code;
  f.vendor = vendor;
  f.device = device;
  f.numa_node = numa;
  f.link_speed = "32.0 GT/s PCIe";
  f.link_width = 16;
  return f;
}

std::string address(uint32_t bus, const std::string& device_function) {
  return "0000:" + busHex(bus) + ":" + device_function;
}

// A root port at <bus>:01.1 on its own host bridge pci0000:<bus>.
SimPciFunction rootPort(uint32_t bus, int numa) {
  return function(address(bus, "01.1"), "", "pci0000:" + busHex(bus), kClassPciBridge, 0x1022, 0x14ab, numa);
}

}  // namespace

Status writePciHost(const SimPciHost& host, const std::string& root) {
  const fs::path sys = fs::path(root) / "sys";
  std::error_code ec;
  for (const char* dir : {"bus/pci/devices", "class/infiniband", "devices"}) fs::create_directories(sys / dir, ec);
  if (ec) return Status::ioError("cannot create " + sys.string() + ": " + ec.message());
  std::map<std::string, std::string> relative_of;  // address -> path below sys/devices
  for (const SimPciFunction& f : host.functions) {
    if (relative_of.count(f.address) != 0) return Status::invalidArgument("address " + f.address + " repeats");
    std::string relative;
    if (f.parent.empty()) {
      relative = f.host_bridge + "/" + f.address;
    } else {
      const auto parent = relative_of.find(f.parent);
      if (parent == relative_of.end())
        return Status::invalidArgument(f.address + ": parent " + f.parent + " not yet written");
      relative = parent->second + "/" + f.address;
    }
    relative_of[f.address] = relative;
    Status written = writeFunction(f, sys, relative);
    if (!written.isOk()) return written;
  }
  if (!host.dmi_sys_vendor.empty() || !host.dmi_product_name.empty()) {
    fs::create_directories(sys / "class/dmi/id", ec);
    Status vendor = writeText(sys / "class/dmi/id/sys_vendor", host.dmi_sys_vendor + "\n");
    Status product = writeText(sys / "class/dmi/id/product_name", host.dmi_product_name + "\n");
    if (!vendor.isOk()) return vendor;
    if (!product.isOk()) return product;
  }
  if (host.nvidia_driver) fs::create_directories(sys / "module/nvidia", ec);
  if (host.peer_memory) fs::create_directories(sys / "module/nvidia_peermem", ec);
  fs::create_directories(sys / "class/iommu", ec);
  if (host.iommu != "off") fs::create_directories(sys / "class/iommu/dmar0", ec);
  fs::create_directories(fs::path(root) / "proc", ec);
  const std::string cmdline = std::string("BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro") +
                              (host.iommu == "passthrough" ? " intel_iommu=on iommu=pt" : "") +
                              (host.iommu == "translated" ? " intel_iommu=on" : "") + "\n";
  if (Status written = writeText(fs::path(root) / "proc/cmdline", cmdline); !written.isOk()) return written;
  const std::string flags = std::string("fpu vme de pse tsc msr pae mce cx8 apic sep") +
                            (host.hypervisor_flag ? " hypervisor" : "") + " lahf_lm\n";
  return writeText(fs::path(root) / "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: " + flags);
}

SimPciHost pixBox8() {
  SimPciHost host;
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t bus = 0x20 * i;
    const int numa = static_cast<int>(i / 4);
    const SimPciFunction port = rootPort(bus, numa);
    const std::string upstream = address(bus + 1, "00.0");
    const std::string gpu_port = address(bus + 2, "00.0");
    const std::string nic_port = address(bus + 2, "01.0");
    host.functions.push_back(port);
    host.functions.push_back(function(upstream, port.address, port.host_bridge, kClassPciBridge, 0x1000, 0xc030, numa));
    host.functions.push_back(function(gpu_port, upstream, port.host_bridge, kClassPciBridge, 0x1000, 0xc030, numa));
    host.functions.push_back(function(nic_port, upstream, port.host_bridge, kClassPciBridge, 0x1000, 0xc030, numa));
    host.functions.push_back(
        function(address(bus + 3, "00.0"), gpu_port, port.host_bridge, kClass3d, kVendorNvidia, 0x2330, numa));
    SimPciFunction nic =
        function(address(bus + 4, "00.0"), nic_port, port.host_bridge, kClassInfiniband, kVendorMellanox, 0x1021, numa);
    nic.rdma_devices = {"mlx5_" + std::to_string(i)};
    host.functions.push_back(nic);
  }
  return host;
}

SimPciHost nodeBox4() {
  SimPciHost host;
  // Buses 00,20 | 40,60 on node 0 and 80,a0 | c0,e0 on node 1: GPUs first, NICs second.
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t bus = 0x20 * i;
    const int numa = static_cast<int>(i / 4);
    const bool is_gpu = (i % 4) < 2;
    const SimPciFunction port = rootPort(bus, numa);
    host.functions.push_back(port);
    SimPciFunction end = is_gpu ? function(address(bus + 1, "00.0"), port.address, port.host_bridge, kClass3d,
                                           kVendorNvidia, 0x26b9, numa)
                                : function(address(bus + 1, "00.0"), port.address, port.host_bridge, kClassEthernet,
                                           kVendorMellanox, 0x1021, numa);
    if (!is_gpu) end.rdma_devices = {"mlx5_" + std::to_string((i / 4) * 2 + (i % 2))};
    host.functions.push_back(end);
  }
  return host;
}

SimPciHost virtualMachine2() {
  SimPciHost host;
  host.functions.push_back(function("0000:00:00.0", "", "pci0000:00", 0x060000, 0x8086, 0x29c0, -1));
  for (int i = 0; i < 2; ++i) {
    host.functions.push_back(
        function("0000:00:0" + std::to_string(5 + i) + ".0", "", "pci0000:00", kClass3d, kVendorNvidia, 0x2330, -1));
    SimPciFunction nic = function("0000:00:0" + std::to_string(7 + i) + ".0", "", "pci0000:00", kClassInfiniband,
                                  kVendorMellanox, 0x101e, -1);
    nic.rdma_devices = {"mlx5_" + std::to_string(i)};
    host.functions.push_back(nic);
  }
  host.dmi_sys_vendor = "QEMU";
  host.dmi_product_name = "Standard PC (Q35 + ICH9, 2009)";
  host.hypervisor_flag = true;
  return host;
}

}  // namespace rdmagw::sim
