#include "analytics/pause_tree.h"

#include <map>
#include <numeric>
#include <set>
#include <vector>

namespace rdmagw::analytics {
namespace {

struct Node {
  PortRef port;
  int prio;
  bool sending = false;
  bool receiving = false;
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
  Trees trees(nodes.size());
  // A switch's ports receiving pause, per (switch, priority): its downstream.
  std::map<std::pair<std::string, int>, std::vector<size_t>> paused_downstream;
  for (size_t i = 0; i < nodes.size(); ++i) {
    auto kind = ctx.inv.target_kind.find(nodes[i].port.target);
    const bool forwards = kind != ctx.inv.target_kind.end() && kind->second == "nexus";
    if (forwards && nodes[i].receiving) paused_downstream[{nodes[i].port.target, nodes[i].prio}].push_back(i);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node& n = nodes[i];
    if (n.sending) {
      bool downstream = false;
      auto d = paused_downstream.find({n.port.target, n.prio});
      for (size_t j : d == paused_downstream.end() ? std::vector<size_t>{} : d->second) {
        if (j == i) continue;
        downstream = true;
        trees.join(i, j);
      }
      n.state = downstream ? PauseTreeState::kVictim : PauseTreeState::kRoot;
    } else if (n.receiving) {
      n.state = PauseTreeState::kVictim;
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
