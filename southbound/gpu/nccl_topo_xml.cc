#include "southbound/gpu/nccl_topo_xml.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace rdmagw::southbound::gpu {
namespace {

struct Tag {
  std::string name;
  std::map<std::string, std::string> attributes;
  bool closing = false;       // </name>
  bool self_closing = false;  // <name .../>
};

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == ':'; }

// One tag from `text` at `pos` (just after '<'); pos moves past its '>'.
Result<Tag> readTag(std::string_view text, size_t& pos) {
  Tag tag;
  if (pos < text.size() && text[pos] == '/') {
    tag.closing = true;
    ++pos;
  }
  while (pos < text.size() && isNameChar(text[pos])) tag.name += text[pos++];
  if (tag.name.empty()) return Status::corrupt("a tag without a name at byte " + std::to_string(pos));
  while (pos < text.size()) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos >= text.size()) break;
    if (text[pos] == '>') {
      ++pos;
      return tag;
    }
    if (text.substr(pos, 2) == "/>") {
      tag.self_closing = true;
      pos += 2;
      return tag;
    }
    std::string key;
    while (pos < text.size() && isNameChar(text[pos])) key += text[pos++];
    if (key.empty() || pos + 1 >= text.size() || text[pos] != '=' || (text[pos + 1] != '"' && text[pos + 1] != '\'')) {
      return Status::corrupt("<" + tag.name + ">: a malformed attribute at byte " + std::to_string(pos));
    }
    const char quote = text[pos + 1];
    const size_t end = text.find(quote, pos + 2);
    if (end == std::string_view::npos) return Status::corrupt("<" + tag.name + ">: an unterminated attribute value");
    tag.attributes[key] = std::string(text.substr(pos + 2, end - pos - 2));
    pos = end + 1;
  }
  return Status::corrupt("<" + tag.name + ">: the file ends inside the tag");
}

std::string lowered(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<uint32_t> decimalValue(const std::string& text) {
  if (text.empty() || text.size() > 6 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return static_cast<uint32_t>(std::stoul(text));
}

struct Open {
  std::string name;
  int pci_index = -1;  // for <pci>: its index in the tree's devices
};

// A <pci> element into a device below the open elements.
Result<PciDevice> pciDevice(const Tag& tag, const std::vector<Open>& open, const PciTree& tree, int numa) {
  const auto busid = tag.attributes.find("busid");
  if (busid == tag.attributes.end() || !isPciAddress(lowered(busid->second))) {
    return Status::corrupt("<pci> without a PCI address busid");
  }
  PciDevice device;
  device.address = lowered(busid->second);
  device.host_bridge = "cpu" + std::to_string(numa);
  device.numa_node = numa;
  for (const Open& element : open) {
    if (element.pci_index >= 0) device.bridges.push_back(tree.devices[element.pci_index].address);
  }
  if (const auto cls = tag.attributes.find("class"); cls != tag.attributes.end()) {
    device.class_code = parseSysfsHex(cls->second, 0xffffff);
    if (!device.class_code)
      return Status::corrupt("<pci busid=\"" + device.address + "\">: class \"" + cls->second + "\"");
  }
  if (const auto vendor = tag.attributes.find("vendor"); vendor != tag.attributes.end()) {
    const std::optional<uint32_t> id = parseSysfsHex(vendor->second, 0xffff);
    if (id && *id != 0) device.vendor = static_cast<uint16_t>(*id);  // 0x0000: the file's "not known"
  }
  if (const auto speed = tag.attributes.find("link_speed"); speed != tag.attributes.end()) {
    device.current_link_speed = speed->second;
  }
  if (const auto width = tag.attributes.find("link_width"); width != tag.attributes.end()) {
    device.current_link_width = decimalValue(width->second);
  }
  return device;
}

}  // namespace

Result<PciTree> parseNcclTopoXml(std::string_view xml) {
  PciTree tree;
  tree.from_nccl_topology_file = true;
  std::vector<Open> open;
  int numa = -1;
  size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string_view::npos) {
    ++pos;
    if (xml.substr(pos, 3) == "!--" || xml.substr(pos, 1) == "?" || xml.substr(pos, 1) == "!") {
      const std::string_view end = xml.substr(pos, 3) == "!--" ? "-->" : ">";
      pos = xml.find(end, pos);
      if (pos == std::string_view::npos) return Status::corrupt("an unterminated comment or declaration");
      continue;
    }
    Result<Tag> tag = readTag(xml, pos);
    if (!tag.isOk()) return tag.status();
    if (tag->closing) {
      if (open.empty() || open.back().name != tag->name) {
        return Status::corrupt("</" + tag->name + "> closes " +
                               (open.empty() ? "nothing" : "<" + open.back().name + ">"));
      }
      open.pop_back();
      continue;
    }
    Open element{tag->name, -1};
    if (tag->name == "cpu") {
      const auto id = tag->attributes.find("numaid");
      const std::optional<uint32_t> node = id == tag->attributes.end() ? std::nullopt : decimalValue(id->second);
      numa = node ? static_cast<int>(*node) : -1;
    } else if (tag->name == "pci") {
      const bool in_cpu = std::any_of(open.begin(), open.end(), [](const Open& o) { return o.name == "cpu"; });
      if (!in_cpu) return Status::corrupt("<pci> outside any <cpu>");
      Result<PciDevice> device = pciDevice(*tag, open, tree, numa);
      if (!device.isOk()) return device.status();
      element.pci_index = static_cast<int>(tree.devices.size());
      tree.devices.push_back(std::move(device).value());
    } else if (tag->name == "net") {
      const auto name = tag->attributes.find("name");
      for (auto it = open.rbegin(); it != open.rend() && name != tag->attributes.end(); ++it) {
        if (it->pci_index < 0) continue;
        tree.devices[it->pci_index].rdma_devices.push_back(name->second);
        break;
      }
    }
    if (!tag->self_closing) open.push_back(element);
  }
  if (!open.empty()) return Status::corrupt("<" + open.back().name + "> is never closed");
  std::sort(tree.devices.begin(), tree.devices.end(),
            [](const PciDevice& a, const PciDevice& b) { return a.address < b.address; });
  return tree;
}

void adoptRdmaNames(PciTree& file_tree, const PciTree& sysfs) {
  for (PciDevice& device : file_tree.devices) {
    const PciDevice* seen = sysfs.find(device.address);
    if (seen != nullptr && device.rdma_devices.empty()) device.rdma_devices = seen->rdma_devices;
  }
}

}  // namespace rdmagw::southbound::gpu
