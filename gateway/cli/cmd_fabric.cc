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
#include "gateway/cli/gateway_gnmi_client.h"

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
      "  -h, --help             this help\n";
  static const CommandSpec spec = withGatewayGnmiOptions({usage.c_str(), {"--target"}, {"--problems"}, 0});
  return spec;
}

int usage(const std::string& why) {
  std::fprintf(stderr, "rdmagw fabric: %s\n\n%s", why.c_str(), fabricSpec().usage);
  return 2;
}

// Leaf name -> value text, for one DCQCN port or one PFC port/priority.
using Leaves = std::map<std::string, std::string>;

struct FabricView {
  std::map<std::tuple<std::string, std::string, std::string>, Leaves> dcqcn;  // target, device, port
  std::map<std::tuple<std::string, std::string, int>, Leaves> pfc;            // target, interface, priority
  std::map<std::pair<std::string, std::string>, Leaves> links;                // target, interface
  std::map<std::pair<std::string, std::string>, Leaves> dcb;                  // target, interface
};

std::string key(const ::gnmi::PathElem& e, const char* name) {
  auto it = e.key().find(name);
  return it == e.key().end() ? "" : it->second;
}

// Sorts one update of /fabric into the view by the shape of its path
// (yang/rdmagw-fabric.yang); leaves of other shapes are not shown.
void addUpdate(const std::string& target, const ::gnmi::Update& u, FabricView* view) {
  const auto& el = u.path().elem();
  if (el.size() < 2 || el[0].name() != "fabric") return;
  const std::string leaf = el[el.size() - 1].name();
  const std::string value = typedValueText(u.val());
  // /fabric/dcqcn/devices/device[name]/ports/port[port-num]/state/LEAF
  if (el.size() == 8 && el[1].name() == "dcqcn") {
    view->dcqcn[{target, key(el[3], "name"), key(el[5], "port-num")}][leaf] = value;
  } else if (el.size() == 7 && el[1].name() == "interfaces" && el[3].name() == "priorities") {
    // /fabric/interfaces/interface[name]/priorities/priority[id]/state/LEAF
    view->pfc[{target, key(el[2], "name"), std::atoi(key(el[4], "id").c_str())}][leaf] = value;
  } else if (el.size() == 6 && el[1].name() == "interfaces" && el[3].name() == "link") {
    // /fabric/interfaces/interface[name]/link/state/LEAF
    view->links[{target, key(el[2], "name")}][leaf] = value;
  } else if (el.size() == 6 && el[1].name() == "interfaces" && el[3].name() == "dcb") {
    // /fabric/interfaces/interface[name]/dcb/state/LEAF
    view->dcb[{target, key(el[2], "name")}][leaf] = value;
  }
}

std::string get(const Leaves& l, const std::string& leaf, const std::string& absent = "-") {
  auto it = l.find(leaf);
  return it == l.end() ? absent : it->second;
}

// A fraction as a percentage ("0.25" -> "25.0%"); other text unchanged.
std::string percent(const std::string& ratio) {
  char* end = nullptr;
  const double v = std::strtod(ratio.c_str(), &end);
  if (ratio.empty() || *end != '\0') return ratio;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v * 100);
  return buf;
}

bool dcqcnProblem(const Leaves& l) {
  const std::string v = get(l, "verdict");
  return v != "idle" && v != "working" && v != "-";
}

bool pfcProblem(const Leaves& l) {
  const std::string tree = get(l, "pause-tree-state");
  return (tree != "clear" && tree != "-") || get(l, "pause-balance") == "unbalanced" ||
         get(l, "lossless-drop-alarm") == "1";
}

// A priority whose only leaves are rates (a port counting pause on a
// priority nobody judges) says nothing a verdict row would.
bool hasVerdict(const Leaves& l) {
  for (const char* leaf : {"pause-tree-state", "pause-balance", "paused-ratio", "lossless-drop-alarm"}) {
    if (l.count(leaf)) return true;
  }
  return false;
}

// A plain-text table: columns as wide as their widest cell, two spaces apart.
void printTable(const std::string& title, const std::vector<std::vector<std::string>>& rows) {
  std::printf("%s\n", title.c_str());
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
  std::printf("\n");
}

void printView(const FabricView& v, bool problems_only) {
  std::vector<std::vector<std::string>> dcqcn{
      {"TARGET", "DEVICE", "PORT", "VERDICT", "ECN-MARKED/S", "CNP-SENT/S", "CNP-HANDLED/S", "CNP-IGNORED/S"}};
  for (const auto& [k, l] : v.dcqcn) {
    if (problems_only && !dcqcnProblem(l)) continue;
    const auto& [target, device, port] = k;
    dcqcn.push_back({target, device, port, get(l, "verdict"), get(l, "ecn-marked-rate"), get(l, "cnp-sent-rate"),
                     get(l, "cnp-handled-rate"), get(l, "cnp-ignored-rate")});
  }
  printTable("DCQCN chain per RDMA port", dcqcn);

  std::vector<std::vector<std::string>> pfc{{"TARGET", "INTERFACE", "PRIO", "PAUSE-TREE", "TREE-SIZE", "BALANCE",
                                             "PAUSED", "LOSSLESS-DROP", "PEER"}};
  std::vector<std::vector<std::string>> roots{{"TARGET", "INTERFACE", "PRIO", "TREE-SIZE"}};
  for (const auto& [k, l] : v.pfc) {
    if (!hasVerdict(l) || (problems_only && !pfcProblem(l))) continue;
    const auto& [target, iface, prio] = k;
    auto link = v.links.find({target, iface});
    std::string peer = "-";
    if (link != v.links.end()) {
      peer = get(link->second, "peer-target", "?") + ":" + get(link->second, "peer-interface", "?");
    }
    const std::string alarm = get(l, "lossless-drop-alarm");
    const std::string drops = alarm == "1" ? "DROPPING" : alarm == "0" ? "no" : alarm;
    const std::string tree = get(l, "pause-tree-state"), size = get(l, "pause-tree-size");
    pfc.push_back({target, iface, std::to_string(prio), tree, size, get(l, "pause-balance"),
                   percent(get(l, "paused-ratio")), drops, peer});
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
    if (problems_only && get(l, "consistency") != "mismatch") continue;
    auto list = [&l](const char* leaf) {
      const std::string p = get(l, leaf);
      return p.empty() ? std::string("none") : p;
    };
    dcb.push_back({k.first, k.second, get(l, "consistency"), list("pfc-priorities"), list("peer-pfc-priorities"),
                   get(l, "mtu"), get(l, "peer-mtu"), get(l, "mismatches", "")});
  }
  printTable("DCB consistency per link end", dcb);
  if (roots.size() == 1) {
    std::printf("Pause-tree roots\n(none)\n");
  } else {
    printTable("Pause-tree roots", roots);
  }
}

}  // namespace

int fabricCommand(const Args& args) {
  if (int rc = checkArgs(args, fabricSpec(), "fabric"); rc >= 0) return rc;
  Result<GatewayGnmiClient> client = gatewayGnmiClientFromArgs(args);
  if (!client.isOk()) return usage(client.status().message());
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
    for (const ::gnmi::Update& u : n.update()) addUpdate(n.prefix().target(), u, &view);
  }
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
