// The NX-API envelope on recorded switch answers (tests/fixtures/nxapi/,
// SOURCES.md): every output's code, msg, clierror, input and body, both
// dialects; whole-request failures quote the switch; request bodies; cut,
// mistyped and deep envelopes are clear errors.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "southbound/nxapi/json_text.h"
#include "southbound/text/json_reader.h"
#include "tests/southbound/nxapi/nxapi_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxapi;  // the code under test
namespace text = rdmagw::southbound::text;
namespace {

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

TEST(NxapiEnvelopeTest, InsApiCliShowOneCommand) {
  const Envelope env = envelopeOf(wireText("ins_api_cli_show_show_version_n9k-93180yc-ex_9.3.5_wire-tabs__salt.json"));
  EXPECT_EQ(env.dialect, Dialect::kInsApi);
  EXPECT_EQ(env.format, OutputFormat::kJson);
  ASSERT_EQ(env.outputs.size(), 1u);
  const CommandOutput& o = env.outputs[0];
  EXPECT_EQ(o.code, 200);
  EXPECT_TRUE(o.ok());
  EXPECT_EQ(o.msg, "Success");
  EXPECT_EQ(o.input, "show ver");
  EXPECT_EQ(o.clierror, "");
  EXPECT_TRUE(o.body.starts_with(R"({"header_str":"Cisco Nexus Operating System (NX-OS) Software\nTAC support:)"))
      << o.body.substr(0, 80);
  EXPECT_TRUE(contains(o.body, R"j("bios_ver_str":"07.67","kickstart_ver_str":"9.3(5)","nxos_ver_str":"9.3(5)")j"));
  EXPECT_FALSE(structuredUnsupported(o));
}

TEST(NxapiEnvelopeTest, InsApiBodyKeepsNumbersAndEmptyObjects) {
  const Envelope env = envelopeOf(wireText("ins_api_cli_show_show_version_n9k-c9508_7.0.3.I7.4__go-cisco-nx-api.json"));
  ASSERT_EQ(env.outputs.size(), 1u);
  const CommandOutput& o = env.outputs[0];
  EXPECT_EQ(o.code, 200);
  EXPECT_EQ(o.msg, "Success");
  EXPECT_EQ(o.input, "show version");
  EXPECT_TRUE(o.body.starts_with(
      R"({"TABLE_package_list":{"ROW_package_list":{"package_id":{}}},"bios_cmpl_time":"10/18/2016","bios_ver_str":"08.32","bootflash_size":21693714,)"))
      << o.body.substr(0, 160);
}

TEST(NxapiEnvelopeTest, InsApiAsciiOutputListInOrder) {
  const Envelope env =
      envelopeOf(wireText("ins_api_cli_show_ascii_multi_output-list_show_version+show_module_wire-tabs__salt.json"), 2);
  EXPECT_EQ(env.format, OutputFormat::kAscii);
  ASSERT_EQ(env.outputs.size(), 2u);
  EXPECT_EQ(env.outputs[0].code, 200);
  EXPECT_EQ(env.outputs[0].msg, "Success");
  EXPECT_EQ(env.outputs[0].input, "show version");
  EXPECT_TRUE(env.outputs[0].body.starts_with("Cisco Nexus Operating System (NX-OS) Software\nTAC support:"));
  EXPECT_EQ(env.outputs[1].code, 200);
  // Echoed as the switch split "show version ; show module": with its space.
  EXPECT_EQ(env.outputs[1].input, " show module");
  EXPECT_TRUE(env.outputs[1].body.starts_with("Mod Ports             Module-Type"))
      << env.outputs[1].body.substr(0, 60);
}

// cli_show of a command without a JSON form may answer with a string body:
// handed on as the text, verbatim, even when it looks like JSON.
TEST(NxapiEnvelopeTest, InsApiCliShowStringBodyIsText) {
  const Envelope env = envelopeOf(
      R"({"ins_api":{"type":"cli_show","outputs":{"output":{"code":"200","msg":"Success","input":"show x","body":"{ not: json\n"}}}})");
  ASSERT_EQ(env.outputs.size(), 1u);
  EXPECT_EQ(env.format, OutputFormat::kJson);
  EXPECT_EQ(env.outputs[0].body, "{ not: json\n");
}

TEST(NxapiEnvelopeTest, InsApiAsciiBodyIsTheTextExactly) {
  const Envelope env = envelopeOf(wireText("ins_api_cli_show_ascii_show_run_7.0.3.I6.1__go-cisco-nx-api.json"));
  EXPECT_EQ(env.format, OutputFormat::kAscii);
  ASSERT_EQ(env.outputs.size(), 1u);
  EXPECT_EQ(env.outputs[0].code, 200);
  EXPECT_EQ(env.outputs[0].input, "show run");
  EXPECT_EQ(env.outputs[0].body,
            "\n!Command: show running-config\n!Time: Tue Dec 18 21:20:43 2018\n\nversion 7.0(3)I6(1)\n"
            "hostname ny-sw01\n\n\n");
}

TEST(NxapiEnvelopeTest, InsApi400IsAPerCommandError) {
  const Envelope env = envelopeOf(wireText("ins_api_error_400_input_cli_command_error_wire-tabs__salt.json"));
  ASSERT_EQ(env.outputs.size(), 1u);
  const CommandOutput& o = env.outputs[0];
  EXPECT_EQ(o.code, 400);
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.msg, "Input CLI command error");
  EXPECT_EQ(o.clierror, "% Invalid command\n");
  EXPECT_EQ(o.input, "show version | show module");
  EXPECT_EQ(o.body, "");
  EXPECT_FALSE(structuredUnsupported(o));
}

TEST(NxapiEnvelopeTest, InsApi501MeansNoJsonForm) {
  const Envelope env = envelopeOf(wireText("ins_api_error_501_pipe_not_allowed_wire-tabs__salt.json"));
  EXPECT_EQ(env.format, OutputFormat::kJson);
  ASSERT_EQ(env.outputs.size(), 1u);
  const CommandOutput& o = env.outputs[0];
  EXPECT_EQ(o.code, 501);
  EXPECT_EQ(o.msg, "Pipe is not allowed for this message type");
  EXPECT_EQ(o.clierror, "");
  EXPECT_EQ(o.input, "show version | show module");
  EXPECT_TRUE(structuredUnsupported(o));
}

TEST(NxapiEnvelopeTest, StructuredUnsupportedByWordsInEitherDialect) {
  CommandOutput ins;
  ins.code = 400;
  ins.msg = "Structured output unsupported";
  EXPECT_TRUE(structuredUnsupported(ins));
  const Envelope rpc = envelopeOf(
      R"({"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error","data":{"msg":"Structured output unsupported"}},"id":1})");
  ASSERT_EQ(rpc.outputs.size(), 1u);
  EXPECT_EQ(rpc.outputs[0].code, -32603);
  EXPECT_EQ(rpc.outputs[0].msg, "Internal error: Structured output unsupported");
  EXPECT_TRUE(structuredUnsupported(rpc.outputs[0]));
  CommandOutput ok;
  ok.code = 200;
  EXPECT_FALSE(structuredUnsupported(ok));
}

TEST(NxapiEnvelopeTest, JsonRpcBatchOfConfigurationGivesNullResults) {
  const Envelope env = envelopeOf(wireText("jsonrpc_batch_resp_config_result_null__nxapi-plumbing.json"), 3);
  EXPECT_EQ(env.dialect, Dialect::kJsonRpc);
  EXPECT_EQ(env.format, OutputFormat::kJson);
  ASSERT_EQ(env.outputs.size(), 3u);
  for (const CommandOutput& o : env.outputs) {
    EXPECT_EQ(o.code, 200);
    EXPECT_EQ(o.msg, "");
    EXPECT_EQ(o.input, "");
    EXPECT_EQ(o.body, "");
  }
}

TEST(NxapiEnvelopeTest, JsonRpcBatchOfBodies) {
  const Envelope env =
      envelopeOf(wireText("jsonrpc_batch_resp_show_hostname+show_version_nxosv7.3__nxapi-plumbing.json"), 2);
  EXPECT_EQ(env.format, OutputFormat::kJson);
  ASSERT_EQ(env.outputs.size(), 2u);
  EXPECT_EQ(env.outputs[0].code, 200);
  EXPECT_EQ(env.outputs[0].input, "");
  EXPECT_EQ(env.outputs[0].body, R"({"hostname":"nxos.domain.com"})");
  EXPECT_EQ(env.outputs[1].code, 200);
  EXPECT_TRUE(env.outputs[1].body.starts_with(R"({"header_str":"Cisco Nexus Operating System (NX-OS) Software\n)"));
  EXPECT_TRUE(contains(env.outputs[1].body, R"("kickstart_ver_str":"7.3(1)D1(1) [build 7.3(1)D1(0.10)]")"));
}

TEST(NxapiEnvelopeTest, JsonRpcBatchIsOrderedById) {
  const Envelope env = envelopeOf(
      R"([{"jsonrpc":"2.0","result":{"body":{"b":2}},"id":2},{"jsonrpc":"2.0","result":{"body":{"a":1}},"id":1}])");
  ASSERT_EQ(env.outputs.size(), 2u);
  EXPECT_EQ(env.outputs[0].body, R"({"a":1})");
  EXPECT_EQ(env.outputs[1].body, R"({"b":2})");
}

// Three calls sent, the answer for the second missing: the third's reply
// stays the third output.
TEST(NxapiEnvelopeTest, JsonRpcMissingReplyKeepsTheOthersInPlace) {
  const Envelope env = envelopeOf(
      R"([{"jsonrpc":"2.0","result":{"body":{"c":3}},"id":3},{"jsonrpc":"2.0","result":{"body":{"a":1}},"id":1}])", 3);
  ASSERT_EQ(env.outputs.size(), 3u);
  EXPECT_EQ(env.outputs[0].code, 200);
  EXPECT_EQ(env.outputs[0].body, R"({"a":1})");
  EXPECT_EQ(env.outputs[1].code, 0);
  EXPECT_EQ(env.outputs[1].msg, "no output for this command");
  EXPECT_EQ(env.outputs[1].body, "");
  EXPECT_EQ(env.outputs[2].code, 200);
  EXPECT_EQ(env.outputs[2].body, R"({"c":3})");
  // Ids beyond what was sent: document order.
  const Envelope odd = envelopeOf(
      R"([{"jsonrpc":"2.0","result":{"body":{"x":9}},"id":9},{"jsonrpc":"2.0","result":{"body":{"a":1}},"id":1}])", 2);
  ASSERT_EQ(odd.outputs.size(), 2u);
  EXPECT_EQ(odd.outputs[0].body, R"({"x":9})");
  EXPECT_EQ(odd.outputs[1].body, R"({"a":1})");
}

TEST(NxapiEnvelopeTest, JsonRpcCliAsciiIsText) {
  const Envelope env = envelopeOf(wireText("jsonrpc_cli_ascii_resp_show_hostname__nxapi-plumbing.json"));
  EXPECT_EQ(env.dialect, Dialect::kJsonRpc);
  EXPECT_EQ(env.format, OutputFormat::kAscii);
  ASSERT_EQ(env.outputs.size(), 1u);
  EXPECT_EQ(env.outputs[0].code, 200);
  EXPECT_EQ(env.outputs[0].body, "nxos.domain.com \n");
  EXPECT_EQ(env.outputs[0].msg, "");
}

TEST(NxapiEnvelopeTest, JsonRpcCommandErrorKeepsTheSwitchWords) {
  const Envelope env = envelopeOf(wireText("jsonrpc_error_-32602_invalid_command__nxapi-plumbing.json"), 1);
  ASSERT_EQ(env.outputs.size(), 1u);
  const CommandOutput& o = env.outputs[0];
  EXPECT_EQ(o.code, -32602);
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.msg, "Invalid params: % Invalid command");
  EXPECT_EQ(o.clierror, "% Invalid command\n");
  EXPECT_EQ(o.input, "");
  EXPECT_EQ(o.body, "");
  EXPECT_FALSE(structuredUnsupported(o));
}

TEST(NxapiEnvelopeTest, JsonRpcRefusedRequestIsAWholeFailure) {
  Result<Envelope> env = parseEnvelope(wireText("jsonrpc_error_-32600_invalid_request_tabs__go-cisco-nx-api.json"), 2);
  ASSERT_FALSE(env.isOk());
  EXPECT_EQ(env.status().message(),
            "NX-API refused the request: -32600 Invalid request: JSON-RPC version structure was not found in request");
}

TEST(NxapiEnvelopeTest, HtmlPageQuotesItsTitle) {
  Result<Envelope> env = parseEnvelope(wireText("http_401_nginx_html_body__go-cisco-nx-api.html"));
  ASSERT_FALSE(env.isOk());
  EXPECT_EQ(env.status().message(), "NX-API answered with an HTML page, not JSON: 401 Authorization Required");
  Result<Envelope> untitled = parseEnvelope("<html><body>busy</body></html>");
  ASSERT_FALSE(untitled.isOk());
  EXPECT_EQ(untitled.status().message(), "NX-API answered with an HTML page, not JSON");
}

TEST(NxapiEnvelopeTest, JsonRpcBodiesOfInterfacesAndErrorCounters) {
  const Envelope ifs =
      envelopeOf(wireText("show_interface_jsonrpc_n9k-100g_breakout_portchannel__go-cisco-nx-api.json"));
  ASSERT_EQ(ifs.outputs.size(), 1u);
  EXPECT_EQ(ifs.outputs[0].code, 200);
  EXPECT_TRUE(
      ifs.outputs[0].body.starts_with(R"({"TABLE_interface":{"ROW_interface":[{"vdc_lvl_in_bytes":"4290202352",)"));
  // Numbers as the switch wrote them: a number stays a number, a string a string.
  EXPECT_TRUE(contains(ifs.outputs[0].body, R"("eth_inbytes":317829357349684)"));
  EXPECT_TRUE(contains(ifs.outputs[0].body, R"("eth_ip_mask":24)"));

  const Envelope errs = envelopeOf(wireText("show_interface_counters_errors_jsonrpc_split_rows__go-cisco-nx-api.json"));
  ASSERT_EQ(errs.outputs.size(), 1u);
  EXPECT_EQ(errs.outputs[0].code, 200);
  EXPECT_TRUE(errs.outputs[0].body.starts_with(
      R"({"TABLE_interface":{"ROW_interface":[{"interface":"mgmt0","eth_align_err":0,"eth_fcs_err":0},)"
      R"({"interface":"Ethernet1/1","eth_align_err":0,"eth_fcs_err":0,"eth_xmit_err":29983041,)"));

  const Envelope ver = envelopeOf(wireText("show_version_jsonrpc_n9k-c93180yc-fx_9.3.2__go-cisco-nx-api.json"));
  ASSERT_EQ(ver.outputs.size(), 1u);
  EXPECT_EQ(ver.outputs[0].code, 200);
  EXPECT_TRUE(contains(ver.outputs[0].body, R"j("nxos_ver_str":"9.3(2)")j"));
}

TEST(NxapiEnvelopeTest, RecordedBodiesInEitherEnvelopeComeBackCompact) {
  for (const char* name : {"show_interface_body_n3k-c3548_ssh-json__napalm.json",
                           "show_lldp_neighbors_detail_body_string-ttl__harvest.json"}) {
    const std::string body = wireText(name);
    const text::JsonParse doc = text::parseJson(body);
    ASSERT_TRUE(doc.complete) << name;
    const std::string compact = jsonText(doc.root());
    const Envelope ins = envelopeOf(insApiAround(body, "show x"));
    ASSERT_EQ(ins.outputs.size(), 1u);
    EXPECT_EQ(ins.outputs[0].body, compact) << name;
    const Envelope rpc = envelopeOf(jsonRpcAround(body));
    ASSERT_EQ(rpc.outputs.size(), 1u);
    EXPECT_EQ(rpc.outputs[0].body, compact) << name;
  }
}

TEST(NxapiEnvelopeTest, MissingOutputsArePresentAsNoOutput) {
  const Envelope env = envelopeOf(wireText("ins_api_error_400_input_cli_command_error_wire-tabs__salt.json"), 3);
  ASSERT_EQ(env.outputs.size(), 3u);
  EXPECT_EQ(env.outputs[0].code, 400);
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(env.outputs[i].code, 0);
    EXPECT_FALSE(env.outputs[i].ok());
    EXPECT_EQ(env.outputs[i].msg, "no output for this command");
    EXPECT_EQ(env.outputs[i].body, "");
  }
}

// Every recorded file is read, whatever it holds: an envelope, a bare body
// (not an envelope), a request, an HTML page; never a crash, never ok for
// what is not a response.
TEST(NxapiEnvelopeTest, EveryRecordedFileHasAnAnswer) {
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/nxapi")) {
    const std::string name = e.path().filename().string();
    if (name == "SOURCES.md") continue;
    ++files;
    Result<Envelope> env = parseEnvelope(wireText(name));
    const bool response = !name.starts_with("http_401") && !name.starts_with("jsonrpc_error_-32600") &&
                          !name.starts_with("jsonrpc_request") && !contains(name, "_body_");
    EXPECT_EQ(env.isOk(), response) << name << ": " << env.status().message();
    if (env.isOk()) {
      EXPECT_FALSE(env->outputs.empty()) << name;
    }
  }
  EXPECT_EQ(files, 18u);
}

