#pragma once
// The NX-API envelope (`POST /ins` on a Cisco Nexus): the request body for a
// list of show commands and the reading of the switch's answer, in both
// dialects the switch speaks. What each command's body holds is the Nexus
// collector's business (nxapi_commands.h); this file only unwraps it.
//
//  - ins_api (application/json): one object; `outputs.output` is an object
//    for one command and a list for several; `code` is a string ("200");
//    per-command errors arrive with HTTP 200.
//  - JSON-RPC 2.0 (application/json-rpc): an array of calls; the answer is
//    one object or an array, `result.body` (cli), `result.msg` (cli_ascii),
//    `result: null` (configuration) or `error`; `id: null` with an error
//    means the switch refused the whole request.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::nxapi {

enum class Dialect { kInsApi, kJsonRpc };
enum class OutputFormat { kJson, kAscii };  // ins_api cli_show / cli_show_ascii; JSON-RPC cli / cli_ascii

// The request body for these commands (each already without "| json"), one request.
std::string requestBody(Dialect dialect, OutputFormat format, const std::vector<std::string>& commands);
std::string_view contentType(Dialect dialect);  // "application/json" or "application/json-rpc"

struct CommandOutput {
  // NX-API code: 200 ok, 400, 413, 501...; for JSON-RPC errors the JSON-RPC
  // code (e.g. -32602); 0 = no output came for this command.
  int code = 0;
  // The switch's own words ("Success", "Input CLI command error",
  // "Invalid params: % Invalid command").
  std::string msg;
  std::string clierror;  // the CLI's error text when the switch gave one
  std::string input;     // the command as the switch echoed it (ins_api), else empty
  // kJson: the body object re-serialised as compact JSON text (number digits
  // kept as written); kAscii: the text; empty when none.
  std::string body;
  bool ok() const { return code == 200; }
};

// True when the switch said this command has no JSON form (501 / "Structured
// output unsupported", either dialect): the caller falls back to the ASCII
// form for that command.
bool structuredUnsupported(const CommandOutput& out);

struct Envelope {
  Dialect dialect = Dialect::kInsApi;
  // As the envelope says (ins_api type) or as found (result.body vs result.msg).
  OutputFormat format = OutputFormat::kJson;
  std::vector<CommandOutput> outputs;  // in command order; JSON-RPC ordered by id 1..n
};

// Reads a response body of either dialect (detected from the text).
// `expected` = number of commands sent (0 = unknown, as for `rdmagw parse`):
// when fewer outputs come than expected the missing ones are present with
// code 0 and msg "no output for this command". A whole-request failure (not
// JSON, no ins_api/outputs, a JSON-RPC error with id null, an HTML page) is
// a non-ok Status quoting the switch's words (msg / message / data.msg / the
// HTML <title>). A truncated or damaged envelope is an error too: a cut
// reply must not pass for fewer outputs.
Result<Envelope> parseEnvelope(std::string_view text, size_t expected = 0);

}  // namespace rdmagw::southbound::nxapi
