#pragma once
// The counters of the devices a pod holds exclusively, read inside its
// network namespace: a VF whose RDMA device and netdev moved into the pod
// (RDMA netns mode exclusive) is gone from the host's /sys, so the host
// collector never sees it. Each poll, for each exclusive row with a netns:
//
// - its RDMA device: class/infiniband of the netns's sysfs, the device whose
//   PCI function is the row's, read by the host collector's own code
//   (IbClass, appendIbUpdates) limited to that device, so the counters land
//   under the same /rdma/devices/device[name] paths a host device has; the
//   row's rdma_device is set to it, so the pod entry joins on the same name;
// - its netdev: `ethtool -S` through the netns's socket and the class/net
//   link leaves (MTU, oper/admin status, speed) through the netns's sysfs,
//   under /interfaces/interface[name=<netdev>@<PCI address>]: every pod may
//   call its VF "net1", the host may have a "net1" too, the PCI address is
//   the node's own. The RDMA port's netdev leaf says the same name.
//
// One handle per netns (pod_netns_handle.h), kept while a row names it and
// closed at the end of the first poll that does not. What a gone pod's
// device or netdev wrote is removed with that poll.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "southbound/k8s/attribution.h"
#include "southbound/k8s/pod_netns_handle.h"
#include "southbound/rdma/ib_class.h"

namespace rdmagw::southbound::k8s {

// PodNetnsHandle::open in production; handles over test trees in tests.
using PodNetnsOpener = std::function<Result<std::unique_ptr<PodNetnsHandle>>(const std::string& netns_path)>;

// The model name of a pod's netdev: "net1@0000:3b:00.2".
std::string podNetdevKey(const AttributionRow& row);

class PodNetnsCounters {
 public:
  explicit PodNetnsCounters(PodNetnsOpener opener = PodNetnsHandle::open,
                            rdma::IbClass::Clock clock = rdma::IbClass::Clock(nowNs));

  // Reads every exclusive row with a netns into `batch`, setting the row's
  // rdma_device when its device was found inside. A netns that cannot be
  // opened or read is a returned status (the rows of other netns are read).
  std::vector<Status> poll(std::vector<AttributionRow>& rows, PollBatch& batch);

  size_t openHandles() const { return handles_.size(); }

 private:
  struct Key {
    std::string path;
    NetnsId id;
    auto operator<=>(const Key&) const = default;
  };
  void readRow(PodNetnsHandle& handle, AttributionRow& row, PollBatch& out, std::vector<Status>& failures);

  PodNetnsOpener opener_;
  rdma::IbClass::Clock clock_;
  std::map<Key, std::unique_ptr<PodNetnsHandle>> handles_;
  std::set<std::string> roots_;  // the device and interface subtrees the last poll wrote
};

}  // namespace rdmagw::southbound::k8s
