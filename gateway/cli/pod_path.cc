#include "gateway/cli/pod_path.h"

#include <set>
#include <tuple>

#include "gateway/cli/gateway_gnmi_client.h"

namespace rdmagw::gateway {
namespace {

// An element's name without its module prefix ("rdmagw-rdma:rdma" -> "rdma").
std::string bareName(const ::gnmi::PathElem& e) {
  const std::string& name = e.name();
  const size_t colon = name.find(':');
  return colon == std::string::npos ? name : name.substr(colon + 1);
}

// The switch end of the cable whose host end is (target, uplink): the
// link is written on both ends, so either one names the other.
void findPeer(const FabricView& fabric, PodHop& hop) {
  hop.peer_target = hop.peer_interface = "-";
  if (hop.uplink.empty()) return;
  const std::string& target = hop.device.target;
  if (auto own = fabric.links.find({target, hop.uplink}); own != fabric.links.end()) {
    hop.peer_target = leafOr(own->second, "peer-target");
    hop.peer_interface = leafOr(own->second, "peer-interface");
    return;
  }
  for (const auto& [end, leaves] : fabric.links) {
    if (leafOr(leaves, "peer-target") == target && leafOr(leaves, "peer-interface") == hop.uplink) {
      hop.peer_target = end.first;
      hop.peer_interface = end.second;
      return;
    }
  }
}

// What makes a priority a problem, in the words of `rdmagw fabric`.
bool storms(const Leaves& l) { return leafOr(l, "pause-storm") == "1"; }

std::string pfcVerdict(const Leaves& l) {
  if (storms(l)) return "pause storm";
  const std::string tree = leafOr(l, "pause-tree-state");
  if (tree != "clear" && tree != "-") return "pause tree " + tree;
  if (leafOr(l, "lossless-drop-alarm") == "1") return "lossless drops";
  return "pause " + leafOr(l, "pause-balance");
}

class ProblemList {
 public:
  void add(PodProblem p) {
    if (seen_.insert({p.where, p.what, p.verdict}).second) list_.push_back(std::move(p));
  }
  std::vector<PodProblem> take() && { return std::move(list_); }

 private:
  std::set<std::tuple<std::string, std::string, std::string>> seen_;
  std::vector<PodProblem> list_;
};

void pfcProblems(const FabricView& fabric, const std::string& target, const std::string& iface, ProblemList& out) {
  for (const auto& [key, l] : fabric.pfc) {
    const auto& [t, i, prio] = key;
    if (t != target || i != iface || !(storms(l) || (hasPfcVerdict(l) && pfcProblem(l)))) continue;
    std::string detail = "paused " + percent(leafOr(l, "paused-ratio"));
    if (l.count("pause-tree-size")) detail += ", tree size " + leafOr(l, "pause-tree-size");
    if (l.count("pause-tree-roots")) detail += ", roots " + leafOr(l, "pause-tree-roots");
    out.add({t + " " + i + " prio " + std::to_string(prio), "PFC", pfcVerdict(l), detail});
  }
}

void findingProblems(const FabricView& fabric, const std::string& target, const std::set<std::string>& ports,
                     ProblemList& out) {
  for (const auto& [key, l] : fabric.findings) {
    if (key.first != target || ports.count(leafOr(l, "port")) == 0) continue;
    out.add({target + " " + leafOr(l, "port"), "RoCE check", leafOr(l, "severity"),
             leafOr(l, "group") + "/" + leafOr(l, "check") + ": expected " + leafOr(l, "expected") + ", found " +
                 leafOr(l, "found")});
  }
}

}  // namespace

std::vector<PodDevice> podDevicesOf(const ::gnmi::GetResponse& response) {
  std::map<std::tuple<std::string, std::string, std::string>, Leaves> entries;
  for (const ::gnmi::Notification& n : response.notification()) {
    for (const ::gnmi::Update& u : n.update()) {
      // /rdma/devices/device[name]/pods/pod[uid]/state/LEAF
      const auto& el = u.path().elem();
      if (el.size() != 7 || bareName(el[0]) != "rdma" || el[3].name() != "pods" || el[5].name() != "state") continue;
      entries[{n.prefix().target(), elemKey(el[2], "name"), elemKey(el[4], "uid")}][el[6].name()] =
          typedValueText(u.val());
    }
  }
  std::vector<PodDevice> out;
  for (auto& [key, leaves] : entries) {
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::move(leaves)});
  }
  return out;
}

