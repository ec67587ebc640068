#include "southbound/gpu/gpu_host_facts.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

namespace rdmagw::southbound::gpu {
namespace {

namespace fs = std::filesystem;

constexpr size_t kExtendedStart = 0x100;
constexpr uint16_t kAcsCapabilityId = 0x000d;
constexpr uint16_t kAcsRequestRedirect = 1u << 2;
constexpr uint16_t kAcsCompletionRedirect = 1u << 3;

bool present(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

uint32_t le32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | uint8_t(bytes[at + size_t(i)]);
  return v;
}

std::string readBytes(const fs::path& path, size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string out(limit, '\0');
  in.read(out.data(), std::streamsize(limit));
  out.resize(size_t(in.gcount()));
  return out;
}

}  // namespace

std::string readPeerMemory(const std::string& sys_root) {
  const fs::path modules = fs::path(sys_root) / "module";
  if (present(modules / "nvidia_peermem")) return "nvidia-peermem";
  if (present(modules / "nv_peer_mem")) return "nv-peer-mem";
  return present(modules / "nvidia") ? "none" : "unknown";
}

std::string readIommu(const std::string& sys_root, const std::string& proc_root) {
  const fs::path units = fs::path(sys_root) / "class/iommu";
  std::error_code ec;
  fs::directory_iterator it(units, ec);
  if (ec) return "unknown";
  if (it == fs::directory_iterator()) return "off";
  std::ifstream in(fs::path(proc_root) / "cmdline");
  const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* word : {"iommu=pt", "iommu.passthrough=1", "amd_iommu=pt"}) {
    if (cmdline.find(word) != std::string::npos) return "passthrough";
  }
  return "translated";
}

std::string acsRedirectOfConfig(const std::string& config, std::string* why) {
  if (config.size() < kExtendedStart + 8) {
    *why = "extended configuration space not readable (" + std::to_string(config.size()) + " bytes: needs root)";
    return "unknown";
  }
  // The extended capability list: a header every 4-byte-aligned offset
  // names, ID in its low 16 bits, the next offset in its top 12. A walk is
  // bounded: a list that loops or points outside is unreadable, not "off".
  std::set<size_t> seen;
  for (size_t at = kExtendedStart; at != 0;) {
    if (at < kExtendedStart || at + 8 > config.size() || !seen.insert(at).second) {
      *why = "damaged extended capability list";
      return "unknown";
    }
    const uint32_t header = le32(config, at);
    if (header == 0 || header == 0xffffffff) return "off";  // no capability at all
    if ((header & 0xffff) == kAcsCapabilityId) {
      const uint16_t control = uint16_t(uint8_t(config[at + 6]) | (uint8_t(config[at + 7]) << 8));
      return (control & (kAcsRequestRedirect | kAcsCompletionRedirect)) ? "on" : "off";
    }
    at = (header >> 20) & 0xffc;
  }
  return "off";  // no ACS capability: nothing redirects
}

std::string acsRedirectOnPath(const std::string& sys_root, const PciDevice& a, const PciDevice& b, std::string* why) {
  // The bridges below the point where the two paths meet, and that point:
  // the switch port where a peer request turns is where ACS redirects it.
  size_t common = 0;
  if (a.host_bridge == b.host_bridge) {
    while (common < a.bridges.size() && common < b.bridges.size() && a.bridges[common] == b.bridges[common]) ++common;
  }
  const size_t from = common > 0 ? common - 1 : 0;
  std::set<std::string> bridges(a.bridges.begin() + std::ptrdiff_t(std::min(from, a.bridges.size())), a.bridges.end());
  bridges.insert(b.bridges.begin() + std::ptrdiff_t(std::min(from, b.bridges.size())), b.bridges.end());
  std::string result = "off";
  for (const std::string& bridge : bridges) {
    std::string bridge_why;
    const std::string state =
        acsRedirectOfConfig(readBytes(fs::path(sys_root) / "bus/pci/devices" / bridge / "config", 4096), &bridge_why);
    if (state == "on") {
      *why = bridge + " redirects peer requests";
      return "on";
    }
    if (state == "unknown" && result == "off") {
      result = "unknown";
      *why = bridge + ": " + bridge_why;
    }
  }
  return result;
}

}  // namespace rdmagw::southbound::gpu
