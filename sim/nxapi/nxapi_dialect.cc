#include "sim/nxapi/nxapi_dialect.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "sim/device_shell.h"

namespace rdmagw::sim {
namespace {

using nlohmann::json;

// One command's outcome in ins_api's vocabulary; JSON-RPC maps it to its own.
struct CommandAnswer {
  std::string input;
  int code = 200;
  std::string msg = "Success";
  std::string clierror;
  std::string body;  // raw JSON text (structured) or CLI text
};

std::string quote(const std::string& s) { return json(s).dump(); }

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

CommandAnswer fail(CommandAnswer a, int code, const char* msg, std::string clierror = "") {
  a.code = code;
  a.msg = msg;
  a.clierror = std::move(clierror);
  return a;
}

CommandAnswer answerCommand(const std::string& input, bool structured, const NxapiCommandPolicy& p) {
  CommandAnswer a;
  a.input = input;
  if (p.timed_out) return fail(a, 500, "Back-end processing error");
  // cli_show asks for JSON itself: a pipe of the user's would change the
  // output the switch has to convert, so NX-API refuses every pipe there.
  if (structured && input.find('|') != std::string::npos) {
    return fail(a, 501, "Pipe is not allowed for this message type");
  }
  const NxosMatch m = matchNxos(input);
  if (m.kind != NxosMatch::Kind::kOk) {
    const ShellResult r = runNxos(p.device_dir, input);
    return fail(a, 400, "Input CLI command error", r.out + r.err);
  }
  if (!structured) {
    const ShellResult r = runNxos(p.device_dir, m.command);
    if (r.exit_code != 0) return fail(a, 400, "Input CLI command error", r.out + r.err);
    a.body = r.out;
    return a;
  }
  // The structured answer is exactly what `<command> | json` prints on the
  // CLI; a command the catalog has no such form for has no JSON at all.
  const std::string json_form = m.command + " | json";
  const NxosMatch jm = matchNxos(json_form);
  if (jm.kind != NxosMatch::Kind::kOk || jm.command != json_form || (p.refuse_json && p.refuse_json(m.command))) {
    return fail(a, 501, "Structured output unsupported");
  }
  const ShellResult r = runNxos(p.device_dir, json_form);
  if (r.exit_code != 0) return fail(a, 400, "Input CLI command error", r.out + r.err);
  a.body = trim(r.out);
  // A half-written or empty file must not become invalid JSON on the wire.
  if (!json::accept(a.body)) return fail(a, 500, "Back-end processing error");
  return a;
}

std::string insApiOutput(const CommandAnswer& a, bool structured) {
  std::string out =
      "{\"input\":" + quote(a.input) + ",\"msg\":" + quote(a.msg) + ",\"code\":" + quote(std::to_string(a.code));
  if (a.code == 200) {
    out += ",\"body\":" + (structured ? a.body : quote(a.body));
  } else {
    out += ",\"clierror\":" + quote(a.clierror);
  }
  return out + "}";
}

std::string insApiEnvelope(const std::string& type, const std::string& output) {
  return "{\"ins_api\":{\"type\":" + quote(type) +
         ",\"version\":\"1.0\",\"sid\":\"eoc\",\"outputs\":{\"output\":" + output + "}}}\n";
}

// JSON-RPC codes: a command the CLI rejects is a bad parameter (as recorded
// from switches); the switch failing to produce an answer it should have
// (no JSON form, a time-out) is an internal error.
int rpcCode(int code) { return code == 400 ? -32602 : -32603; }
const char* rpcMessage(int rpc_code) {
  switch (rpc_code) {
    case -32600:
      return "Invalid request";
    case -32601:
      return "Method not found";
    case -32602:
      return "Invalid params";
    default:
      return "Internal error";
  }
}

std::string rpcError(int rpc_code, const std::string& msg, const std::string& id) {
  return "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":" + std::to_string(rpc_code) +
         ",\"message\":" + quote(rpcMessage(rpc_code)) + ",\"data\":{\"msg\":" + quote(msg) + "}},\"id\":" + id + "}";
}

// One call of a JSON-RPC request; *failed when it answers an error.
std::string answerCall(const json& call, const NxapiCommandPolicy& p, bool* failed, size_t* commands) {
  *failed = true;
  if (!call.is_object()) return rpcError(-32600, "JSON-RPC request is not an object", "null");
  const std::string id = call.contains("id") ? call["id"].dump() : "null";
  if (!call.contains("jsonrpc") || call["jsonrpc"] != "2.0") {
    return rpcError(-32600, "JSON-RPC version structure was not found in request", id);
  }
  const std::string method = call.value("method", "");
  if (method != "cli" && method != "cli_ascii") return rpcError(-32601, "Method not found", id);
  if (!call.contains("params") || !call["params"].is_object() || !call["params"].contains("cmd") ||
      !call["params"]["cmd"].is_string()) {
    return rpcError(-32602, "Missing cmd in params", id);
  }
  const bool structured = method == "cli";
  const CommandAnswer a = answerCommand(trim(call["params"]["cmd"].get<std::string>()), structured, p);
  ++*commands;
  if (a.code != 200) return rpcError(rpcCode(a.code), a.code == 400 ? a.clierror : a.msg, id);
  *failed = false;
  const std::string result = structured ? "{\"body\":" + a.body + "}" : "{\"msg\":" + quote(a.body) + "}";
  return "{\"jsonrpc\":\"2.0\",\"result\":" + result + ",\"id\":" + id + "}";
}

}  // namespace

NxapiReply answerInsApi(const std::string& request_body, const NxapiCommandPolicy& policy) {
  NxapiReply reply;
  const json req = json::parse(request_body, nullptr, false);
  if (req.is_discarded() || !req.is_object() || !req.contains("ins_api") || !req["ins_api"].is_object()) {
    reply.http_status = 400;
    reply.body = nxapiRequestError(false, 400, "Request format is invalid");
    return reply;
  }
  const json& ins = req["ins_api"];
  const std::string type = ins.value("type", "");
  if (type != "cli_show" && type != "cli_show_ascii") {
    reply.http_status = 400;
    reply.body = nxapiRequestError(false, 400, "Message type is not supported: " + type);
    return reply;
  }
  const std::string input = ins.contains("input") && ins["input"].is_string() ? ins["input"].get<std::string>() : "";
  std::vector<std::string> lines;
  for (size_t start = 0; start <= input.size();) {
    size_t end = input.find(';', start);
    if (end == std::string::npos) end = input.size();
    if (std::string line = trim(input.substr(start, end - start)); !line.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  if (lines.empty()) {
    reply.http_status = 400;
    reply.body = nxapiRequestError(false, 400, "Input is empty");
    return reply;
  }
  const bool structured = type == "cli_show";
  std::vector<std::string> outputs;
  for (const std::string& line : lines)
    outputs.push_back(insApiOutput(answerCommand(line, structured, policy), structured));
  reply.commands = outputs.size();
  // One command: the output itself; several: a list of them, in order.
  std::string output = outputs.size() == 1 ? outputs[0] : "[";
  for (size_t i = 0; outputs.size() > 1 && i < outputs.size(); ++i) output += (i ? "," : "") + outputs[i];
  if (outputs.size() > 1) output += "]";
  // A switch past its time limit fails the whole request, not one output.
  if (policy.timed_out) reply.http_status = 500;
  reply.body = insApiEnvelope(type, output);
  return reply;
}

NxapiReply answerJsonRpc(const std::string& request_body, const NxapiCommandPolicy& policy) {
  NxapiReply reply;
  const json req = json::parse(request_body, nullptr, false);
  if (req.is_discarded() || (!req.is_object() && !req.is_array()) || (req.is_array() && req.empty())) {
    // Recorded from a switch: a request it cannot read at all answers HTTP 200.
    reply.body = rpcError(-32600, "JSON-RPC version structure was not found in request", "null") + "\n";
    return reply;
  }
  bool any_failed = false;
  if (req.is_object()) {
    reply.body = answerCall(req, policy, &any_failed, &reply.commands) + "\n";
  } else {
    reply.body = "[";
    for (size_t i = 0; i < req.size(); ++i) {
      bool failed = false;
      reply.body += (i ? "," : "") + answerCall(req[i], policy, &failed, &reply.commands);
      any_failed = any_failed || failed;
    }
    reply.body += "]\n";
  }
  if (any_failed) reply.http_status = 500;
  return reply;
}

std::string nxapiRequestError(bool json_rpc, int code, const std::string& msg) {
  if (json_rpc) return rpcError(code == 400 ? -32600 : -32603, msg, "null") + "\n";
  return "{\"ins_api\":{\"version\":\"1.0\",\"sid\":\"eoc\",\"outputs\":{\"output\":{\"code\":" +
         quote(std::to_string(code)) + ",\"msg\":" + quote(msg) + ",\"clierror\":\"\"}}}}\n";
}

}  // namespace rdmagw::sim
