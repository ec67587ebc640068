// The Nexus profile's commands as NX-API calls, and each recorded body read
// through the envelope by the collector's parser: the same updates, field by
// field, as the same body read as SSH `| json` text. Then
// `rdmagw parse --format nxapi-envelope` on whole recorded responses.

#include "southbound/nxapi/nxapi_commands.h"

#include <gtest/gtest.h>

#include <string>

#include "models/lldp.h"
#include "southbound/nxapi/json_text.h"
#include "southbound/nxapi/nxapi_format.h"
#include "southbound/nxos/nxos_interface.h"
#include "southbound/nxos/nxos_lldp.h"
#include "southbound/ssh/profiles/nexus_profile.h"
#include "tests/southbound/nxapi/nxapi_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxapi;  // the code under test
namespace nxos = rdmagw::southbound::nxos;
namespace ssh = rdmagw::southbound::ssh;
namespace {

std::string ifc(const std::string& name, const std::string& leaf) {
  return "/interfaces/interface[name=" + name + "]/state/counters/" + leaf;
}

// The variant the collector has for `command` in `format`.
NxapiVariant variantFor(std::string_view command, OutputFormat format) {
  for (const ssh::CliCommand& c : ssh::nexusCommands()) {
    for (const NxapiVariant& v : nxapiVariants(c)) {
      if (v.command == command && v.format == format) return v;
    }
  }
  ADD_FAILURE() << "no variant " << command;
  return {};
}

TEST(NxapiCommandsTest, JsonCommandGivesJsonThenText) {
  const ssh::CliCommand cmd("show interface | json", nxos::parseInterfaceJson, false,
                            {{"show interface", nxos::parseInterface}});
  const std::vector<NxapiVariant> v = nxapiVariants(cmd);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].command, "show interface");
  EXPECT_EQ(v[0].format, OutputFormat::kJson);
  EXPECT_EQ(v[0].parse, nxos::parseInterfaceJson);
  EXPECT_EQ(v[1].command, "show interface");
  EXPECT_EQ(v[1].format, OutputFormat::kAscii);
  EXPECT_EQ(v[1].parse, nxos::parseInterface);
}

TEST(NxapiCommandsTest, TextCommandGivesOnlyAscii) {
  const std::vector<NxapiVariant> v = nxapiVariants(ssh::CliCommand("show class-map type qos", nullptr, true));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].command, "show class-map type qos");
  EXPECT_EQ(v[0].format, OutputFormat::kAscii);
}

TEST(NxapiCommandsTest, EveryNexusCommandMapsWithoutAPipe) {
  size_t json = 0;
  size_t ascii = 0;
  for (const ssh::CliCommand& c : ssh::nexusCommands()) {
    const std::vector<NxapiVariant> v = nxapiVariants(c);
    ASSERT_EQ(v.size(), 1 + c.alternatives.size()) << c.command;
    EXPECT_EQ(v[0].format, c.command.ends_with("| json") ? OutputFormat::kJson : OutputFormat::kAscii) << c.command;
    for (const NxapiVariant& each : v) {
      EXPECT_EQ(each.command.find('|'), std::string::npos) << each.command;
      EXPECT_NE(each.parse, nullptr) << each.command;
      (each.format == OutputFormat::kJson ? json : ascii) += 1;
    }
  }
  EXPECT_EQ(json, 6u);   // pfc, queuing, interface, counters errors, lldp, pfc watchdog
  EXPECT_EQ(ascii, 9u);  // their text forms, network-qos, class-map, ipqos
}

TEST(NxapiCommandsTest, NotOkOutputAddsNothingAndQuotesTheSwitch) {
  const Envelope env = envelopeOf(wireText("ins_api_error_400_input_cli_command_error_wire-tabs__salt.json"));
  ASSERT_EQ(env.outputs.size(), 1u);
  PollBatch batch;
  Status st = parseOutput(env.outputs[0], variantFor("show interface", OutputFormat::kAscii), kTs, batch);
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), "show interface: NX-API code 400 \"Input CLI command error\" (% Invalid command)");
  EXPECT_TRUE(batch.updates.empty());
  EXPECT_TRUE(batch.errors.empty());
  const Envelope rpc = envelopeOf(wireText("jsonrpc_error_-32602_invalid_command__nxapi-plumbing.json"));
  EXPECT_EQ(describeFailure(rpc.outputs[0]), "NX-API code -32602 \"Invalid params: % Invalid command\"");
  CommandOutput none;
  EXPECT_EQ(parseOutput(none, variantFor("show interface", OutputFormat::kJson), kTs, batch).message(),
            "show interface: NX-API code 0 \"\"");
}

