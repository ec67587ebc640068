// `rdmagw check roce`: the RoCE check results of a running gateway, read
// over its own gNMI server (one Get of /fabric/checks on every target),
// summed over the targets and printed as `netq check roce` does, with an
// exit status a fabric bring-up script can gate on. Like `rdmagw fabric`
// it is a plain gNMI client of the leaves (yang/rdmagw-fabric.yang); the
// aggregation and printing are in roce_check_report.h.

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gateway/cli/command_spec.h"
#include "gateway/cli/gateway_gnmi_client.h"
#include "gateway/cli/roce_check_report.h"

namespace rdmagw::gateway {
namespace {

const CommandSpec& checkRoceSpec() {
  static const std::string usage =
      "usage: rdmagw check roce [--address HOST:PORT] [--json] [--group N|NAME] [options]\n"
      "\n"
      "Validates the fabric for RoCE (docs/roce-check.md): the check groups\n"
      "  1 lossless            no-drop on the RoCE priority everywhere, nothing else paused\n"
      "  2 classification      host trust and DSCP map agree with the switches; CNPs prioritized\n"
      "  3 congestion-control  ECN marking on switch queues, DCQCN on every RDMA NIC\n"
      "  4 flow-control        MTU end to end, pause buffers, PFC watchdog\n"
      "  5 ets                 bandwidth guaranteed to the RoCE traffic class\n"
      "  6 live                drops, pause storms and ECN without CNPs in the counters\n"
      "  7 gpu                 GPUDirect readiness: a NIC within PXB of each GPU, NUMA,\n"
      "                        ACS redirect, peer memory, IOMMU, PCIe link under load\n"
      "                        (only hosts whose GPUs are collected)\n"
      "as a running gateway's analytics judged them, read with one gNMI Get of\n"
      "/fabric/checks from its gNMI server and summed over its targets: a line per\n"
      "group, then every failure and warning with what was expected and found.\n"
      "\n"
      "Exit status: 0 every group passed (warnings allowed), 1 a group failed,\n"
      "2 the fabric could not be checked (gateway unreachable, no analytics:\n"
      "block, no check results yet, a fleet member that did not answer, or a\n"
      "usage error).\n"
      "\n"
      "options:\n" +
      gatewayGnmiOptionsUsage() +
      "  --json                 the same results as one JSON object\n"
      "  --group N|NAME         one group only (1-6 or its name)\n"
      "  -h, --help             this help\n";
  static const CommandSpec spec = withGatewayGnmiOptions({usage.c_str(), {"--group"}, {"--json"}, 0});
  return spec;
}

constexpr const char* kCheckUsage =
    "usage: rdmagw check roce [options]\n"
    "\n"
    "checks:\n"
    "  roce    the lossless RoCE path, host to switch to host (`rdmagw check roce --help`)\n";

int usage(const std::string& why) {
  std::fprintf(stderr, "rdmagw check roce: %s\n\n%s", why.c_str(), checkRoceSpec().usage);
  return 2;
}

// Could not check: the reason on stderr, and with --json a JSON object on
// stdout too, so a script parsing stdout always gets one.
int cannotCheck(bool json, const std::string& why) {
  std::fprintf(stderr, "rdmagw check roce: %s\n", why.c_str());
  if (json) {
    const nlohmann::json doc = {{"result", "UNKNOWN"}, {"exit_code", 2}, {"error", why}};
    std::printf("%s\n", doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
  return 2;
}

// A gNMI path as a model path; module prefixes ("rdmagw-fabric:fabric")
// dropped, as the store's paths carry none.
Path modelPath(const ::gnmi::Path& p) {
  Path out;
  for (const ::gnmi::PathElem& e : p.elem()) {
    std::string name = e.name();
    if (size_t colon = name.find(':'); colon != std::string::npos) name = name.substr(colon + 1);
    std::map<std::string, std::string> keys(e.key().begin(), e.key().end());
    out.add(std::move(name), std::move(keys));
  }
  return out;
}

}  // namespace

int checkRoceCommand(const Args& args) {
  if (int rc = checkArgs(args, checkRoceSpec(), "check roce"); rc >= 0) return rc;
  Result<GatewayGnmiClient> client = gatewayGnmiClientFromArgs(args);
  if (!client.isOk()) return usage(client.status().message());
  std::optional<std::string> only_group;
  if (std::string text; flagValue(args, "--group", &text)) {
    Result<std::string> g = roceCheckGroupArg(text);
    if (!g.isOk()) return usage(g.status().message());
    only_group = *g;
  }
  const bool json = hasFlag(args, "--json");
  const std::string& address = client->config.address;

  Result<::gnmi::GetResponse> resp = gatewayGet(*client, "*", {"fabric", "checks"});
  if (resp.status().code() == Status::Code::kNotFound) {
    return cannotCheck(json, address + " holds no check results (" + resp.status().message() +
                                 "); is analytics: configured, and has its first check run?");
  }
  if (!resp.isOk()) return cannotCheck(json, resp.status().message());
  std::vector<CheckLeaf> leaves;
  for (const ::gnmi::Notification& n : resp->notification()) {
    if (isMissingMemberNotice(n)) continue;
    for (const ::gnmi::Update& u : n.update()) {
      leaves.push_back(CheckLeaf{n.prefix().target(), modelPath(u.path()), typedValueText(u.val())});
    }
  }
  RoceCheckReport report = aggregateRoceChecks(leaves, only_group);
  report.missing_members = missingMembers(*resp);
  if (report.groups.empty()) {
    return cannotCheck(json, address + " holds no RoCE check group" +
                                 (only_group ? " named " + *only_group : std::string()) + " under /fabric/checks");
  }
  const std::string text = json ? formatRoceCheckJson(report) : formatRoceCheckText(report);
  std::fputs(text.c_str(), stdout);
  return roceCheckExitCode(report);
}

int checkCommand(const Args& args) {
  if (!args.empty() && args[0] == "roce") return checkRoceCommand(Args(args.begin() + 1, args.end()));
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    std::fputs(kCheckUsage, stdout);
    return 0;
  }
  const std::string why = args.empty() ? "which check?" : "unknown check '" + args[0] + "'";
  std::fprintf(stderr, "rdmagw check: %s\n\n%s", why.c_str(), kCheckUsage);
  return 2;
}

}  // namespace rdmagw::gateway
