#include "southbound/gpu/pci_tree.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <string_view>
#include <system_error>
#include <utility>

#include "southbound/kernel_text.h"

namespace rdmagw::southbound::gpu {
namespace {

namespace fs = std::filesystem;

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

bool allHex(const std::string& text, size_t from, size_t to) {
  if (from >= to || to > text.size()) return false;
  for (size_t i = from; i < to; ++i) {
    if (!isHex(text[i])) return false;
  }
  return true;
}

// "pci0000:20": the host bridge directory the kernel makes per root bus.
bool isHostBridgeName(const std::string& name) {
  if (name.rfind("pci", 0) != 0) return false;
  const size_t colon = name.find(':');
  return colon != std::string::npos && colon >= 7 && colon <= 11 && allHex(name, 3, colon) &&
         name.size() == colon + 3 && allHex(name, colon + 1, name.size());
}

std::string trimmed(const std::string& text) {
  size_t end = text.size();
  while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  size_t begin = 0;
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  return text.substr(begin, end - begin);
}

std::vector<std::string> sortedEntries(const fs::path& dir, std::error_code& ec) {
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Reads one attribute of a device directory: nullopt when the file is absent
// (older kernels, non-PCIe devices have no link files), a problem line when
// it exists but cannot be read.
std::optional<std::string> readAttribute(const fs::path& dir, const char* name, std::vector<std::string>& problems) {
  Result<std::string> text = readKernelFile((dir / name).string(), KernelFileKind::kSysfsAttribute);
  if (text.isOk()) return trimmed(*text);
  if (text.status().code() != Status::Code::kNotFound) problems.push_back(text.status().message());
  return std::nullopt;
}

std::optional<uint32_t> decimal(const std::string& text) {
  if (text.empty() || text.size() > 6) return std::nullopt;
  uint32_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  return value;
}

void readAttributes(const fs::path& dir, PciDevice& device, std::vector<std::string>& problems) {
  for (const char* name : kPciAttributeNames) {
    // The kernel answers EINVAL for the link files of a function without a
    // PCIe capability (conventional PCI, some integrated endpoints): that
    // is a link not known, no fault of the tree.
    std::vector<std::string> link_errors;
    const bool link_file = std::string_view(name).find("_link_") != std::string_view::npos;
    if (const std::optional<std::string> value = readAttribute(dir, name, link_file ? link_errors : problems)) {
      applyPciAttribute(device, name, *value, (dir / name).string(), problems);
    }
  }
}

// ibdev -> the resolved path of the PCI function its `device` link names.
void attachRdmaDevices(const fs::path& sys_root, const std::map<std::string, size_t>& by_path,
                       std::vector<PciDevice>& devices, std::vector<std::string>& problems) {
  const fs::path class_dir = sys_root / "class/infiniband";
  std::error_code ec;
  if (!fs::exists(class_dir, ec)) return;  // no RDMA driver loaded: no NICs, not an error
  const std::vector<std::string> names = sortedEntries(class_dir, ec);
  if (ec) {
    problems.push_back("cannot list " + class_dir.string() + ": " + ec.message());
    return;
  }
  for (const std::string& name : names) {
    const fs::path link = class_dir / name / "device";
    const fs::path target = fs::canonical(link, ec);
    if (ec) {
      problems.push_back("cannot resolve " + link.string() + ": " + ec.message());
      continue;
    }
    const auto found = by_path.find(target.string());
    if (found == by_path.end()) {
      problems.push_back(link.string() + " resolves to " + target.string() + ", no PCI device");
      continue;
    }
    devices[found->second].rdma_devices.push_back(name);
  }
}

}  // namespace

void applyPciAttribute(PciDevice& device, const std::string& name, const std::string& raw_value,
                       const std::string& where, std::vector<std::string>& problems) {
  const std::string value = trimmed(raw_value);
  auto hex = [&](uint32_t max_value) {
    const std::optional<uint32_t> parsed = parseSysfsHex(value, max_value);
    if (!parsed) problems.push_back(where + ": \"" + value + "\" is no hex value up to " + std::to_string(max_value));
    return parsed;
  };
  if (name == "class") {
    device.class_code = hex(0xffffff);
  } else if (name == "vendor" || name == "device") {
    const std::optional<uint32_t> id = hex(0xffff);
    (name == "vendor" ? device.vendor : device.device) =
        id ? std::optional<uint16_t>(static_cast<uint16_t>(*id)) : std::nullopt;
  } else if (name == "numa_node") {
    const std::optional<uint32_t> node = decimal(value);
    if (value == "-1") {
      device.numa_node = -1;
    } else if (node && *node < 4096) {
      device.numa_node = static_cast<int>(*node);
    } else {
      problems.push_back(where + ": \"" + value + "\" is no NUMA node");
    }
  } else if (name == "current_link_speed") {
    device.current_link_speed = value;
  } else if (name == "max_link_speed") {
    device.max_link_speed = value;
  } else if (name == "current_link_width") {
    // A width the device cannot report is text, not digits: unknown, no problem.
    device.current_link_width = decimal(value);
  } else if (name == "max_link_width") {
    device.max_link_width = decimal(value);
  }
}

bool PciDevice::isGpuClass() const {
  if (!class_code) return false;
  const uint32_t base_and_sub = *class_code >> 8;
  return base_and_sub == 0x0300 || base_and_sub == 0x0302;
}

bool PciDevice::isNvidiaGpu() const { return vendor == kNvidiaVendorId && isGpuClass(); }

const PciDevice* PciTree::find(const std::string& address) const {
  for (const PciDevice& device : devices) {
    if (device.address == address) return &device;
  }
  return nullptr;
}

bool isPciAddress(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon < 4 || colon > 8 || !allHex(text, 0, colon)) return false;
  const std::string rest = text.substr(colon + 1);
  return rest.size() == 7 && allHex(rest, 0, 2) && rest[2] == ':' && allHex(rest, 3, 5) && rest[5] == '.' &&
         rest[6] >= '0' && rest[6] <= '7';
}

std::optional<uint32_t> parseSysfsHex(const std::string& text, uint32_t max_value) {
  const std::string value = trimmed(text);
  if (value.size() < 3 || value.size() > 10 || value[0] != '0' || (value[1] != 'x' && value[1] != 'X')) {
    return std::nullopt;
  }
  if (!allHex(value, 2, value.size())) return std::nullopt;
  const uint64_t parsed = std::stoull(value.substr(2), nullptr, 16);
  if (parsed > max_value) return std::nullopt;
  return static_cast<uint32_t>(parsed);
}

Result<PciDevice> deviceFromPath(const std::string& resolved_path) {
  std::vector<std::string> parts;
  for (const auto& part : fs::path(resolved_path)) {
    if (!part.empty() && part != "/") parts.push_back(part.string());
  }
  size_t host = parts.size();
  for (size_t i = parts.size(); i-- > 0;) {
    if (isHostBridgeName(parts[i])) {
      host = i;
      break;
    }
  }
  if (host == parts.size()) return Status::corrupt(resolved_path + ": no PCI host bridge (pciDDDD:BB) in the path");
  if (host + 1 == parts.size()) return Status::corrupt(resolved_path + ": a host bridge, no PCI function");
  PciDevice device;
  device.host_bridge = parts[host];
  for (size_t i = host + 1; i < parts.size(); ++i) {
    if (!isPciAddress(parts[i])) {
      return Status::corrupt(resolved_path + ": \"" + parts[i] + "\" below the host bridge is no PCI address");
    }
    if (i + 1 < parts.size()) device.bridges.push_back(parts[i]);
  }
  device.address = parts.back();
  return device;
}

Result<PciTree> readPciTree(const std::string& sys_root) {
  const fs::path bus_dir = fs::path(sys_root) / "bus/pci/devices";
  std::error_code ec;
  const std::vector<std::string> names = sortedEntries(bus_dir, ec);
  if (ec) return Status::ioError("cannot list " + bus_dir.string() + ": " + ec.message());
  PciTree tree;
  std::map<std::string, size_t> by_path;
  for (const std::string& name : names) {
    const fs::path link = bus_dir / name;
    const fs::path resolved = fs::canonical(link, ec);
    if (ec) {
      tree.problems.push_back("cannot resolve " + link.string() + ": " + ec.message());
      continue;
    }
    Result<PciDevice> device = deviceFromPath(resolved.string());
    if (!device.isOk()) {
      tree.problems.push_back(device.status().message());
      continue;
    }
    if (device->address != name) {
      tree.problems.push_back(link.string() + " resolves to " + resolved.string() + ", another address");
      continue;
    }
    readAttributes(resolved, device.value(), tree.problems);
    by_path.emplace(resolved.string(), tree.devices.size());
    tree.devices.push_back(std::move(device).value());
  }
  attachRdmaDevices(sys_root, by_path, tree.devices, tree.problems);
  return tree;
}

}  // namespace rdmagw::southbound::gpu