// The recorded JSON-RPC `show interface` of a 100G N9K with breakouts and
// port-channels: counters through NX-API equal those of the same body
// read as SSH text.
TEST(NxapiCommandsTest, InterfaceBodyParsesAsOverSsh) {
  const std::string wire = wireText("show_interface_jsonrpc_n9k-100g_breakout_portchannel__go-cisco-nx-api.json");
  const Envelope env = envelopeOf(wire, 1);
  PollBatch api;
  ASSERT_TRUE(parseOutput(env.outputs[0], variantFor("show interface", OutputFormat::kJson), kTs, api).isOk());
  EXPECT_EQ(u64At(api, ifc("Ethernet1/1", "in-octets")), 317829357349684u);
  EXPECT_EQ(u64At(api, ifc("Ethernet1/1", "out-octets")), 1193868182561685u);
  EXPECT_EQ(u64At(api, ifc("Ethernet1/5", "in-octets")), 1869056902624424u);
  EXPECT_EQ(u64At(api, ifc("Ethernet1/24/2", "out-octets")), 7905475015u);
  EXPECT_EQ(u64At(api, ifc("port-channel1", "in-octets")), 3705949474272241u);
  EXPECT_EQ(u64At(api, ifc("mgmt0", "in-octets")), 4290202352u);  // a string there, a number elsewhere
  PollBatch ssh_text;
  ASSERT_TRUE(nxos::parseInterfaceJson(rawBody(wire), kTs, ssh_text).isOk());
  expectSameBatch(api, ssh_text);
}

TEST(NxapiCommandsTest, RecordedSshBodyParsesAlikeInBothEnvelopes) {
  const std::string body = wireText("show_interface_body_n3k-c3548_ssh-json__napalm.json");
  PollBatch ssh_text;
  ASSERT_TRUE(nxos::parseInterfaceJson(body, kTs, ssh_text).isOk());
  EXPECT_EQ(u64At(ssh_text, ifc("mgmt0", "in-octets")), 3592332845u);
  EXPECT_EQ(u64At(ssh_text, ifc("Ethernet1/2", "out-octets")), 5399603280u);
  for (const std::string& wire : {insApiAround(body, "show interface"), jsonRpcAround(body)}) {
    const Envelope env = envelopeOf(wire, 1);
    PollBatch api;
    ASSERT_TRUE(parseOutput(env.outputs[0], variantFor("show interface", OutputFormat::kJson), kTs, api).isOk());
    expectSameBatch(api, ssh_text);
  }
}

TEST(NxapiCommandsTest, CountersErrorsSplitRowsParseAsOverSsh) {
  const std::string wire = wireText("show_interface_counters_errors_jsonrpc_split_rows__go-cisco-nx-api.json");
  const Envelope env = envelopeOf(wire, 1);
  PollBatch api;
  ASSERT_TRUE(
      parseOutput(env.outputs[0], variantFor("show interface counters errors", OutputFormat::kJson), kTs, api).isOk());
  // Ethernet1/1's columns come in three rows; each lands.
  EXPECT_EQ(u64At(api, ifc("Ethernet1/1", "out-errors")), 29983041u);
  EXPECT_EQ(u64At(api, ifc("Ethernet1/1", "out-discards")), 35393307u);
  EXPECT_EQ(u64At(api, ifc("Ethernet1/1", "in-fcs-errors")), 0u);
  EXPECT_EQ(u64At(api, ifc("Ethernet1/1", "in-discards")), 0u);
  PollBatch ssh_text;
  ASSERT_TRUE(nxos::parseInterfaceCountersErrorsJson(rawBody(wire), kTs, ssh_text).isOk());
  expectSameBatch(api, ssh_text);
}

