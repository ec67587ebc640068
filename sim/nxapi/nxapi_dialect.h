#pragma once
// The two NX-API message dialects as pure functions of a request body: the
// HTTP status and JSON body a Nexus answers, each command resolved against
// the leaf's rendered CLI files (sim/device_shell.h). No HTTP, no auth, so
// tests drive them without a server.
//
// Shapes follow recorded switch responses (/work/shared/fixtures/nxapi). Where
// no recording says, the simulator chooses, and clients must not rely on more:
// - JSON-RPC `cli` of a command without JSON: error -32603 "Internal error",
//   data.msg "Structured output unsupported" (JSON-RPC's code for a server
//   that cannot produce the answer; a bad command stays -32602 as recorded);
//   likewise a pipe in `cli` and a time-out, with ins_api's msg as data.msg.
// - A time-out ("Back-end processing error") fails the whole request: HTTP
//   500, ins_api code "500" in every output.
// - A JSON-RPC body that is not JSON at all: -32600 with id null and HTTP
//   200 (as recorded); an ins_api one: HTTP 400 with one output, code "400".

#include <functional>
#include <string>

namespace rdmagw::sim {

// How one command line is answered; the server decides the faults.
struct NxapiCommandPolicy {
  std::string device_dir;  // <dir>/<switch>
  // cli_show of a canonical command (matchNxos) answers 501 when this says so.
  std::function<bool(const std::string& canonical)> refuse_json;
  // The request ran past the switch's time limit: every command answers
  // "Back-end processing error".
  bool timed_out = false;
};

struct NxapiReply {
  int http_status = 200;
  std::string body;     // JSON
  size_t commands = 0;  // how many commands were answered (for counters)
};

// Content-Type application/json: {"ins_api":{"type":"cli_show"|"cli_show_ascii",
// "input":"cmd1 ;cmd2",...}}.
NxapiReply answerInsApi(const std::string& request_body, const NxapiCommandPolicy& policy);
// Content-Type application/json-rpc: one call object or an array of them.
NxapiReply answerJsonRpc(const std::string& request_body, const NxapiCommandPolicy& policy);

// A whole-request refusal (sessions, injected faults) in the dialect's shape:
// ins_api's outputs.output with `code`/`msg`, JSON-RPC's error object.
std::string nxapiRequestError(bool json_rpc, int code, const std::string& msg);

}  // namespace rdmagw::sim
