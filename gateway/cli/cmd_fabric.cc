// `rdmagw fabric`: the fabric verdicts and pause-tree roots of a running
// gateway, read over its own gNMI server (one Get of /fabric on every target)
// and printed as tables. It is a gNMI client like any other: it knows the
// paths of yang/rdmagw-fabric.yang, not the analytics that wrote them. The
// connection options are those of a gNMI target in the config (TLS by
// default; no TLS or no verification said explicitly; secrets by reference).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "gateway/cli/command_spec.h"
#include "gateway/cli/fabric_view.h"
#include "gateway/cli/gateway_gnmi_client.h"
#include "gateway/cli/pod_path.h"

namespace rdmagw::gateway {
namespace {

const CommandSpec& fabricSpec() {
  static const std::string usage =
      "usage: rdmagw fabric [--address HOST:PORT] [options]\n"
      "\n"
      "Prints the fabric verdicts of a running gateway (docs/analytics.md):\n"
      "the DCQCN chain per RDMA port, PFC per port and priority\n"
      "(pause tree, pause balance, paused fraction, lossless drops, link peer)\n"
      "and the roots of the pause trees. Reads them with one gNMI Get of /fabric\n"
      "from the gateway's gNMI server (northbound.gnmi); the gateway needs an\n"
      "analytics: block. Exit 0 when verdicts were printed, 1 when the gateway\n"
      "has none or cannot be reached.\n"
      "\n"
      "options:\n" +
      gatewayGnmiOptionsUsage() +
      "  --target NAME          one target only (default *: every target)\n"
      "  --problems             only the ports with something to look at: a broken\n"
      "                         DCQCN chain, a pause tree (root or victim),\n"
      "                         unbalanced pause, lossless drops, a DCB mismatch\n"
      "  --pod NAMESPACE/NAME   one Kubernetes pod's path instead: its RDMA devices\n"
      "                         (/rdma/devices/device/pods), the switch port of each\n"
      "                         device's uplink, and the problems on that path\n"
      "                         (DCQCN, PFC on both cable ends, RoCE findings)\n"
      "  -h, --help             this help\n";
  static const CommandSpec spec = withGatewayGnmiOptions({usage.c_str(), {"--target", "--pod"}, {"--problems"}, 0});
  return spec;
}

// A "*" Get through a fleet member answers for the live members only: say
// whose targets the view lacks, so a quiet view is not read as a calm fabric.
void warnMissingMembers(const ::gnmi::GetResponse& resp) {
  for (const MissingMember& m : missingMembers(resp)) {
    std::fprintf(stderr, "rdmagw fabric: fleet member %s did not answer, its targets are missing: %s\n",
                 m.member.c_str(), m.error.c_str());
  }
}

int usage(const std::string& why) {
  std::fprintf(stderr, "rdmagw fabric: %s\n\n%s", why.c_str(), fabricSpec().usage);
  return 2;
}

void printView(const FabricView& v, bool problems_only) {
  std::vector<std::vector<std::string>> dcqcn{
      {"TARGET", "DEVICE", "PORT", "VERDICT", "ECN-MARKED/S", "CNP-SENT/S", "CNP-HANDLED/S", "CNP-IGNORED/S"}};
  for (const auto& [k, l] : v.dcqcn) {
    if (problems_only && !dcqcnProblem(l)) continue;
    const auto& [target, device, port] = k;
    dcqcn.push_back({target, device, port, leafOr(l, "verdict"), leafOr(l, "ecn-marked-rate"),
                     leafOr(l, "cnp-sent-rate"), leafOr(l, "cnp-handled-rate"), leafOr(l, "cnp-ignored-rate")});
  }
  printTable("DCQCN chain per RDMA port", dcqcn);

  std::vector<std::vector<std::string>> pfc{{"TARGET", "INTERFACE", "PRIO", "PAUSE-TREE", "TREE-SIZE", "BALANCE",
                                             "PAUSED", "LOSSLESS-DROP", "PEER"}};
  std::vector<std::vector<std::string>> roots{{"TARGET", "INTERFACE", "PRIO", "TREE-SIZE"}};
  for (const auto& [k, l] : v.pfc) {
    if (!hasPfcVerdict(l) || (problems_only && !pfcProblem(l))) continue;
    const auto& [target, iface, prio] = k;
    auto link = v.links.find({target, iface});
    std::string peer = "-";
    if (link != v.links.end()) {
      peer = leafOr(link->second, "peer-target", "?") + ":" + leafOr(link->second, "peer-interface", "?");
    }
    const std::string alarm = leafOr(l, "lossless-drop-alarm");
    const std::string drops = alarm == "1" ? "DROPPING" : alarm == "0" ? "no" : alarm;
    const std::string tree = leafOr(l, "pause-tree-state"), size = leafOr(l, "pause-tree-size");
    pfc.push_back({target, iface, std::to_string(prio), tree, size, leafOr(l, "pause-balance"),
                   percent(leafOr(l, "paused-ratio")), drops, peer});
    if (tree == "root") roots.push_back({target, iface, std::to_string(prio), size});
  }
  printTable("PFC per port and priority", pfc);

  // DCB consistency per link end; what differs last (it holds spaces).
  std::vector<std::vector<std::string>> dcb{
      {"TARGET", "INTERFACE", "DCB", "PFC", "PEER-PFC", "MTU", "PEER-MTU", "MISMATCHES"}};
  for (const auto& entry : v.dcb) {
    // Plain references, not a structured binding: clang 14 cannot capture one in a lambda.
    const auto& k = entry.first;
    const auto& l = entry.second;
    if (problems_only && leafOr(l, "consistency") != "mismatch") continue;
    auto list = [&l](const char* leaf) {
      const std::string p = leafOr(l, leaf);
      return p.empty() ? std::string("none") : p;
    };
    dcb.push_back({k.first, k.second, leafOr(l, "consistency"), list("pfc-priorities"), list("peer-pfc-priorities"),
                   leafOr(l, "mtu"), leafOr(l, "peer-mtu"), leafOr(l, "mismatches", "")});
  }
  printTable("DCB consistency per link end", dcb);
  if (roots.size() == 1) {
    std::printf("Pause-tree roots\n(none)\n");
  } else {
    printTable("Pause-tree roots", roots);
  }
}

// `--pod`: the pod's entries from every target, then /fabric for its path.
int podCommand(const GatewayGnmiClient& client, const std::string& pod) {
  const std::string& address = client.config.address;
  Result<::gnmi::GetResponse> entries = gatewayGet(client, "*", {"rdma", "devices", "device", "pods"});
  if (entries.status().code() == Status::Code::kNotFound) {
    std::fprintf(stderr, "rdmagw fabric: %s attributes no device to any pod (%s); is kubernetes: on a target?\n",
                 address.c_str(), entries.status().message().c_str());
    return 1;
  }
  if (!entries.isOk()) {
    std::fprintf(stderr, "rdmagw fabric: %s\n", entries.status().message().c_str());
    return 1;
  }
  const std::vector<PodDevice> all = podDevicesOf(*entries);
  const std::vector<PodDevice> devices = devicesOfPod(all, pod);
  if (devices.empty()) {
    std::fprintf(stderr, "rdmagw fabric: no RDMA device of pod %s among the %zu pod entries of %s\n", pod.c_str(),
                 all.size(), address.c_str());
    return 1;
  }
  FabricView view;
  Result<::gnmi::GetResponse> fabric = gatewayGet(client, "*", {"fabric"});
  if (fabric.isOk()) {
    for (const ::gnmi::Notification& n : fabric->notification()) {
      if (isMissingMemberNotice(n)) continue;
      for (const ::gnmi::Update& u : n.update()) addFabricUpdate(n.prefix().target(), u, &view);
    }
    warnMissingMembers(*fabric);
  } else {
    // The path is still worth printing; say why it has no verdicts.
    std::fprintf(stderr, "rdmagw fabric: no fabric verdicts from %s (%s); is analytics: configured?\n", address.c_str(),
                 fabric.status().message().c_str());
  }
  std::fputs(formatPodPath(pod, podPath(devices, view)).c_str(), stdout);
  return 0;
}

}  // namespace

int fabricCommand(const Args& args) {
  if (int rc = checkArgs(args, fabricSpec(), "fabric"); rc >= 0) return rc;
  Result<GatewayGnmiClient> client = gatewayGnmiClientFromArgs(args);
  if (!client.isOk()) return usage(client.status().message());
  if (std::string pod; flagValue(args, "--pod", &pod)) {
    if (pod.empty() || pod.back() == '/') return usage("--pod needs NAMESPACE/NAME");
    return podCommand(*client, pod);
  }
  std::string target = "*";
  flagValue(args, "--target", &target);
  const std::string& address = client->config.address;
  Result<::gnmi::GetResponse> resp = gatewayGet(*client, target, {"fabric"});
  if (resp.status().code() == Status::Code::kNotFound) {
    // The gateway answers, and holds no /fabric leaf: no analytics block,
    // or its first window has not passed yet.
    std::fprintf(stderr, "rdmagw fabric: %s has no fabric verdicts (%s); is analytics: configured?\n",
                 address.c_str(), resp.status().message().c_str());
    return 1;
  }
  if (!resp.isOk()) {
    std::fprintf(stderr, "rdmagw fabric: %s\n", resp.status().message().c_str());
    return 1;
  }
  FabricView view;
  for (const ::gnmi::Notification& n : resp->notification()) {
    if (isMissingMemberNotice(n)) continue;
    for (const ::gnmi::Update& u : n.update()) addFabricUpdate(n.prefix().target(), u, &view);
  }
  warnMissingMembers(*resp);
  if (view.dcqcn.empty() && view.pfc.empty()) {
    // Links are known from the config at once; verdicts need two samples
    // of the counters inside the window.
    std::fprintf(stderr, "rdmagw fabric: %s has no fabric verdicts yet (links only); is the first analytics "
                 "window still filling?\n", address.c_str());
    return 1;
  }
  printView(view, hasFlag(args, "--problems"));
  return 0;
}

}  // namespace rdmagw::gateway
