#include "sim/gpu/lspci_tree.h"

#include <cctype>
#include <map>

namespace rdmagw::sim {
namespace {

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// "DD.F" at `i`.
bool entryAt(std::string_view line, size_t i) {
  return i + 4 <= line.size() && isHex(line[i]) && isHex(line[i + 1]) && line[i + 2] == '.' && line[i + 3] >= '0' &&
         line[i + 3] <= '7' && (i == 0 || line[i - 1] == '-');
}

// Past the connector lspci draws after a bus ("-+-", "--+-", "----"): the
// column of the first child, or npos when the bridge has none.
size_t firstChild(std::string_view line, size_t i) {
  while (i < line.size() && (line[i] == '-' || line[i] == '+' || line[i] == '\\')) ++i;
  return i < line.size() && isHex(line[i]) ? i : std::string_view::npos;
}

struct Context {
  std::string parent;  // bridge address, empty on the root bus
  std::string bus;     // "0000:21"
  std::string root;
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Result<std::vector<LspciEntry>> parseLspciTree(std::string_view text) {
  std::vector<LspciEntry> entries;
  std::map<size_t, Context> by_column;  // the bus whose children are drawn at a column
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    for (size_t i = 0; i < line.size();) {
      if (line[i] == '[' && i + 1 < line.size() && line.find(':', i) < line.find(']', i)) {
        const size_t close = line.find(']', i);
        const std::string root(line.substr(i + 1, close - i - 1));
        const size_t child = firstChild(line, close + 1);
        if (child == std::string_view::npos) break;
        by_column[child] = {"", root, root};
        i = child;
        continue;
      }
      if (!entryAt(line, i)) {
        ++i;
        continue;
      }
      const auto context = by_column.find(i);
      if (context == by_column.end()) {
        return Status::corrupt("line " + std::to_string(line_number) + ", column " + std::to_string(i) +
                               ": a function with no bus drawn above it");
      }
      LspciEntry entry;
      entry.address = context->second.bus + ":" + std::string(line.substr(i, 4));
      entry.parent = context->second.parent;
      entry.root = context->second.root;
      const size_t after = i + 4;
      if (line.substr(after, 2) == "-[") {
        const size_t close = line.find(']', after);
        if (close == std::string_view::npos) return Status::corrupt("line " + std::to_string(line_number) + ": no ]");
        const std::string_view range = line.substr(after + 2, close - after - 2);
        const std::string domain_part = entry.root.substr(0, entry.root.find(':'));
        entry.bridge = true;
        entries.push_back(entry);
        const size_t child = firstChild(line, close + 1);
        if (child == std::string_view::npos) break;
        by_column[child] = {entry.address, domain_part + ":" + std::string(range.substr(0, 2)), entry.root};
        i = child;
        continue;
      }
      size_t name = after;
      while (name < line.size() && line[name] == ' ') ++name;
      entry.name = std::string(line.substr(name));
      entries.push_back(entry);
      break;
    }
  }
  return entries;
}

uint16_t vendorFromLspciName(std::string_view name) {
  static const std::pair<const char*, uint16_t> kVendors[] = {
      {"NVIDIA Corporation", 0x10de},     {"Mellanox Technologies", 0x15b3},
      {"Advanced Micro Devices", 0x1022}, {"Intel Corporation", 0x8086},
      {"Samsung Electronics", 0x144d},    {"ASPEED Technology", 0x1a03},
      {"HighPoint Technologies", 0x1103}, {"Broadcom", 0x14e4},
  };
  for (const auto& vendor : kVendors) {
    if (name.rfind(vendor.first, 0) == 0) return vendor.second;
  }
  return 0;
}

uint32_t classFromLspciName(const LspciEntry& entry) {
  if (entry.bridge) return kClassPciBridge;
  const std::string name = lower(entry.name);
  const uint16_t vendor = vendorFromLspciName(entry.name);
  if (vendor == kVendorNvidia) return name.find("audio") != std::string::npos ? 0x040300 : kClassVga;
  if (name.find("connectx") != std::string::npos || name.find("ethernet controller") != std::string::npos) {
    return kClassEthernet;
  }
  if (name.find("raid") != std::string::npos) return 0x010400;
  if (name.find("nvme") != std::string::npos) return 0x010802;
  return 0x088000;
}

SimPciHost hostFromLspci(const std::vector<LspciEntry>& entries, const std::map<std::string, int>& numa_by_root) {
  SimPciHost host;
  for (const LspciEntry& entry : entries) {
    SimPciFunction function;
    function.address = entry.address;
    function.parent = entry.parent;
    function.host_bridge = "pci" + entry.root;
    function.class_code = classFromLspciName(entry);
    function.vendor = vendorFromLspciName(entry.name);
    const auto numa = numa_by_root.find(entry.root);
    function.numa_node = numa == numa_by_root.end() ? -1 : numa->second;
    host.functions.push_back(function);
  }
  return host;
}

}  // namespace rdmagw::sim
