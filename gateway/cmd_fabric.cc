// `rdmagw fabric`: the fabric verdicts and pause-tree roots of a running
// gateway, read over its own gNMI server (one Get of /fabric on every target)
// and printed as tables. It is a gNMI client like any other: it knows the
// paths of yang/rdmagw-fabric.yang, not the analytics that wrote them. The
// connection options are those of a gNMI target in the config (TLS by
// default; no TLS or no verification said explicitly; secrets by reference).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "gateway/command_spec.h"
#include "gateway/yaml_reader.h"
#include "gnmi.grpc.pb.h"
#include "southbound/gnmi/gnmi_channel.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/ssh/credentials.h"

namespace rdmagw::gateway {
namespace {

const CommandSpec kFabricSpec{
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
    "options:\n"
    "  --address HOST:PORT    the gateway's gNMI server (default 127.0.0.1:9339,\n"
    "                         where `rdmagw demo` serves it)\n"
    "  --target NAME          one target only (default *: every target)\n"
    "  --insecure             no TLS at all (the demo's plain-text loopback server)\n"
    "  --skip-verify          TLS without checking the server's certificate\n"
    "  --ca-file FILE         CA that signed the server's certificate (default:\n"
    "                         the system roots)\n"
    "  --cert-file FILE       client certificate (mTLS), with --key-file\n"
    "  --key-file FILE        its private key\n"
    "  --server-name NAME     name checked in the server's certificate\n"
    "  --username NAME        user of the gNMI server's users file\n"
    "  --password-env VAR     environment variable holding the password\n"
    "  --password-file FILE   file holding the password\n"
    "  --problems             only the ports with something to look at: a broken\n"
    "                         DCQCN chain, a pause tree (root or victim),\n"
    "                         unbalanced pause, lossless drops, a DCB mismatch\n"
    "  --timeout DURATION     give up after this long (default 10s)\n"
    "  -h, --help             this help\n",
    {"--address", "--target", "--ca-file", "--cert-file", "--key-file", "--server-name", "--username",
     "--password-env", "--password-file", "--timeout"},
    {"--insecure", "--skip-verify", "--problems"},
    0};

int usage(const std::string& why) {
  std::fprintf(stderr, "rdmagw fabric: %s\n\n%s", why.c_str(), kFabricSpec.usage);
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

std::string valueText(const ::gnmi::TypedValue& v) {
  char buf[64];
  switch (v.value_case()) {
    case ::gnmi::TypedValue::kStringVal: return v.string_val();
    case ::gnmi::TypedValue::kUintVal: return std::to_string(v.uint_val());
    case ::gnmi::TypedValue::kIntVal: return std::to_string(v.int_val());
    case ::gnmi::TypedValue::kBoolVal: return v.bool_val() ? "true" : "false";
    case ::gnmi::TypedValue::kDoubleVal:
      std::snprintf(buf, sizeof buf, "%.6g", v.double_val());
      return buf;
    default: return "?";
  }
}

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
  const std::string value = valueText(u.val());
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
  if (int rc = checkArgs(args, kFabricSpec, "fabric"); rc >= 0) return rc;
  southbound::gnmi::GnmiConfig cfg;
  cfg.address = "127.0.0.1:9339";
  flagValue(args, "--address", &cfg.address);
  std::string target = "*";
  flagValue(args, "--target", &target);
  cfg.plaintext = hasFlag(args, "--insecure");
  cfg.tls = !cfg.plaintext;
  cfg.insecure_skip_verify = hasFlag(args, "--skip-verify");
  flagValue(args, "--ca-file", &cfg.ca_file);
  flagValue(args, "--cert-file", &cfg.cert_file);
  flagValue(args, "--key-file", &cfg.key_file);
  flagValue(args, "--server-name", &cfg.server_name_override);
  flagValue(args, "--username", &cfg.username);
  flagValue(args, "--password-env", &cfg.password_env);
  flagValue(args, "--password-file", &cfg.password_file);
  std::chrono::milliseconds timeout{10000};
  if (std::string text; flagValue(args, "--timeout", &text)) {
    std::optional<std::chrono::milliseconds> d = YamlReader::parseDuration(text);
    if (!d || d->count() <= 0) return usage("--timeout: '" + text + "' is not a duration like 10s");
    timeout = *d;
  }
  if (cfg.plaintext && (cfg.insecure_skip_verify || !cfg.ca_file.empty() || !cfg.cert_file.empty())) {
    return usage("--insecure (no TLS) conflicts with --skip-verify, --ca-file and --cert-file");
  }
  if (Status st = cfg.validate(); !st.isOk()) return usage(st.message());

  Result<std::shared_ptr<grpc::Channel>> channel = southbound::gnmi::makeChannel(cfg);
  if (!channel.isOk()) {
    std::fprintf(stderr, "rdmagw fabric: %s\n", channel.status().message().c_str());
    return 1;
  }
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  if (!cfg.username.empty()) {
    Result<southbound::ssh::Secret> password = southbound::ssh::resolveSecret(
        "--password-env", cfg.password_env, "--password-file", cfg.password_file);
    if (!password.isOk()) {
      std::fprintf(stderr, "rdmagw fabric: %s\n", password.status().message().c_str());
      return 1;
    }
    ctx.AddMetadata("username", cfg.username);
    ctx.AddMetadata("password", password->reveal());
  }
  ::gnmi::GetRequest req;
  req.mutable_prefix()->set_target(target);
  req.add_path()->add_elem()->set_name("fabric");
  req.set_encoding(::gnmi::PROTO);
  req.set_type(::gnmi::GetRequest::STATE);
  ::gnmi::GetResponse resp;
  grpc::Status st = ::gnmi::gNMI::NewStub(*channel)->Get(&ctx, req, &resp);
  if (st.error_code() == grpc::StatusCode::NOT_FOUND) {
    // The gateway answers, and holds no /fabric leaf: no analytics block,
    // or its first window has not passed yet.
    std::fprintf(stderr, "rdmagw fabric: %s has no fabric verdicts (%s); is analytics: configured?\n",
                 cfg.address.c_str(), st.error_message().c_str());
    return 1;
  }
  if (!st.ok()) {
    std::fprintf(stderr, "rdmagw fabric: gNMI Get from %s failed: %s: %s\n", cfg.address.c_str(),
                 southbound::gnmi::statusCodeName(st.error_code()), st.error_message().c_str());
    return 1;
  }
  FabricView view;
  for (const ::gnmi::Notification& n : resp.notification()) {
    for (const ::gnmi::Update& u : n.update()) addUpdate(n.prefix().target(), u, &view);
  }
  if (view.dcqcn.empty() && view.pfc.empty()) {
    // Links are known from the config at once; verdicts need two samples
    // of the counters inside the window.
    std::fprintf(stderr, "rdmagw fabric: %s has no fabric verdicts yet (links only); is the first analytics "
                 "window still filling?\n", cfg.address.c_str());
    return 1;
  }
  printView(view, hasFlag(args, "--problems"));
  return 0;
}

}  // namespace rdmagw::gateway
