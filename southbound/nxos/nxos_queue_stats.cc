#include "southbound/nxos/nxos_queue_stats.h"

#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {

std::optional<QueueLeaf> queueLeaf(std::string_view stat_type, std::string_view units) {
  std::string type = toLower(trim(stat_type));
  std::string unit = toLower(trim(units));
  bool pkts = unit == "pkts" || unit == "packets";
  bool octets = unit == "byts" || unit == "bytes";
  if (!pkts && !octets) return std::nullopt;
  if (type == "tx") return QueueLeaf{pkts ? "transmit-pkts" : "transmit-octets", 0};
  if (type.find("ecn") != std::string::npos) {
    return QueueLeaf{pkts ? "ecn-marked-pkts" : "ecn-marked-octets", type == "ecn" ? 0 : 1};
  }
  if (type == "wred/afd & tail drop" || type == "wred & tail drop" || type == "afd & tail drop") {
    return QueueLeaf{pkts ? "dropped-pkts" : "dropped-octets", 0};
  }
  if (type == "tail drop" || type == "dropped" || type == "drop") {
    return QueueLeaf{pkts ? "dropped-pkts" : "dropped-octets", 1};
  }
  return std::nullopt;
}

std::optional<QueueLeaf> queueLeafFromLabel(std::string_view label) {
  std::string_view t = trim(label);
  size_t sp = t.find_last_of(" \t");
  if (sp == std::string_view::npos) return std::nullopt;
  return queueLeaf(t.substr(0, sp), t.substr(sp + 1));
}

void QueueAccumulator::reset(std::string ifname, std::string group) {
  ifname_ = std::move(ifname);
  group_ = std::move(group);
  slots_.clear();
}

void QueueAccumulator::add(const QueueLeaf& leaf, std::optional<uint64_t> sum, bool bad) {
  auto it = slots_.find(leaf.leaf);
  if (it != slots_.end() && it->second.rank < leaf.rank) return;
  Slot& s = slots_[leaf.leaf];
  s = Slot{leaf.rank, sum, bad};
}

void QueueAccumulator::flush(Emitter& em) {
  if (!group_.empty()) {
    for (const auto& [leaf, s] : slots_) {
      if (s.bad || !s.value) continue;
      em.counter(queuePath(ifname_, group_, leaf), *s.value);
    }
  }
  slots_.clear();
  group_.clear();
}

void IngressAccumulator::add(const std::string& ifname, std::optional<uint64_t> v, bool bad) {
  ifname_ = ifname;
  bad_ = bad_ || bad;
  if (!v) return;
  if (!sum_) {
    sum_ = v;
  } else if (auto s = addChecked(*sum_, *v)) {
    sum_ = s;
  } else {
    bad_ = true;
  }
}

void IngressAccumulator::flush(Emitter& em) {
  if (!ifname_.empty() && sum_ && !bad_) em.counter(qosInputPath(ifname_, "dropped-pkts"), *sum_);
  ifname_.clear();
  sum_.reset();
  bad_ = false;
}

std::optional<uint64_t> addChecked(uint64_t a, uint64_t b) {
  if (a > UINT64_MAX - b) return std::nullopt;
  return a + b;
}

}  // namespace rdmagw::southbound::nxos