std::vector<PodDevice> devicesOfPod(const std::vector<PodDevice>& all, const std::string& pod) {
  const size_t slash = pod.find('/');
  const std::string ns = slash == std::string::npos ? "" : pod.substr(0, slash);
  const std::string name = slash == std::string::npos ? pod : pod.substr(slash + 1);
  std::vector<PodDevice> out;
  for (const PodDevice& d : all) {
    if (leafOr(d.leaves, "pod") == name && (ns.empty() || leafOr(d.leaves, "namespace") == ns)) out.push_back(d);
  }
  return out;
}

PodPath podPath(const std::vector<PodDevice>& devices, const FabricView& fabric) {
  PodPath path;
  ProblemList problems;
  for (const PodDevice& device : devices) {
    PodHop hop{device, leafOr(device.leaves, "uplink", ""), "", ""};
    // Entries written before the uplink was known: a host-network device's
    // netdev is the host's own.
    if (hop.uplink.empty() && leafOr(device.leaves, "mode") == "host-network")
      hop.uplink = leafOr(device.leaves, "netdev");
    findPeer(fabric, hop);
    // A VF's ECN marks and CNPs are counted on its PF: the PF's chain is
    // the VF pod's chain too.
    const std::string pf_device = leafOr(device.leaves, "pf-device", "");
    for (const auto& [key, l] : fabric.dcqcn) {
      const auto& [t, dev, port] = key;
      const bool pf = !pf_device.empty() && dev == pf_device && dev != device.device;
      if (t != device.target || (dev != device.device && !pf) || !dcqcnProblem(l)) continue;
      problems.add({t + " " + dev + " port " + port + (pf ? " (PF of " + device.device + ")" : ""), "DCQCN",
                    leafOr(l, "verdict"),
                    "ECN-marked " + leafOr(l, "ecn-marked-rate") + "/s, CNP sent " + leafOr(l, "cnp-sent-rate") +
                        "/s, handled " + leafOr(l, "cnp-handled-rate") + "/s"});
    }
    if (!hop.uplink.empty()) {
      pfcProblems(fabric, device.target, hop.uplink, problems);
      std::set<std::string> where{hop.uplink, device.device};
      if (!pf_device.empty()) where.insert(pf_device);
      findingProblems(fabric, device.target, where, problems);
    }
    if (hop.peer_target != "-") {
      pfcProblems(fabric, hop.peer_target, hop.peer_interface, problems);
      findingProblems(fabric, hop.peer_target, {hop.peer_interface}, problems);
    }
    path.hops.push_back(std::move(hop));
  }
  path.problems = std::move(problems).take();
  return path;
}

std::string formatPodPath(const std::string& pod, const PodPath& path) {
  std::vector<std::vector<std::string>> hops{
      {"TARGET", "DEVICE", "CONTAINER", "MODE", "NETDEV", "UPLINK", "SWITCH", "SWITCH-PORT"}};
  for (const PodHop& h : path.hops) {
    const Leaves& l = h.device.leaves;
    hops.push_back({h.device.target, h.device.device, leafOr(l, "container"), leafOr(l, "mode"),
                    leafOr(l, "netdev", "-").empty() ? "-" : leafOr(l, "netdev"), h.uplink.empty() ? "-" : h.uplink,
                    h.peer_target, h.peer_interface});
  }
  std::string out = formatTable("Pod " + pod + ": its RDMA devices and their switch ports", hops);
  if (path.problems.empty()) {
    return out +
           "Problems on its path\n(none: its devices' DCQCN chain, PFC on both ends of each cable and the "
           "RoCE checks of those ports are clean)\n";
  }
  std::vector<std::vector<std::string>> rows{{"WHERE", "WHAT", "VERDICT", "DETAIL"}};
  for (const PodProblem& p : path.problems) rows.push_back({p.where, p.what, p.verdict, p.detail});
  return out + formatTable("Problems on its path", rows);
}

}  // namespace rdmagw::gateway
