#include "southbound/k8s/pod_netns_counters.h"

#include <string_view>
#include <utility>

#include "southbound/rdma/device_filter.h"
#include "southbound/rdma/ethtool_mapping.h"
#include "southbound/rdma/ib_updates.h"
#include "southbound/rdma/netdev_dcb.h"

namespace rdmagw::southbound::k8s {
namespace {

// The netns's sysfs with the pod's netdev also under its model name, so the
// host collector's netdev reader (which names leaves by the directory it
// reads) writes them under the node-unique name. Error lines keep the
// kernel's paths.
class RenamedNetdevReader : public rdma::SysfsReader {
 public:
  RenamedNetdevReader(rdma::SysfsReader& inner, const std::string& netdev, const std::string& key)
      : inner_(inner), from_("class/net/" + key), to_("class/net/" + netdev) {}
  Result<std::string> readFile(const std::string& relpath) override { return inner_.readFile(map(relpath)); }
  Result<std::vector<std::string>> listDir(const std::string& relpath) override { return inner_.listDir(map(relpath)); }
  Result<std::vector<rdma::SysfsFile>> readDir(const std::string& relpath) override {
    return inner_.readDir(map(relpath));
  }
  std::string displayPath(const std::string& relpath) const override { return inner_.displayPath(map(relpath)); }

 private:
  std::string map(const std::string& relpath) const {
    if (relpath == from_) return to_;
    if (relpath.starts_with(from_ + "/")) return to_ + relpath.substr(from_.size());
    return relpath;
  }
  rdma::SysfsReader& inner_;
  std::string from_, to_;
};

// "/rdma/devices/device[name=mlx5_5]" of ".../device[name=mlx5_5]/ports/...":
// the subtree of one device or interface, removed whole when it is gone.
std::string rootOf(const std::string& path) {
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '\\') {
      ++i;
    } else if (path[i] == ']') {
      return path.substr(0, i + 1);
    }
  }
  return "";
}

// The RDMA devices of the netns's sysfs that belong to PCI function `pci`
// (their device/uevent says PCI_SLOT_NAME=<pci>). None without an RDMA core.
Result<std::vector<std::string>> devicesOfFunction(rdma::SysfsReader& sysfs, const std::string& pci) {
  Result<std::vector<std::string>> names = sysfs.listDir(rdma::kInfinibandDir);
  if (!names.isOk()) {
    if (names.status().code() == Status::Code::kNotFound) return std::vector<std::string>{};
    return names.status();
  }
  const std::string wanted = "PCI_SLOT_NAME=" + pci;
  std::vector<std::string> out;
  for (const std::string& name : names.value()) {
    Result<std::string> uevent = sysfs.readFile(std::string(rdma::kInfinibandDir) + "/" + name + "/device/uevent");
    if (!uevent.isOk()) continue;  // not a PCI device, or gone meanwhile
    const std::string& text = uevent.value();
    for (size_t at = text.find(wanted); at != std::string::npos; at = text.find(wanted, at + 1)) {
      const bool line_start = at == 0 || text[at - 1] == '\n';
      const size_t end = at + wanted.size();
      if (line_start && (end == text.size() || text[end] == '\n')) {
        out.push_back(name);
        break;
      }
    }
  }
  return out;
}

}  // namespace

std::string podNetdevKey(const AttributionRow& row) { return row.netdev + "@" + row.pci; }

PodNetnsCounters::PodNetnsCounters(PodNetnsOpener opener, rdma::IbClass::Clock clock)
    : opener_(std::move(opener)), clock_(std::move(clock)) {}

std::vector<Status> PodNetnsCounters::poll(std::vector<AttributionRow>& rows, PollBatch& batch) {
  std::vector<Status> failures;
  std::set<Key> used;
  PollBatch out;
  for (AttributionRow& row : rows) {
    if (row.mode != AttributionMode::kExclusive || row.netns.empty()) continue;
    Result<NetnsId> id = netnsIdOf(row.netns);
    if (!id.isOk()) {
      failures.push_back(id.status());
      continue;
    }
    Key key{row.netns, id.value()};
    auto it = handles_.find(key);
    if (it == handles_.end()) {
      Result<std::unique_ptr<PodNetnsHandle>> opened = opener_(row.netns);
      if (!opened.isOk()) {
        failures.push_back(opened.status());
        continue;
      }
      it = handles_.emplace(key, std::move(opened).value()).first;
    }
    used.insert(key);
    readRow(*it->second, row, out, failures);
  }
  // A netns no row names any more: its pod went (or was re-created with a
  // new netns), and the handle would keep the old netns alive.
  std::erase_if(handles_, [&](const auto& entry) { return !used.contains(entry.first); });

  std::set<std::string> roots;
  for (const Update& u : out.updates) {
    if (std::string root = rootOf(u.path); !root.empty()) roots.insert(std::move(root));
  }
  // What a gone pod's device or netdev wrote: removed unless something else
  // (the host collector, a device back in the host's netns) writes it now.
  for (const std::string& root : roots_) {
    if (!roots.contains(root)) batch.replaceSubtree(root);
  }
  roots_ = std::move(roots);
  for (Update& u : out.updates) batch.updates.push_back(std::move(u));
  for (std::string& e : out.errors) batch.error(std::move(e));
  return failures;
}

void PodNetnsCounters::readRow(PodNetnsHandle& handle, AttributionRow& row, PollBatch& out,
                               std::vector<Status>& failures) {
  const std::string key = podNetdevKey(row);
  // The host's sysfs shows no RDMA device of the row: look inside. (One the
  // host shows, in RDMA netns mode shared, is the host collector's to read.)
  if (row.rdma_device.empty() && !row.pci.empty()) {
    Result<std::vector<std::string>> devices = devicesOfFunction(handle.sysfs(), row.pci);
    if (!devices.isOk()) {
      failures.push_back(devices.status());
    } else if (!devices->empty()) {
      rdma::IbClass ib(handle.sysfs(), rdma::DeviceFilter(devices.value(), {}), clock_);
      Result<std::vector<rdma::IbDevice>> read = ib.read(&out.errors);
      if (read.isOk()) {
        std::string names;
        for (rdma::IbDevice& device : read.value()) {
          for (rdma::IbPort& port : device.ports) {
            if (port.netdev && port.netdev->value == row.netdev) port.netdev->value = key;
          }
          names += (names.empty() ? "" : ",") + device.name;
        }
        rdma::appendIbUpdates(read.value(), out);
        if (!names.empty()) row.rdma_device = names;
      } else {
        failures.push_back(read.status());
      }
    }
  }
  if (row.netdev.empty()) return;
  Result<rdma::EthtoolStats> stats = handle.ethtool().stats(row.netdev);
  if (stats.isOk()) {
    rdma::appendEthtoolUpdates(key, stats.value(), clock_(), out);
  } else {
    out.error("ethtool -S " + row.netdev + " in " + row.netns + ": " + stats.status().message());
  }
  for (std::string& w : handle.ethtool().takeWarnings()) out.error(std::move(w));
  // No EthtoolSource: the DCB tools would fork, and in the gateway's netns.
  RenamedNetdevReader sysfs(handle.sysfs(), row.netdev, key);
  rdma::appendNetdevDcb(sysfs, nullptr, key, clock_(), out);
}

}  // namespace rdmagw::southbound::k8s
