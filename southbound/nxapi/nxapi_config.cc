#include "southbound/nxapi/nxapi_config.h"

#include <vector>

namespace rdmagw::southbound::nxapi {

Status NxapiConfig::validate() const {
  std::vector<std::string> problems;
  if (host.empty()) problems.push_back("host: must not be empty");
  if (port < 1 || port > 65535) problems.push_back("port: must be 1..65535, got " + std::to_string(port));
  if (username.empty()) problems.push_back("username: must not be empty");
  if (password_env.empty() && password_file.empty()) {
    problems.push_back("password: NX-API logs in with a password: set password_env or password_file");
  }
  if (!password_env.empty() && !password_file.empty()) {
    problems.push_back("password_file: set either password_env or password_file, not both");
  }
  if (insecure && !ca_file.empty()) {
    problems.push_back("insecure: contradicts ca_file (a CA is only useful when verifying)");
  }
  if (connect_timeout.count() <= 0) problems.push_back("connect_timeout: must be positive");
  if (request_timeout.count() <= 0) problems.push_back("request_timeout: must be positive");
  if (session_lifetime.count() <= 0) problems.push_back("session_lifetime: must be positive");
  if (retry_after.count() <= 0) problems.push_back("retry_after: must be positive");
  if (max_response_bytes == 0) problems.push_back("max_response_bytes: must be positive");
  if (problems.empty()) return Status::ok();
  std::string msg;
  for (const std::string& p : problems) msg += (msg.empty() ? "" : "; ") + p;
  return Status::invalidArgument(msg);
}

std::string NxapiConfig::url() const {
  // An IPv6 literal needs brackets in a URL.
  const bool v6 = host.find(':') != std::string::npos;
  return "https://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/ins";
}

std::string NxapiConfig::endpoint() const { return host + ":" + std::to_string(port); }

const char* dialectName(Dialect d) { return d == Dialect::kJsonRpc ? "jsonrpc" : "ins_api"; }

Result<Dialect> parseDialect(const std::string& name) {
  if (name == "ins_api") return Dialect::kInsApi;
  if (name == "jsonrpc" || name == "json-rpc") return Dialect::kJsonRpc;
  return Status::invalidArgument("unknown dialect \"" + name + "\" (ins_api or jsonrpc)");
}

}  // namespace rdmagw::southbound::nxapi
