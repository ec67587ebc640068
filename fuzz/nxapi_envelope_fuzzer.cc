// The NX-API envelope reader (southbound/nxapi/nxapi_envelope.h) on any
// bytes: never a crash, never recursion past the JSON reader's cap. Its
// promises are checked: when it accepts a response, every command sent has
// an output (the missing ones as code 0), and a JSON body written back by
// jsonText reads whole to the same text again.
//
// Input: the first byte is the number of commands sent (0-7), the rest the
// response.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "southbound/nxapi/json_text.h"
#include "southbound/nxapi/nxapi_envelope.h"
#include "southbound/text/json_reader.h"

using namespace rdmagw::southbound;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t expected = data[0] % 8;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  rdmagw::Result<nxapi::Envelope> env = nxapi::parseEnvelope(text, expected);
  if (!env.isOk()) {
    if (env.status().message().empty()) __builtin_trap();  // a failure always says why
    return 0;
  }
  if (env->outputs.size() < expected) __builtin_trap();
  for (const nxapi::CommandOutput& o : env->outputs) {
    if (o.ok() != (o.code == 200)) __builtin_trap();
    // A body may also be a string the switch sent as is (cli_show of a
    // command without JSON), so only what reads as JSON is checked: written
    // back, it reads whole to the same text again.
    if (env->format != nxapi::OutputFormat::kJson || o.body.empty()) continue;
    const text::JsonParse body = text::parseJson(o.body);
    // A scalar read off a text's start ("-1.0" of "-1.0.0-9.3.5") ends the
    // written text, where the tolerant reader refuses a number as possibly
    // cut: bodies the parsers read are objects, so only containers count.
    if (!body.complete || !body.root().isContainer()) continue;
    const std::string once = nxapi::jsonText(body.root());
    const text::JsonParse again = text::parseJson(once);
    if (!again.complete || nxapi::jsonText(again.root()) != once) __builtin_trap();
  }
  // Whatever the commands, the request is one JSON document.
  for (nxapi::Dialect d : {nxapi::Dialect::kInsApi, nxapi::Dialect::kJsonRpc}) {
    const std::string req = nxapi::requestBody(d, nxapi::OutputFormat::kJson, {std::string(text.substr(0, 64))});
    if (!text::parseJson(req).complete) __builtin_trap();
  }
  return 0;
}