TEST(NxapiCommandsTest, LldpWithStringTtlParsesAsOverSsh) {
  const std::string body = wireText("show_lldp_neighbors_detail_body_string-ttl__harvest.json");
  const Envelope env = envelopeOf(insApiAround(body, "show lldp neighbors detail"), 1);
  PollBatch api;
  ASSERT_TRUE(
      parseOutput(env.outputs[0], variantFor("show lldp neighbors detail", OutputFormat::kJson), kTs, api).isOk());
  EXPECT_EQ(strAt(api, lldp::neighborPath("Ethernet1/9", "dead.beef.7fef", "port-id")), "e1b");
  EXPECT_EQ(strAt(api, lldp::neighborPath("Ethernet1/10", "d039.eaba.f280", "system-name")), "na2b-mc1-nbg3");
  EXPECT_EQ(strAt(api, lldp::neighborPath("mgmt0", "dead.beef.7fef", "port-id")), "e0M");
  PollBatch ssh_text;
  ASSERT_TRUE(nxos::parseLldpNeighbors(body, kTs, ssh_text).isOk());
  expectSameBatch(api, ssh_text);
}

// cli_show_ascii hands the text form to the text parser, as SSH would.
TEST(NxapiCommandsTest, AsciiBodyParsesAsTheSshText) {
  std::string text =
      readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/nxos/nxos_show_interface__genie_golden1.txt");
  ASSERT_FALSE(text.empty());
  text = text.substr(text.find('\n') + 1);
  const std::string wire = R"({"ins_api":{"type":"cli_show_ascii","version":"1.0","sid":"eoc","outputs":{"output":)"
                           R"({"input":"show interface","msg":"Success","code":"200","body":)" +
                           jsonQuote(text) + "}}}}";
  const Envelope env = envelopeOf(wire, 1);
  EXPECT_EQ(env.outputs[0].body, text);
  PollBatch api;
  ASSERT_TRUE(parseOutput(env.outputs[0], variantFor("show interface", OutputFormat::kAscii), kTs, api).isOk());
  PollBatch ssh_text;
  ASSERT_TRUE(nxos::parseInterface(text, kTs, ssh_text).isOk());
  EXPECT_FALSE(api.updates.empty());
  expectSameBatch(api, ssh_text);
  PollBatch file;
  ASSERT_TRUE(parseCollectorEnvelope(wire, ssh::nexusCommands(), kTs, file).isOk());
  expectSameBatch(file, ssh_text);
}

// ---- rdmagw parse --format nxapi-envelope ----

Status parseFile(const std::string& name, PollBatch& out) {
  return parseCollectorEnvelope(readNxapiFixture(name), ssh::nexusCommands(), kTs, out);
}

TEST(NxapiEnvelopeFormatTest, JsonRpcBodyIsMatchedByItsKeys) {
  PollBatch file;
  ASSERT_TRUE(parseFile("show_interface_jsonrpc_n9k-100g_breakout_portchannel__go-cisco-nx-api.json", file).isOk());
  PollBatch direct;
  const std::string wire = wireText("show_interface_jsonrpc_n9k-100g_breakout_portchannel__go-cisco-nx-api.json");
  ASSERT_TRUE(nxos::parseInterfaceJson(rawBody(wire), kTs, direct).isOk());
  expectSameBatch(file, direct);
  EXPECT_EQ(u64At(file, ifc("Ethernet1/1", "in-octets")), 317829357349684u);
}

// TABLE_interface both: the error columns tell `show interface counters
// errors` from `show interface`.
TEST(NxapiEnvelopeFormatTest, CountersErrorsBodyIsNotTakenForShowInterface) {
  PollBatch file;
  ASSERT_TRUE(parseFile("show_interface_counters_errors_jsonrpc_split_rows__go-cisco-nx-api.json", file).isOk());
  EXPECT_EQ(u64At(file, ifc("Ethernet1/1", "out-errors")), 29983041u);
  PollBatch direct;
  const std::string wire = wireText("show_interface_counters_errors_jsonrpc_split_rows__go-cisco-nx-api.json");
  ASSERT_TRUE(nxos::parseInterfaceCountersErrorsJson(rawBody(wire), kTs, direct).isOk());
  expectSameBatch(file, direct);
}

