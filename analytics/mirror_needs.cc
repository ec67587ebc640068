#include "analytics/mirror_needs.h"

#include <vector>

#include "analytics/fabric_reader.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics {
namespace {

bool moved(const std::optional<Increase>& inc) { return inc && inc->count > 0; }

// Whether `port` sent or received pause in the window, on a priority or in
// its all-priority totals (NX-OS ii ports).
bool paused(const RunContext& ctx, const PortRef& port) {
  auto prios = ctx.inv.priorities.find(port);
  if (prios != ctx.inv.priorities.end()) {
    for (int p : prios->second) {
      const std::string prio = std::to_string(p);
      if (moved(ctx.increase(port.target, Input::kInPause, port.iface, prio)) ||
          moved(ctx.increase(port.target, Input::kOutPause, port.iface, prio))) {
        return true;
      }
    }
  }
  return ctx.inv.pfc_totals.count(port) && (moved(ctx.increase(port.target, Input::kInPfcTotal, port.iface, "")) ||
                                            moved(ctx.increase(port.target, Input::kOutPfcTotal, port.iface, "")));
}

class NeedsBuilder {
 public:
  explicit NeedsBuilder(const RunContext& ctx) : ctx_(ctx) {
    for (const auto& [rdma, netdev] : ctx.inv.netdev) {
      if (!ctx.inv.local.count(rdma.target)) behind_[{rdma.target, netdev}].push_back(&rdma);
    }
  }

  void peerEnd(const PortRef& end) {
    if (ctx_.inv.local.count(end.target)) return;
    out.ports[end.target].insert(end.iface);
    auto rdma = behind_.find(end);
    if (rdma == behind_.end()) return;
    for (const RdmaPortRef* r : rdma->second) out.rdma_ports[end.target].insert({r->device, r->port});
  }

  MirrorNeeds out;

 private:
  const RunContext& ctx_;
  std::map<PortRef, std::vector<const RdmaPortRef*>> behind_;  // a peer host's netdev -> its RDMA ports
};

}  // namespace

MirrorNeeds mirrorNeeds(const RunContext& ctx) {
  NeedsBuilder b(ctx);
  const std::set<std::string>& local = ctx.inv.local;
  // A peer switch one of whose copied ports paused: a pause tree reaches
  // into it, and its other branches are the tree's too.
  auto consider = [&](const PortRef& port) {
    if (!local.count(port.target) && isSwitch(ctx.inv, port.target) && !b.out.whole.count(port.target) &&
        paused(ctx, port)) {
      b.out.whole.insert(port.target);
    }
  };
  for (const auto& entry : ctx.inv.priorities) consider(entry.first);
  for (const PortRef& port : ctx.inv.pfc_totals) consider(port);

  for (const ResolvedLink& link : ctx.links.links()) {
    const bool a_here = local.count(link.a.target) > 0;
    const bool b_here = local.count(link.b.target) > 0;
    if (a_here && !b_here) {
      b.peerEnd(link.b);
    } else if (b_here && !a_here) {
      b.peerEnd(link.a);
    } else if (!a_here && !b_here) {
      // Between two peers: wanted where it leads on from a paused port of
      // a switch a tree brought in (the tree's next ports).
      if (b.out.whole.count(link.a.target) && paused(ctx, link.a)) b.peerEnd(link.b);
      if (b.out.whole.count(link.b.target) && paused(ctx, link.b)) b.peerEnd(link.a);
    }
  }
  return std::move(b.out);
}

namespace {

// Refreshes what `now` needs and forgets what no run needed since `oldest`.
template <typename Key>
void refresh(std::map<Key, TimestampNs>& held, const std::vector<Key>& needed, TimestampNs now, TimestampNs oldest) {
  for (const Key& k : needed) held[k] = now;
  std::erase_if(held, [&](const auto& entry) { return entry.second < oldest; });
}

}  // namespace

void MirrorNeedsBoard::publish(const MirrorNeeds& needs, TimestampNs now) {
  std::vector<std::pair<std::string, std::string>> ports;
  for (const auto& [target, names] : needs.ports) {
    for (const std::string& n : names) ports.emplace_back(target, n);
  }
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> rdma;
  for (const auto& [target, devs] : needs.rdma_ports) {
    for (const auto& d : devs) rdma.emplace_back(target, d);
  }
  const std::vector<std::string> whole(needs.whole.begin(), needs.whole.end());
  std::lock_guard lock(mu_);
  refresh(ports_, ports, now, now - hold_);
  refresh(rdma_ports_, rdma, now, now - hold_);
  refresh(whole_, whole, now, now - hold_);
}

void MirrorNeedsBoard::clear() {
  std::lock_guard lock(mu_);
  ports_.clear();
  rdma_ports_.clear();
  whole_.clear();
}

MirrorNeeds MirrorNeedsBoard::read() const {
  MirrorNeeds out;
  std::lock_guard lock(mu_);
  for (const auto& entry : ports_) out.ports[entry.first.first].insert(entry.first.second);
  for (const auto& entry : rdma_ports_) out.rdma_ports[entry.first.first].insert(entry.first.second);
  for (const auto& entry : whole_) out.whole.insert(entry.first);
  return out;
}

}  // namespace rdmagw::analytics
