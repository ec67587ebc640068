#include "analytics/pause_tree.h"

#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "analytics/pfc_links.h"

namespace rdmagw::analytics {
namespace {

struct Node {
  PortRef port;
  int prio;
  bool sending = false;
  bool receiving = false;
  bool congested = false;  // a switch port whose egress queue marks ECN, not paused itself
  PauseTreeState state = PauseTreeState::kClear;
};

// Union-find over node indices.
class Trees {
 public:
  explicit Trees(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t find(size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(size_t a, size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<size_t> parent_;
};

bool moved(const std::optional<Increase>& inc) { return inc && inc->count > 0; }

// ECN marks in the window on the switch port's queue serving `prio`.
bool queueMarked(const RunContext& ctx, const PortRef& port, int prio) {
  auto queues = ctx.inv.queues.find(port);
  if (queues == ctx.inv.queues.end()) return false;
  auto q = queues->second.find(prio);
  return q != queues->second.end() && moved(ctx.increase(port.target, Input::kQueueEcn, port.iface, q->second));
}

}  // namespace

std::string_view pauseTreeStateName(PauseTreeState s) {
  switch (s) {
    case PauseTreeState::kClear: return "clear";
    case PauseTreeState::kVictim: return "victim";
    case PauseTreeState::kRoot: return "root";
  }
  return "clear";
}

void derivePauseTree(const RunContext& ctx, DerivedWriter& out) {
  std::vector<Node> nodes;
  std::map<std::pair<PortRef, int>, size_t> index;
  for (const auto& [port, prios] : ctx.inv.priorities) {
    for (int p : prios) {
      const std::string prio = std::to_string(p);
      auto sent = ctx.increase(port.target, Input::kOutPause, port.iface, prio);
      auto received = ctx.increase(port.target, Input::kInPause, port.iface, prio);
      if (!sent && !received) continue;  // not measured in this window
      index[{port, p}] = nodes.size();
      nodes.push_back(Node{port, p, moved(sent), moved(received)});
    }
  }
  // Switch ports that count PFC only as totals (NX-OS ii ports): their
  // frames are on the port's one lossless priority; with several the
  // totals cannot be split, and the port stays out of the trees.
  for (const PortRef& port : ctx.inv.pfc_totals) {
    if (ctx.inv.priorities.count(port) || !isSwitch(ctx.inv, port.target)) continue;
    const std::set<int> lossless = losslessPriorities(ctx, port);
    if (lossless.size() != 1) continue;
    auto sent = ctx.increase(port.target, Input::kOutPfcTotal, port.iface, "");
    auto received = ctx.increase(port.target, Input::kInPfcTotal, port.iface, "");
    if (!sent && !received) continue;
    index[{port, *lossless.begin()}] = nodes.size();
    nodes.push_back(Node{port, *lossless.begin(), moved(sent), moved(received)});
  }
  Trees trees(nodes.size());
  // Per (switch, priority): its ports receiving pause (paused downstream),
  // its ports sending pause, and its congested egress ports: ECN marks on
  // the queue serving the priority while nothing pauses the port. The
  // latter is where an incast starts: the queue toward the receiver fills
  // and the switch pauses the ports feeding it.
  using Key = std::pair<std::string, int>;
  std::map<Key, std::vector<size_t>> paused_downstream, pausing, congested;
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node& n = nodes[i];
    if (!isSwitch(ctx.inv, n.port.target)) continue;
    const Key key{n.port.target, n.prio};
    if (n.receiving) paused_downstream[key].push_back(i);
    if (n.sending) pausing[key].push_back(i);
    n.congested = !n.receiving && queueMarked(ctx, n.port, n.prio);
    if (n.congested) congested[key].push_back(i);
  }
  auto others = [](const std::map<Key, std::vector<size_t>>& m, const Key& key, size_t self) {
    std::vector<size_t> out;
    if (auto it = m.find(key); it != m.end()) {
      for (size_t j : it->second) {
        if (j != self) out.push_back(j);
      }
    }
    return out;
  };
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node& n = nodes[i];
    const Key key{n.port.target, n.prio};
    if (n.sending) {
      std::vector<size_t> downstream = others(paused_downstream, key, i);
      for (size_t j : others(congested, key, i)) downstream.push_back(j);
      for (size_t j : downstream) trees.join(i, j);
      n.state = downstream.empty() ? PauseTreeState::kRoot : PauseTreeState::kVictim;
    } else if (n.receiving) {
      n.state = PauseTreeState::kVictim;
    } else if (n.congested && !others(pausing, key, i).empty()) {
      // Marks without pause are DCQCN's business; with pause, a tree root.
      n.state = PauseTreeState::kRoot;
    }
    const PortRef* peer = ctx.links.peerOf(n.port);
    auto other = peer ? index.find({*peer, n.prio}) : index.end();
    if (n.state != PauseTreeState::kClear && other != index.end() &&
        (nodes[other->second].sending || nodes[other->second].receiving)) {
      trees.join(i, other->second);
    }
  }
  std::map<size_t, size_t> size;
  std::map<size_t, std::set<std::string>> roots;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].state == PauseTreeState::kClear) continue;
    ++size[trees.find(i)];
    if (nodes[i].state == PauseTreeState::kRoot) roots[trees.find(i)].insert(nodes[i].port.toString());
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    const bool clear = n.state == PauseTreeState::kClear;
    std::string root_list;
    for (const std::string& r : clear ? std::set<std::string>{} : roots[trees.find(i)]) {
      root_list += (root_list.empty() ? "" : ",") + r;
    }
    out.priority(n.port, n.prio, "pause-tree-state", std::string(pauseTreeStateName(n.state)));
    out.priority(n.port, n.prio, "pause-tree-state-code", uint64_t(n.state));
    out.priority(n.port, n.prio, "pause-tree-size", uint64_t(clear ? 0 : size[trees.find(i)]));
    if (!root_list.empty()) out.priority(n.port, n.prio, "pause-tree-roots", root_list);
  }
}

}  // namespace rdmagw::analytics
