#include "southbound/gpu/virtualization.h"

#include <sstream>

#include "southbound/kernel_text.h"

namespace rdmagw::southbound::gpu {
namespace {

std::string firstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

// The "flags" lines of cpuinfo (x86) carry "hypervisor" when the CPUID bit
// that every mainstream hypervisor sets is on.
bool hypervisorFlag(const std::string& cpuinfo) {
  std::istringstream lines(cpuinfo);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1));
    for (std::string word; words >> word;) {
      if (word == "hypervisor") return true;
    }
  }
  return false;
}

}  // namespace

bool dmiNamesHypervisor(const std::string& sys_vendor, const std::string& product_name) {
  if (sys_vendor == "QEMU" || contains(product_name, "KVM") || contains(sys_vendor, "VMware") || sys_vendor == "Xen" ||
      contains(product_name, "HVM domU") || sys_vendor == "innotek GmbH" || contains(product_name, "VirtualBox") ||
      contains(sys_vendor, "Parallels") || sys_vendor == "Bochs") {
    return true;
  }
  return sys_vendor == "Microsoft Corporation" && product_name == "Virtual Machine";
}

std::string VirtualizationEvidence::summary() const {
  std::string out;
  for (const std::string& reason : reasons) out += (out.empty() ? "" : "; ") + reason;
  return out;
}

VirtualizationEvidence judgeVirtualization(bool hypervisor_flag, const std::string& sys_vendor,
                                           const std::string& product_name, const PciTree& tree,
                                           const std::string& cpuinfo, const std::string& dmi_dir) {
  VirtualizationEvidence evidence;
  if (hypervisor_flag) evidence.reasons.push_back("hypervisor flag in " + cpuinfo);
  if (dmiNamesHypervisor(sys_vendor, product_name)) {
    evidence.reasons.push_back(dmi_dir + "sys_vendor: " + sys_vendor + ", product_name: " + product_name);
  }
  evidence.virtual_machine = !evidence.reasons.empty();
  size_t members = 0;
  size_t on_root_bus = 0;
  for (const PciDevice& device : tree.devices) {
    if (!device.isNvidiaGpu() && !device.isRdmaNic()) continue;
    ++members;
    if (device.bridges.empty()) ++on_root_bus;
  }
  evidence.flat_root_bus = members > 0 && on_root_bus == members;
  if (evidence.virtual_machine && evidence.flat_root_bus) {
    evidence.reasons.push_back("every GPU and NIC on a root bus, no bridge above it");
  }
  return evidence;
}

VirtualizationEvidence detectVirtualization(const std::string& sys_root, const std::string& proc_root,
                                            const PciTree& tree) {
  const std::string cpuinfo_path = proc_root + "/cpuinfo";
  Result<std::string> cpuinfo = readKernelFile(cpuinfo_path, KernelFileKind::kProcFile, 4 * 1024 * 1024);
  const std::string dmi = sys_root + "/class/dmi/id/";
  Result<std::string> vendor = readKernelFile(dmi + "sys_vendor", KernelFileKind::kSysfsAttribute);
  Result<std::string> product = readKernelFile(dmi + "product_name", KernelFileKind::kSysfsAttribute);
  return judgeVirtualization(cpuinfo.isOk() && hypervisorFlag(*cpuinfo), vendor.isOk() ? firstLine(*vendor) : "",
                             product.isOk() ? firstLine(*product) : "", tree, cpuinfo_path, dmi);
}

}  // namespace rdmagw::southbound::gpu
