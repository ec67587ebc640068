#pragma once
// What the gateway keeps open of one pod's network namespace while the netns
// is attributed: a sysfs mount made inside it (its class/net and
// class/infiniband are that netns's view, so a VF moved into the pod is seen
// there and nowhere else) and a datagram socket made inside it for
// SIOCETHTOOL (a socket speaks to the netns it was created in). Both are
// made once by a short-lived thread that enters the netns, so reading the
// pod's counters each poll costs no setns, no thread and no fork.
//
// The mount pins the netns: a handle must be closed when its pod goes, or
// the netns (and an exclusive RDMA device in it) outlives the pod. Opening
// needs CAP_SYS_ADMIN (setns, fsmount).

#include <memory>
#include <string>

#include "models/status.h"
#include "southbound/k8s/pod_netns.h"
#include "southbound/rdma/ethtool_source.h"
#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::k8s {

// stat() of a netns file; the errors name the path. A pod re-created with
// the same netns path has another inode, and with it another handle.
Result<NetnsId> netnsIdOf(const std::string& netns_path);

class PodNetnsHandle {
 public:
  // Enters the netns at `netns_path` from a short-lived thread and makes the
  // mount and the socket there. Errors as listNetnsNetdevs (notFound,
  // invalidArgument, unavailable without CAP_SYS_ADMIN, ioError), naming
  // the path.
  static Result<std::unique_ptr<PodNetnsHandle>> open(const std::string& netns_path);

  // Over any reader and ethtool source (tests; a recorded tree). `mount_fd`,
  // when not -1, is closed with the handle.
  PodNetnsHandle(NetnsId id, rdma::SysfsReaderPtr sysfs, rdma::EthtoolSourcePtr ethtool, int mount_fd = -1);
  ~PodNetnsHandle();
  PodNetnsHandle(const PodNetnsHandle&) = delete;
  PodNetnsHandle& operator=(const PodNetnsHandle&) = delete;

  const NetnsId& id() const { return id_; }
  // Paths relative to the netns's sysfs root ("class/net/net1/mtu").
  rdma::SysfsReader& sysfs() { return *sysfs_; }
  // ethtool -S of the netns's netdevs. Runs no tool: dcb and mlnx_qos would
  // fork, in the gateway's netns, not the pod's.
  rdma::EthtoolSource& ethtool() { return *ethtool_; }

  // Handles alive in this process, all sources together.
  static int openCount();

 private:
  NetnsId id_;
  int mount_fd_;
  rdma::SysfsReaderPtr sysfs_;
  rdma::EthtoolSourcePtr ethtool_;
};

}  // namespace rdmagw::southbound::k8s
