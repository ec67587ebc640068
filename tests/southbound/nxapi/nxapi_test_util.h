#pragma once
// Helpers of the NX-API tests: the recorded responses (tests/fixtures/nxapi/,
// each with its `# source:` line), the raw body text inside one, envelopes
// built around a recorded body, and a field-by-field batch comparison.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "models/update.h"
#include "models/value.h"
#include "southbound/nxapi/nxapi_envelope.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxapi;  // the helpers speak the vocabulary of the code they test

inline constexpr TimestampNs kTs = 1700000000000000000;

inline std::string readNxapiFixture(const std::string& name) {
  std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/nxapi/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The wire text: the fixture without its `# source:` line.
inline std::string wireText(const std::string& name) {
  const std::string all = readNxapiFixture(name);
  EXPECT_TRUE(all.starts_with("# source:")) << name;
  const size_t nl = all.find('\n');
  return nl == std::string::npos ? "" : all.substr(nl + 1);
}

// The text of the first `"body":` object in `wire`, exactly as the switch
// wrote it (whitespace, tabs, number spellings): what SSH `| json` would
// have printed. Brace matching that skips strings.
inline std::string rawBody(const std::string& wire) {
  const size_t key = wire.find("\"body\"");
  if (key == std::string::npos) return "";
  const size_t open = wire.find('{', key);
  if (open == std::string::npos) return "";
  int depth = 0;
  bool in_string = false;
  for (size_t i = open; i < wire.size(); ++i) {
    const char c = wire[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{') ++depth;
    if (c == '}' && --depth == 0) return wire.substr(open, i - open + 1);
  }
  return "";
}

// A recorded body inside a one-command ins_api cli_show answer, and inside a
// JSON-RPC one.
inline std::string insApiAround(const std::string& body, const std::string& input) {
  return R"({"ins_api":{"type":"cli_show","version":"1.0","sid":"eoc","outputs":{"output":{"input":")" + input +
         R"(","msg":"Success","code":"200","body":)" + body + "}}}}";
}
inline std::string jsonRpcAround(const std::string& body) {
  return R"({"jsonrpc":"2.0","result":{"body":)" + body + R"(},"id":1})";
}

// Field by field: the same updates in the same order (path, value, time,
// counter source) and the same error lines.
inline void expectSameBatch(const PollBatch& a, const PollBatch& b) {
  ASSERT_EQ(a.updates.size(), b.updates.size());
  for (size_t i = 0; i < a.updates.size(); ++i) {
    EXPECT_EQ(a.updates[i].path, b.updates[i].path) << i;
    EXPECT_EQ(valueToString(a.updates[i].value), valueToString(b.updates[i].value)) << a.updates[i].path;
    EXPECT_EQ(a.updates[i].timestamp_ns, b.updates[i].timestamp_ns) << a.updates[i].path;
    EXPECT_EQ(a.updates[i].source.bits, b.updates[i].source.bits) << a.updates[i].path;
    EXPECT_EQ(a.updates[i].source.saturates, b.updates[i].source.saturates) << a.updates[i].path;
  }
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.replaced, b.replaced);
}

inline Envelope envelopeOf(const std::string& wire, size_t expected = 0) {
  Result<Envelope> env = parseEnvelope(wire, expected);
  EXPECT_TRUE(env.isOk()) << env.status().message();
  return env.isOk() ? std::move(env).value() : Envelope();
}

}  // namespace rdmagw::testing
