#include "southbound/nxapi/nxapi_commands.h"

#include <cctype>
#include <string_view>

namespace rdmagw::southbound::nxapi {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "X | json" is the SSH spelling of NX-API's cli_show for X: the pipe is
// refused inside a cli_show request (501 "Pipe is not allowed"), so it goes.
NxapiVariant variantOf(std::string_view command, ssh::CliParseFn parse) {
  std::string_view c = trim(command);
  const size_t pipe = c.rfind('|');
  if (pipe != std::string_view::npos && trim(c.substr(pipe + 1)) == "json") {
    return {std::string(trim(c.substr(0, pipe))), OutputFormat::kJson, parse};
  }
  return {std::string(c), OutputFormat::kAscii, parse};
}

}  // namespace

std::vector<NxapiVariant> nxapiVariants(const ssh::CliCommand& cmd) {
  std::vector<NxapiVariant> out;
  out.push_back(variantOf(cmd.command, cmd.parse));
  for (const ssh::CliAlternative& alt : cmd.alternatives) out.push_back(variantOf(alt.command, alt.parse));
  return out;
}

std::string describeFailure(const CommandOutput& out) {
  std::string why = "NX-API code " + std::to_string(out.code) + " \"" + std::string(trim(out.msg)) + "\"";
  // JSON-RPC already folds the CLI's words into msg; ins_api keeps them apart.
  const std::string_view cli = trim(out.clierror);
  if (!cli.empty() && out.msg.find(cli) == std::string::npos) why += " (" + std::string(cli) + ")";
  return why;
}

Status parseOutput(const CommandOutput& out, const NxapiVariant& variant, TimestampNs ts, PollBatch& batch) {
  const std::string label = ssh::commandLabel(variant.command);
  if (!out.ok()) return Status::invalidArgument(label + ": " + describeFailure(out));
  if (variant.parse == nullptr) return Status::internal(label + ": no parser for this command");
  return variant.parse(out.body, ts, batch);
}

}  // namespace rdmagw::southbound::nxapi
