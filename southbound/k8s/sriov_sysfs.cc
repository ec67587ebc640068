#include "southbound/k8s/sriov_sysfs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace rdmagw::southbound::k8s {
namespace {

namespace fs = std::filesystem;

// The entry names of `dir`, sorted; empty when it is absent.
std::vector<std::string> entryNames(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The PCI address a link such as physfn or virtfn3 points at: the last
// component of its target ("../0000:3b:00.2").
Result<PciAddress> linkedAddress(const fs::path& link) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(link, ec);
  if (ec) return Status::ioError("cannot read link " + link.string() + ": " + ec.message());
  const std::optional<PciAddress> address = parsePciAddress(target.filename().string());
  if (!address) return Status::corrupt(link.string() + " points at " + target.string() + ", not a PCI address");
  return *address;
}

// "virtfn<N>" -> N.
std::optional<uint32_t> virtfnNumber(const std::string& name) {
  constexpr std::string_view kPrefix = "virtfn";
  if (name.size() <= kPrefix.size() || name.size() > kPrefix.size() + 5 || name.rfind(kPrefix, 0) != 0) {
    return std::nullopt;
  }
  uint32_t n = 0;
  for (size_t i = kPrefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    n = n * 10 + static_cast<uint32_t>(name[i] - '0');
  }
  return n;
}

// virtfn<N> -> VF address, for every readable link of a PF directory.
std::vector<std::pair<uint32_t, PciAddress>> virtualFunctions(const fs::path& pf_dir) {
  std::vector<std::pair<uint32_t, PciAddress>> vfs;
  for (const std::string& name : entryNames(pf_dir)) {
    const std::optional<uint32_t> n = virtfnNumber(name);
    if (!n) continue;
    Result<PciAddress> vf = linkedAddress(pf_dir / name);
    if (vf.isOk()) vfs.emplace_back(*n, *vf);
  }
  std::sort(vfs.begin(), vfs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return vfs;
}

}  // namespace

SriovSysfs::SriovSysfs(std::string sys_root) : devices_dir_(std::move(sys_root) + "/bus/pci/devices") {}

std::string SriovSysfs::deviceDir(const PciAddress& address) const {
  return devices_dir_ + "/" + formatPciAddress(address);
}

Result<PciFunction> SriovSysfs::function(const PciAddress& address) const {
  const fs::path dir = deviceDir(address);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::notFound("no PCI device " + dir.string());
  PciFunction out;
  out.address = address;
  out.rdma_devices = entryNames(dir / "infiniband");
  out.netdevs = entryNames(dir / "net");
  if (!fs::is_symlink(dir / "physfn", ec)) return out;
  Result<PciAddress> pf = linkedAddress(dir / "physfn");
  if (!pf.isOk()) return pf.status();
  out.physfn = *pf;
  for (const auto& [n, vf] : virtualFunctions(deviceDir(*pf))) {
    if (vf == address) out.vf_index = n;
  }
  if (!out.vf_index) out.problem = "PF " + formatPciAddress(*pf) + " has no virtfn link to this VF";
  return out;
}

Result<std::vector<PhysicalFunction>> SriovSysfs::physicalFunctions() const {
  std::error_code ec;
  fs::directory_iterator it(devices_dir_, ec);
  if (ec) return Status::ioError("cannot list " + devices_dir_ + ": " + ec.message());
  std::vector<PhysicalFunction> pfs;
  for (const std::string& name : entryNames(devices_dir_)) {
    const std::optional<PciAddress> address = parsePciAddress(name);
    if (!address) continue;
    const std::vector<std::pair<uint32_t, PciAddress>> vfs = virtualFunctions(fs::path(devices_dir_) / name);
    if (vfs.empty()) continue;
    Result<PciFunction> pf = function(*address);
    if (!pf.isOk()) continue;  // removed while we looked
    PhysicalFunction entry{std::move(pf).value(), {}};
    for (const auto& [n, vf_address] : vfs) {
      Result<PciFunction> vf = function(vf_address);
      if (vf.isOk()) {
        entry.vfs.push_back(std::move(vf).value());
      } else {
        PciFunction unreadable;
        unreadable.address = vf_address;
        unreadable.physfn = *address;
        unreadable.vf_index = n;
        unreadable.problem = vf.status().message();
        entry.vfs.push_back(std::move(unreadable));
      }
    }
    pfs.push_back(std::move(entry));
  }
  return pfs;
}

}  // namespace rdmagw::southbound::k8s