TEST(NxapiEnvelopeTest, RequestBodiesInsApi) {
  EXPECT_EQ(
      requestBody(Dialect::kInsApi, OutputFormat::kJson, {"show version"}),
      R"({"ins_api":{"version":"1.0","type":"cli_show","chunk":"0","sid":"1","input":"show version","output_format":"json"}})");
  EXPECT_EQ(
      requestBody(Dialect::kInsApi, OutputFormat::kAscii, {"show version", "show interface \"x\""}),
      R"({"ins_api":{"version":"1.0","type":"cli_show_ascii","chunk":"0","sid":"1","input":"show version ;show interface \"x\"","output_format":"json"}})");
  EXPECT_EQ(contentType(Dialect::kInsApi), "application/json");
}

TEST(NxapiEnvelopeTest, RequestBodiesJsonRpc) {
  EXPECT_EQ(requestBody(Dialect::kJsonRpc, OutputFormat::kJson, {"show version"}),
            R"([{"jsonrpc":"2.0","method":"cli","params":{"cmd":"show version","version":1},"id":1}])");
  EXPECT_EQ(requestBody(Dialect::kJsonRpc, OutputFormat::kAscii, {"show version", "show hostname"}),
            R"([{"jsonrpc":"2.0","method":"cli_ascii","params":{"cmd":"show version","version":1},"id":1},)"
            R"({"jsonrpc":"2.0","method":"cli_ascii","params":{"cmd":"show hostname","version":1},"id":2}])");
  EXPECT_EQ(contentType(Dialect::kJsonRpc), "application/json-rpc");
  // The recorded client's request, whitespace aside, is ours.
  const std::string request = wireText("jsonrpc_request_show_interfaces__go-cisco-nx-api.json");
  const text::JsonParse recorded = text::parseJson(request);
  ASSERT_TRUE(recorded.complete);
  EXPECT_EQ(jsonText(recorded.root()), requestBody(Dialect::kJsonRpc, OutputFormat::kJson, {"show interfaces"}));
}

