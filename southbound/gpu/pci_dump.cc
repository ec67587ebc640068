#include "southbound/gpu/pci_dump.h"

#include <algorithm>
#include <map>
#include <utility>

namespace rdmagw::southbound::gpu {
namespace {

constexpr std::string_view kHeader = "rdmagw-pci-dump 1";

std::string shellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// "<first> <rest>": the first word and everything after one space.
std::pair<std::string, std::string> split(std::string_view line) {
  const size_t space = line.find(' ');
  if (space == std::string_view::npos) return {std::string(line), ""};
  return {std::string(line.substr(0, space)), std::string(line.substr(space + 1))};
}

}  // namespace

std::string pciDumpCommand(const std::string& sys_root, const std::string& proc_root) {
  std::string attributes;
  for (const char* name : kPciAttributeNames) attributes += std::string(attributes.empty() ? "" : " ") + name;
  return "S=" + shellQuoted(sys_root) + "; P=" + shellQuoted(proc_root) +
         "; cd \"$S/bus/pci/devices\" || exit 3; echo '" + std::string(kHeader) +
         "'; for d in *; do [ -e \"$d\" ] || [ -L \"$d\" ] || continue; "
         "p=$(readlink -f \"$d\") && [ -d \"$p\" ] || { echo \"E $d\"; continue; }; echo \"D $d $p\"; "
         "for a in " +
         attributes +
         "; do [ -e \"$p/$a\" ] || continue; "
         "if IFS= read -r v < \"$p/$a\"; then echo \"A $d $a $v\"; else echo \"F $d $a\"; fi 2>/dev/null; done; done; "
         "for i in \"$S\"/class/infiniband/*; do [ -e \"$i/device\" ] || continue; "
         "echo \"I ${i##*/} $(readlink -f \"$i/device\")\"; done; "
         "for m in sys_vendor product_name; do [ -r \"$S/class/dmi/id/$m\" ] && IFS= read -r v < "
         "\"$S/class/dmi/id/$m\" "
         "&& echo \"M $m $v\"; done; grep -qw hypervisor \"$P/cpuinfo\" 2>/dev/null && echo H; exit 0";
}

Result<PciDump> parsePciDump(std::string_view text) {
  PciDump dump;
  std::map<std::string, size_t> by_address;
  std::map<std::string, size_t> by_path;
  bool header = false;
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!header) {
      if (line != kHeader) return Status::corrupt("no \"" + std::string(kHeader) + "\" header: not a PCI dump");
      header = true;
      continue;
    }
    if (line.empty()) continue;
    const auto [kind, rest] = split(line);
    const std::string where = "dump line " + std::to_string(line_number);
    if (kind == "D") {
      const auto [address, path] = split(rest);
      Result<PciDevice> device = deviceFromPath(path);
      if (!device.isOk()) {
        dump.tree.problems.push_back(device.status().message());
      } else if (device->address != address) {
        dump.tree.problems.push_back(address + " resolves to " + path + ", another address");
      } else {
        by_address[address] = dump.tree.devices.size();
        by_path[path] = dump.tree.devices.size();
        dump.tree.devices.push_back(std::move(device).value());
      }
    } else if (kind == "E") {
      dump.tree.problems.push_back("cannot resolve " + rest);
    } else if (kind == "A" || kind == "F") {
      const auto [address, attribute_and_value] = split(rest);
      const auto [attribute, value] = split(attribute_and_value);
      const auto found = by_address.find(address);
      if (found == by_address.end()) continue;  // its D record was a problem already
      if (kind == "F") {
        // As the local reader: an unreadable link file is a link not known.
        if (attribute.find("_link_") != std::string::npos) continue;
        dump.tree.problems.push_back(address + "/" + attribute + ": present but unreadable");
      } else {
        applyPciAttribute(dump.tree.devices[found->second], attribute, value, address + "/" + attribute,
                          dump.tree.problems);
      }
    } else if (kind == "I") {
      const auto [ibdev, path] = split(rest);
      const auto found = by_path.find(path);
      if (found == by_path.end()) {
        dump.tree.problems.push_back(ibdev + "/device resolves to " + path + ", no PCI device");
      } else {
        dump.tree.devices[found->second].rdma_devices.push_back(ibdev);
      }
    } else if (kind == "M") {
      const auto [name, value] = split(rest);
      if (name == "sys_vendor") dump.sys_vendor = value;
      if (name == "product_name") dump.product_name = value;
    } else if (kind == "H") {
      dump.hypervisor_flag = true;
    } else {
      return Status::corrupt(where + ": unknown record \"" + kind + "\"");
    }
  }
  if (!header) return Status::corrupt("empty output: not a PCI dump");
  for (PciDevice& device : dump.tree.devices) std::sort(device.rdma_devices.begin(), device.rdma_devices.end());
  std::sort(dump.tree.devices.begin(), dump.tree.devices.end(),
            [](const PciDevice& a, const PciDevice& b) { return a.address < b.address; });
  return dump;
}

}  // namespace rdmagw::southbound::gpu
