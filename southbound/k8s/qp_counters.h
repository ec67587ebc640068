#pragma once
// Per-pod RDMA traffic on a device pods share (the shared RDMA device plugin,
// macvlan, host-device): the kernel can count per process when a port's QP
// counters are in auto mode per PID (`rdma statistic qp set link mlx5_0/1
// auto pid on`). Each poll dumps the bound counters (rdma_netlink.h), finds
// each PID's pod through <proc_root>/<pid>/cgroup (pod_cgroup.h), and sums a
// pod's processes per device, port and counter name.
//
// A process that closes its QPs takes its counter with it: the kernel frees
// it, and a sum over the counters now bound would go backwards. So each pod's
// totals are accumulated from deltas, per bound counter (device, port, counter
// ID, PID, pod): a counter first seen adds its whole value (it counts from its
// binding), one seen again adds its growth, one lower than last time was reset
// (its ID reused) and adds its new value, one gone adds nothing more. A
// counter whose process is in no pod, or ended before its cgroup was read, is
// counted by reason, never given to a pod.

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "southbound/k8s/kubernetes_config.h"
#include "southbound/k8s/rdma_netlink.h"

namespace rdmagw::southbound::k8s {

// Whose a PID is.
struct PidPod {
  enum class Owner { kPod, kNoPod, kGone } owner = Owner::kGone;
  std::string uid;  // for kPod
};
// Reads <proc_root>/<pid>/cgroup; an error when it exists and cannot be read.
using PodOfPid = std::function<Result<PidPod>(uint32_t pid)>;
PodOfPid procPodOfPid(std::string proc_root);

struct PodQpCounterKey {
  std::string pod_uid;
  std::string device;
  uint32_t port = 0;
  std::string name;
  auto operator<=>(const PodQpCounterKey&) const = default;
};

// What one poll's dump held and could not give to a pod.
struct QpCounterPoll {
  uint64_t counters = 0;            // bound counters listed
  uint64_t of_no_pod = 0;           // the process is in no pod's cgroup
  uint64_t process_gone = 0;        // it ended before its cgroup was read
  uint64_t of_kernel = 0;           // a kernel consumer's, no PID
  uint64_t unreadable = 0;          // its cgroup could not be read or understood
  std::vector<std::string> errors;  // the first few unreadable ones
};

class QpCounterAccumulator {
 public:
  QpCounterPoll add(const std::vector<QpCounter>& counters, const PodOfPid& pod_of);
  // Forgets the totals of pods not in `live_uids` (deleted pods).
  void keepPods(const std::set<std::string>& live_uids);
  const std::map<PodQpCounterKey, uint64_t>& totals() const { return totals_; }

 private:
  struct Binding {
    std::string device;
    uint32_t port = 0;
    uint32_t counter_id = 0;
    uint32_t pid = 0;
    auto operator<=>(const Binding&) const = default;
  };
  struct Seen {
    std::string uid;
    std::map<std::string, uint64_t> values;  // by counter name
  };
  std::map<Binding, Seen> last_;  // the bindings of the last poll
  std::map<PodQpCounterKey, uint64_t> totals_;
};

// The totals as /rdma/devices/device[name]/pods/pod[uid]/qp-counters/
// port[port-num]/counter[name]/state/value, and the poll's reasons under
// /rdma/kubernetes/unattributed.
void writeQpCounters(const QpCounterAccumulator& accumulator, const QpCounterPoll& poll, TimestampNs ts,
                     PollBatch& batch);

using RdmaNetlinkOpener = std::function<Result<std::unique_ptr<RdmaNetlinkTransport>>()>;

// What the attribution source holds when qp_counters is not off.
class QpCounterReader {
 public:
  // `open` defaults to the NETLINK_RDMA socket.
  QpCounterReader(QpCountersMode mode, std::string proc_root, RdmaNetlinkOpener open = {});

  // One poll's counters into `batch`; `live_uids` (null: unknown) prunes the
  // totals of deleted pods. An error says what failed; the totals stay.
  Status poll(const std::set<std::string>* live_uids, TimestampNs ts, PollBatch& batch);

 private:
  Status setAutoMode();

  QpCountersMode mode_;
  PodOfPid pod_of_;
  RdmaNetlinkOpener open_;
  std::unique_ptr<RdmaNetlinkTransport> transport_;
  bool auto_done_ = false;
  uint32_t seq_ = 1;
  QpCounterAccumulator accumulator_;
};

}  // namespace rdmagw::southbound::k8s