TEST(NxapiEnvelopeTest, TruncatedEnvelopeIsAnErrorAtEveryCut) {
  const std::string wire =
      wireText("ins_api_cli_show_ascii_multi_output-list_show_version+show_module_wire-tabs__salt.json");
  const size_t end = wire.rfind('}');
  ASSERT_NE(end, std::string::npos);
  for (size_t cut = 0; cut <= end; ++cut) {
    Result<Envelope> env = parseEnvelope(std::string_view(wire).substr(0, cut), 2);
    EXPECT_FALSE(env.isOk()) << "cut at " << cut;
  }
  Result<Envelope> half = parseEnvelope(std::string_view(wire).substr(0, wire.size() / 2));
  ASSERT_FALSE(half.isOk());
  EXPECT_TRUE(half.status().message().starts_with("NX-API response truncated or damaged: ")) << half.status().message();
  EXPECT_TRUE(parseEnvelope(std::string_view(wire).substr(0, end + 1), 2).isOk());
}

TEST(NxapiEnvelopeTest, WrongTypesAreClearErrors) {
  // A number for the code means the same: read alike.
  const Envelope numeric = envelopeOf(
      R"({"ins_api":{"type":"cli_show","outputs":{"output":{"code":200,"msg":"Success","input":"show x","body":{}}}}})");
  ASSERT_EQ(numeric.outputs.size(), 1u);
  EXPECT_EQ(numeric.outputs[0].code, 200);
  EXPECT_EQ(numeric.outputs[0].body, "{}");
  struct Case {
    const char* text;
    const char* message;
  };
  for (
      const Case& c : {
          Case{R"({"ins_api":{"outputs":{"output":"oops"}}})",
               "NX-API response: ins_api.outputs.output is neither an object nor a list"},
          Case{R"({"ins_api":{"outputs":{"output":[{"code":"200"},7]}}})", "ins_api output 2 is not an object"},
          Case{R"({"ins_api":{"outputs":{"output":{"code":{"v":200},"msg":"Success"}}}})",
               "ins_api output 1: no code, or a code that is not a number"},
          Case{R"({"ins_api":{"outputs":{"output":{"code":"2OO"}}}})",
               "ins_api output 1: no code, or a code that is not a number"},
          Case{R"({"ins_api":{"code":"400","msg":"Request contains invalid json"}})",
               "NX-API response without ins_api.outputs.output: 400 Request contains invalid json"},
          Case{R"({"ins_api":[1]})", "NX-API response: ins_api is not an object"},
          Case{R"({"jsonrpc":"2.0","result":"yes","id":1})", "JSON-RPC reply 1: result is neither an object nor null"},
          Case{R"([{"jsonrpc":"2.0","id":1}])", "JSON-RPC reply 1 holds neither result nor error"},
          Case{R"([])", "JSON-RPC response: an empty list"},
          Case{
              R"([{"jsonrpc":"2.0","result":null,"id":1},{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"},"id":null}])",
              "NX-API refused the request: -32600 Invalid request"},
          Case{R"({"status":"ok"})", "NX-API response is neither ins_api nor JSON-RPC"},
          Case{"", "empty NX-API response"},
          Case{" \n\t ", "empty NX-API response"},
          Case{"Service Unavailable", "NX-API response is not JSON: 'Service Unavailable'"},
      }) {
    Result<Envelope> env = parseEnvelope(c.text);
    ASSERT_FALSE(env.isOk()) << c.text;
    EXPECT_EQ(env.status().message(), c.message) << c.text;
  }
}

TEST(NxapiEnvelopeTest, DeepNestingIsRefusedNotRecursedInto) {
  const std::string deep = R"({"ins_api":{"type":"cli_show","outputs":{"output":{"code":"200","input":"x","body":)" +
                           std::string(5000, '[') + std::string(5000, ']') + "}}}}";
  Result<Envelope> env = parseEnvelope(deep);
  ASSERT_FALSE(env.isOk());
  EXPECT_TRUE(env.status().message().starts_with("NX-API response truncated or damaged: ")) << env.status().message();
  // Within the reader's cap the body comes back whole.
  const std::string nested = std::string(40, '[') + std::string(40, ']');
  const Envelope ok = envelopeOf(jsonRpcAround(nested));
  ASSERT_EQ(ok.outputs.size(), 1u);
  EXPECT_EQ(ok.outputs[0].body, nested);
}

}  // namespace
}  // namespace rdmagw::testing