// LLDP's body starts with neigh_hdr: its row key finds it all the same.
TEST(NxapiEnvelopeFormatTest, LldpBodyWithoutEchoIsMatched) {
  const std::string body = wireText("show_lldp_neighbors_detail_body_string-ttl__harvest.json");
  PollBatch file;
  ASSERT_TRUE(parseCollectorEnvelope(jsonRpcAround(body), ssh::nexusCommands(), kTs, file).isOk());
  EXPECT_EQ(strAt(file, lldp::neighborPath("Ethernet1/9", "dead.beef.7fef", "port-id")), "e1b");
  EXPECT_TRUE(file.errors.empty()) << file.errors[0];
}

TEST(NxapiEnvelopeFormatTest, OutputsNoCollectorReadsAreErrorLines) {
  PollBatch ver;
  Status st = parseFile("ins_api_cli_show_show_version_n9k-93180yc-ex_9.3.5_wire-tabs__salt.json", ver);
  EXPECT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), "nxapi-envelope: none of the 1 outputs is one a Nexus collector reads and parses");
  EXPECT_EQ(ver.errors, std::vector<std::string>{"output 1 (show ver): no Nexus collector reads this"});
  PollBatch batch;
  EXPECT_FALSE(parseFile("jsonrpc_batch_resp_show_hostname+show_version_nxosv7.3__nxapi-plumbing.json", batch).isOk());
  EXPECT_EQ(batch.errors, (std::vector<std::string>{"output 1 (hostname): no Nexus collector reads this",
                                                    "output 2 (header_str): no Nexus collector reads this"}));
  PollBatch ascii;
  EXPECT_FALSE(parseFile("jsonrpc_cli_ascii_resp_show_hostname__nxapi-plumbing.json", ascii).isOk());
  EXPECT_EQ(ascii.errors, std::vector<std::string>{"output 1 (no command echoed): no Nexus collector reads this"});
}

TEST(NxapiEnvelopeFormatTest, ErrorOutputsQuoteTheSwitch) {
  PollBatch e400;
  EXPECT_FALSE(parseFile("ins_api_error_400_input_cli_command_error_wire-tabs__salt.json", e400).isOk());
  EXPECT_EQ(e400.errors, std::vector<std::string>{"output 1 (show version | show module): NX-API code 400 "
                                                  "\"Input CLI command error\" (% Invalid command)"});
  PollBatch e32602;
  EXPECT_FALSE(parseFile("jsonrpc_error_-32602_invalid_command__nxapi-plumbing.json", e32602).isOk());
  EXPECT_EQ(e32602.errors,
            std::vector<std::string>{"output 1 (error): NX-API code -32602 \"Invalid params: % Invalid command\""});
  PollBatch html;
  Status st = parseFile("http_401_nginx_html_body__go-cisco-nx-api.html", html);
  EXPECT_EQ(st.message(), "NX-API answered with an HTML page, not JSON: 401 Authorization Required");
  EXPECT_TRUE(html.updates.empty());
}

// One response mixing what parses, what no collector reads and an error:
// the file parses, each other output is its own line.
TEST(NxapiEnvelopeFormatTest, MixedResponseKeepsWhatParses) {
  const std::string body = wireText("show_interface_body_n3k-c3548_ssh-json__napalm.json");
  const std::string wire =
      "# saved by hand\n"
      R"({"ins_api":{"type":"cli_show","version":"1.0","sid":"eoc","outputs":{"output":[)"
      R"({"input":"show  interface","msg":"Success","code":"200","body":)" +
      body +
      R"j(},{"input":"show version","msg":"Success","code":"200","body":{"nxos_ver_str":"9.3(5)"}},)j"
      R"({"input":"show queuing interface","msg":"Structured output unsupported","code":"501","clierror":""}]}}})";
  PollBatch file;
  ASSERT_TRUE(parseCollectorEnvelope(wire, ssh::nexusCommands(), kTs, file).isOk());
  PollBatch direct;
  ASSERT_TRUE(nxos::parseInterfaceJson(body, kTs, direct).isOk());
  ASSERT_EQ(file.updates.size(), direct.updates.size());
  EXPECT_EQ(u64At(file, ifc("Ethernet1/2", "out-octets")), 5399603280u);
  std::vector<std::string> want = direct.errors;
  want.push_back("output 2 (show version): no Nexus collector reads this");
  want.push_back("output 3 (show queuing interface): NX-API code 501 \"Structured output unsupported\"");
  EXPECT_EQ(file.errors, want);
}

}  // namespace
}  // namespace rdmagw::testing
