// The live items of the RoCE check (roce_checks.h): what the counters say
// about the configuration. PFC frames on a priority no end pauses are
// counted here (the lossless group); every other live item is a verdict
// another signal wrote into this run's DerivedWriter, read back rather
// than judged twice.

#include <set>

#include "analytics/dcb_consistency.h"
#include "analytics/dcqcn_chain.h"
#include "analytics/pause_tree.h"
#include "analytics/pfc_links.h"
#include "analytics/roce_checks.h"
#include "models/path.h"

namespace rdmagw::analytics {
namespace {

// The priorities `port` pauses: a host's own PFC, a switch's qos-groups'
// pause-cos, else what the other signals take as lossless there.
std::optional<uint64_t> pausedAt(const RunContext& ctx, const PortRef& port) {
  if (auto it = ctx.inv.dcb.host_pfc.find(port); it != ctx.inv.dcb.host_pfc.end()) return it->second;
  if (auto it = ctx.inv.dcb.vmnic_pfc.find(port); it != ctx.inv.dcb.vmnic_pfc.end()) return it->second;
  if (auto cos = switchPausedCos(ctx.inv.roce, port.target)) return cos;
  if (!isSwitch(ctx.inv, port.target)) return std::nullopt;
  uint64_t bits = 0;
  for (int p : losslessPriorities(ctx, port)) bits |= uint64_t{1} << p;
  return bits;
}

void pfcOnLossyPriorities(const RunContext& ctx, CheckResults& r) {
  for (const auto& [port, prios] : ctx.inv.priorities) {
    if (!ctx.inv.up.count(port.target)) continue;
    const std::optional<uint64_t> paused = pausedAt(ctx, port);
    if (!paused) continue;
    bool measured = false;
    std::string found;
    for (int p : prios) {
      if (*paused & (uint64_t{1} << p)) continue;
      const std::string prio = std::to_string(p);
      auto sent = ctx.increase(port.target, Input::kOutPause, port.iface, prio);
      auto received = ctx.increase(port.target, Input::kInPause, port.iface, prio);
      measured = measured || sent || received;
      const uint64_t s = sent ? uint64_t(sent->count) : 0;
      const uint64_t v = received ? uint64_t(received->count) : 0;
      if (s + v == 0) continue;
      found += (found.empty() ? "" : "; ") + std::string("priority ") + prio + ": " + std::to_string(s) +
               " sent, " + std::to_string(v) + " received in the window";
    }
    if (!measured) continue;
    r.judge(found.empty(), CheckStatus::kFail, port.target, CheckGroup::kLossless, "pfc-frames-on-lossy-priority",
            port.iface, "no PFC frames outside the paused priorities " + priorityList(*paused), found);
  }
}

// One derived leaf of this run, its keys and value.
struct Verdict {
  const std::string& target;
  const Path& path;
  const Value& value;
  std::string key(size_t elem, const char* name) const {
    if (elem >= path.elems().size()) return "";
    auto it = path.elems()[elem].keys.find(name);
    return it == path.elems()[elem].keys.end() ? "" : it->second;
  }
  uint64_t number() const {
    double v = 0;
    return valueAsDouble(value, &v) && v >= 0 ? uint64_t(v) : 0;
  }
};

void judgeVerdict(const RunContext& ctx, const Verdict& v, CheckResults& r) {
  const std::string leaf = v.path.elems().back().name;
  // /fabric/interfaces/interface[name]/priorities/priority[id]/state/<leaf>
  if (v.path.elems().size() == 7 && v.path.elems()[1].name == "interfaces" && v.path.elems()[3].name == "priorities") {
    const std::string iface = v.key(2, "name");
    const std::string prio = "priority " + v.key(4, "id");
    if (leaf == "lossless-drop-alarm") {
      r.judge(v.number() == 0, CheckStatus::kFail, v.target, CheckGroup::kLive, "lossless-drops", iface,
              "no drops on lossless priorities (lossless)", prio + ": packets dropped in the window");
    } else if (leaf == "pause-storm") {
      r.judge(v.number() == 0, CheckStatus::kFail, v.target, CheckGroup::kLive, "pause-storm", iface,
              "no pause storm (flow-control)", prio + ": pause storm");
    } else if (leaf == "pause-tree-state-code") {
      r.judge(v.number() != uint64_t(PauseTreeState::kRoot), CheckStatus::kWarn, v.target, CheckGroup::kLive,
              "pause-tree-root", iface, "no pause tree rooted here (congestion-control)",
              prio + ": root of a pause tree");
    }
    return;
  }
  // /fabric/dcqcn/devices/device[name]/ports/port[port-num]/state/verdict-code
  if (leaf == "verdict-code" && v.path.elems().size() == 8 && v.path.elems()[1].name == "dcqcn") {
    const RdmaPortRef rdma{v.target, v.key(3, "name"), v.key(5, "port-num")};
    const PortRef* netdev = ctx.links.netdevPort(rdma);
    const std::string port = netdev ? netdev->iface : rdma.device + "/" + rdma.port;
    const auto verdict = DcqcnVerdict(v.number());
    const bool ok = verdict == DcqcnVerdict::kIdle || verdict == DcqcnVerdict::kWorking;
    r.judge(ok, CheckStatus::kFail, v.target, CheckGroup::kLive, "dcqcn-chain", port,
            "ECN marks answered by CNPs, CNPs handled (congestion-control)",
            std::string(dcqcnVerdictName(verdict)) + " on " + rdma.device + "/" + rdma.port);
  }
}

}  // namespace

void checkRoceLive(const RunContext& ctx, const DerivedWriter& derived, CheckResults& r) {
  pfcOnLossyPriorities(ctx, r);
  for (const auto& [target, updates] : derived.byTarget()) {
    for (const Update& u : updates) {
      if (!u.path.ends_with("-alarm") && !u.path.ends_with("/pause-storm") && !u.path.ends_with("-code")) continue;
      Result<Path> p = Path::parse(u.path);
      if (!p.isOk() || p->elems().empty()) continue;
      judgeVerdict(ctx, Verdict{target, *p, u.value}, r);
    }
  }
}

}  // namespace rdmagw::analytics
