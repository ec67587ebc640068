#include "southbound/k8s/qp_counters.h"

#include <utility>

#include "models/log.h"
#include "models/path.h"
#include "southbound/k8s/pod_cgroup.h"
#include "southbound/kernel_text.h"

namespace rdmagw::southbound::k8s {
namespace {

constexpr size_t kMaxErrors = 3;

std::string podBase(const PodQpCounterKey& key) {
  std::string path = "/rdma/devices/device[name=";
  appendEscapedKeyValue(&path, key.device);
  path += "]/pods/pod[uid=";
  appendEscapedKeyValue(&path, key.pod_uid);
  path += "]/qp-counters/port[port-num=" + std::to_string(key.port) + "]/counter[name=";
  appendEscapedKeyValue(&path, key.name);
  path += "]/state/value";
  return path;
}

}  // namespace

PodOfPid procPodOfPid(std::string proc_root) {
  return [proc_root = std::move(proc_root)](uint32_t pid) -> Result<PidPod> {
    const std::string path = proc_root + "/" + std::to_string(pid) + "/cgroup";
    Result<std::string> text = readKernelFile(path, KernelFileKind::kProcFile);
    if (!text.isOk()) {
      // A process that ended between the dump and this read: its directory
      // is gone (ENOENT), or going (ESRCH while it is reaped).
      if (text.status().code() == Status::Code::kNotFound ||
          text.status().message().find("No such process") != std::string::npos) {
        return PidPod{PidPod::Owner::kGone, ""};
      }
      return text.status();
    }
    Result<std::optional<PodCgroup>> pod = podFromCgroupText(*text);
    if (!pod.isOk()) return Status::corrupt(path + ": " + pod.status().message());
    if (!pod.value()) return PidPod{PidPod::Owner::kNoPod, ""};
    return PidPod{PidPod::Owner::kPod, pod.value()->pod_uid};
  };
}

QpCounterPoll QpCounterAccumulator::add(const std::vector<QpCounter>& counters, const PodOfPid& pod_of) {
  QpCounterPoll poll;
  std::map<Binding, Seen> seen;
  for (const QpCounter& counter : counters) {
    ++poll.counters;
    if (!counter.pid) {
      ++poll.of_kernel;
      continue;
    }
    const Binding binding{counter.device, counter.port, counter.counter_id, *counter.pid};
    const auto before = last_.find(binding);
    std::string uid;
    Result<PidPod> owner = pod_of(*counter.pid);
    if (!owner.isOk()) {
      ++poll.unreadable;
      if (poll.errors.size() < kMaxErrors) poll.errors.push_back(owner.status().message());
    } else if (owner->owner == PidPod::Owner::kPod) {
      uid = owner->uid;
    } else if (owner->owner == PidPod::Owner::kNoPod) {
      ++poll.of_no_pod;
    } else {
      ++poll.process_gone;
    }
    // Its process ended while the counter is still listed (the dump and the
    // cgroup read race): the pod it had when it was last seen.
    if (uid.empty() && before != last_.end() && (!owner.isOk() || owner->owner == PidPod::Owner::kGone)) {
      uid = before->second.uid;
    }
    if (uid.empty()) continue;
    // The same PID in another pod is another process: its counter starts over.
    const bool same = before != last_.end() && before->second.uid == uid;
    Seen& now = seen[binding];
    now.uid = uid;
    for (const auto& [name, value] : counter.hw_counters) {
      uint64_t previous = 0;
      if (same) {
        const auto it = before->second.values.find(name);
        if (it != before->second.values.end()) previous = it->second;
      }
      // Lower than last time: the counter was freed and its ID bound again
      // (or zeroed); what it shows now is all new.
      const uint64_t delta = value >= previous ? value - previous : value;
      totals_[PodQpCounterKey{uid, counter.device, counter.port, name}] += delta;
      now.values[name] = value;
    }
  }
  last_ = std::move(seen);
  return poll;
}

void QpCounterAccumulator::keepPods(const std::set<std::string>& live_uids) {
  // A pod with counters bound now is alive whatever the list says: dropping
  // its totals would restart them lower.
  std::set<std::string> keep = live_uids;
  for (const auto& [binding, seen] : last_) keep.insert(seen.uid);
  std::erase_if(totals_, [&](const auto& entry) { return keep.count(entry.first.pod_uid) == 0; });
}

void writeQpCounters(const QpCounterAccumulator& accumulator, const QpCounterPoll& poll, TimestampNs ts,
                     PollBatch& batch) {
  for (const auto& [key, total] : accumulator.totals()) batch.add(podBase(key), total, ts);
  const std::pair<const char*, uint64_t> reasons[] = {
      {"qp-counter-of-no-pod", poll.of_no_pod},
      {"qp-counter-process-gone", poll.process_gone},
      {"qp-counter-of-kernel", poll.of_kernel},
      {"qp-counter-unreadable", poll.unreadable},
  };
  for (const auto& [reason, count] : reasons) {
    batch.add(std::string("/rdma/kubernetes/unattributed/reason[name=") + reason + "]/state/count", count, ts);
  }
}

QpCounterReader::QpCounterReader(QpCountersMode mode, std::string proc_root, RdmaNetlinkOpener open)
    : mode_(mode), pod_of_(procPodOfPid(std::move(proc_root))), open_(std::move(open)) {
  if (!open_) open_ = [] { return openRdmaNetlinkSocket(); };
}

Status QpCounterReader::setAutoMode() {
  Result<std::vector<RdmaPort>> ports = listRdmaPorts(*transport_, seq_++);
  if (!ports.isOk()) return ports.status();
  auto_done_ = true;  // once: a port that refuses is not asked every poll
  std::string names;
  for (const RdmaPort& port : *ports)
    names += (names.empty() ? "" : ", ") + port.device + "/" + std::to_string(port.port);
  RDMAGW_LOG(kWarn, "k8s") << "qp_counters: auto: setting the QP counters of " << (names.empty() ? "no port" : names)
                           << " to auto mode per PID; this changes the devices' counter mode for every other "
                              "reader until it is set back (rdma statistic qp set link <dev>/<port> auto off)";
  std::string failed;
  for (const RdmaPort& port : *ports) {
    Status st = setAutoPidMode(*transport_, seq_++, port);
    if (!st.isOk()) failed += (failed.empty() ? "" : "; ") + st.message();
  }
  if (!failed.empty()) return Status::unavailable("setting auto PID mode: " + failed);
  return Status::ok();
}

Status QpCounterReader::poll(const std::set<std::string>* live_uids, TimestampNs ts, PollBatch& batch) {
  if (mode_ == QpCountersMode::kOff) return Status::ok();
  if (!transport_) {
    Result<std::unique_ptr<RdmaNetlinkTransport>> opened = open_();
    if (!opened.isOk()) return opened.status();
    transport_ = std::move(opened).value();
  }
  Status status;
  if (mode_ == QpCountersMode::kAuto && !auto_done_) status = setAutoMode();
  Result<std::vector<QpCounter>> counters = dumpQpCounters(*transport_, seq_++);
  if (!counters.isOk()) {
    // A reply cut short leaves the socket out of step: start afresh.
    transport_.reset();
    return counters.status();
  }
  const QpCounterPoll poll = accumulator_.add(*counters, pod_of_);
  if (live_uids != nullptr) accumulator_.keepPods(*live_uids);
  writeQpCounters(accumulator_, poll, ts, batch);
  if (status.isOk() && !poll.errors.empty()) status = Status::ioError(poll.errors.front());
  return status;
}

}  // namespace rdmagw::southbound::k8s
