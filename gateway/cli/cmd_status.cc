// `rdmagw status`: one screen of a running gateway, read over its admin
// socket (northbound/admin/admin_server.h), never from the config file: what
// runs is what is shown.

#include <cstdio>

#include "gateway/cli/command_spec.h"
#include "gateway/cli/status_client.h"
#include "gateway/cli/status_table.h"
#include "northbound/admin/admin_socket_config.h"

namespace rdmagw::gateway {

namespace {

const CommandSpec kStatusSpec{
    "usage: rdmagw status [--socket PATH] [--json]\n"
    "\n"
    "Shows a running gateway: each target (kind, transport, up, last success,\n"
    "series, last error), the northbounds (Prometheus scrapes, the SNMP\n"
    "subagent's AgentX session, gNMI subscribers) and the last config reload.\n"
    "Read over the gateway's admin socket (its config's admin_socket).\n"
    "\n"
    "options:\n"
    "  --socket PATH   the admin socket (default /run/rdmagw/admin.sock; `rdmagw\n"
    "                  demo` prints its own)\n"
    "  --json          the gateway's JSON reply as is, for scripts (docs/status.md)\n"
    "  -h, --help      this help\n"
    "\n"
    "exit status: 0 every target is up, 1 a target is down, 2 the gateway cannot\n"
    "be reached (or a usage error)\n",
    {"--socket"},
    {"--json"},
    0};

}  // namespace

int statusCommand(const Args& args) {
  if (int rc = checkArgs(args, kStatusSpec, "status"); rc >= 0) return rc;
  std::string path = northbound::admin::kDefaultAdminSocket;
  flagValue(args, "--socket", &path);
  Result<std::string> reply = askAdminSocket(path, "status");
  if (!reply.isOk()) {
    std::fprintf(stderr, "rdmagw status: cannot reach the gateway: %s\n", reply.status().message().c_str());
    return 2;
  }
  Result<StatusView> view = viewStatus(*reply);
  if (!view.isOk()) {
    std::fprintf(stderr, "rdmagw status: %s: %s\n", path.c_str(), view.status().message().c_str());
    return 2;
  }
  if (hasFlag(args, "--json")) {
    std::fputs(reply->c_str(), stdout);
    if (reply->back() != '\n') std::fputc('\n', stdout);
  } else {
    std::fputs(view->table.c_str(), stdout);
  }
  return view->exit_code;
}

}  // namespace rdmagw::gateway
