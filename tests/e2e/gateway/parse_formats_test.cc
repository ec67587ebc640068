// Every reader a live collector runs is reachable by `rdmagw parse --format`
// (and so by the parse_formats fuzzer, which fuzzes every registered format),
// and the real binary reads the RoCE configuration formats' fixtures.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "gateway/runtime/registry.h"
#include "southbound/esxi/esxi_formats.h"
#include "southbound/rdma/lldpctl_json.h"
#include "southbound/rdma/netdev_dcb.h"
#include "southbound/rdma/parsers.h"
#include "southbound/rdma/remote_dump.h"
#include "southbound/ssh/profiles/esxi_profile.h"
#include "southbound/ssh/profiles/nexus_profile.h"
#include "tests/support/test_support.h"

namespace {

using rdmagw::gateway::parserFormats;
using rdmagw::southbound::ssh::CliCommand;
using rdmagw::southbound::ssh::CliParseFn;

struct Reader {
  std::string command;
  CliParseFn parse;
};

std::vector<Reader> readersOf(const std::vector<CliCommand>& commands) {
  std::vector<Reader> readers;
  for (const CliCommand& c : commands) {
    readers.push_back({c.command, c.parse});
    for (const auto& alt : c.alternatives) readers.push_back({alt.command, alt.parse});
  }
  return readers;
}

std::set<CliParseFn> registeredParsers() {
  std::set<CliParseFn> parsers;
  for (const auto& f : parserFormats()) parsers.insert(f.parse);
  return parsers;
}

// A command (or its alternative form) added to a profile with a new reader
// and no format fails here, naming the command.
TEST(ParseFormatsTest, EveryCliCollectorReaderIsRegistered) {
  const std::set<CliParseFn> registered = registeredParsers();
  std::vector<Reader> readers = readersOf(rdmagw::southbound::ssh::nexusCommands());
  for (Reader& r : readersOf(rdmagw::southbound::ssh::nexusGnmiSupplementCommands())) readers.push_back(r);
  for (Reader& r : readersOf(rdmagw::southbound::ssh::esxiCommands())) readers.push_back(r);
  ASSERT_GE(readers.size(), 16u);  // the Nexus set, its text alternatives, the ESXi bundle
  for (const Reader& r : readers) {
    ASSERT_NE(r.parse, nullptr) << r.command;
    EXPECT_TRUE(registered.contains(r.parse)) << "no `rdmagw parse` format reads \"" << r.command << "\"";
  }
}

// The rdma-host collector reads one dump (over SSH) or the host's tools
// directly; neither is a CliCommand list, so its readers are named here.
TEST(ParseFormatsTest, RdmaHostReadersAreRegistered) {
  namespace rdma = rdmagw::southbound::rdma;
  const std::set<CliParseFn> registered = registeredParsers();
  for (CliParseFn fn : {&rdma::parseRemoteDump, &rdma::parseSysfsDump, &rdma::parseEthtoolS, &rdma::parseLldpctlJson,
                        &rdma::parseDcbPfcShow, &rdma::parseDcbAppShow, &rdma::parseMlnxQosShow,
                        &rdma::parseDcbShowJson, &rdma::parseDcbShowText}) {
    EXPECT_TRUE(registered.contains(fn));
  }
}

TEST(ParseFormatsTest, NamesAreUniqueAndEveryFormatHasHelp) {
  std::set<std::string> names;
  for (const auto& f : parserFormats()) {
    EXPECT_TRUE(names.insert(std::string(f.name)).second) << "two formats named " << f.name;
    EXPECT_FALSE(f.help.empty()) << f.name;
    EXPECT_NE(f.parse, nullptr) << f.name;
  }
  // The sections of the ESXi bundle, each alone.
  for (const char* n : {"esxi-bundle", "esxi-nic-list", "esxi-nic-stats", "esxi-vsish-stats", "esxi-nic-dcb-status"}) {
    EXPECT_TRUE(names.contains(n)) << n;
  }
}

std::string parse(const std::string& format, const std::string& fixture) {
  const rdmagw::testing::CommandResult r = rdmagw::testing::runCommand(
      std::string(RDMAGW_BIN) + " parse --format " + format + " " + RDMAGW_SOURCE_DIR + "/tests/fixtures/" + fixture);
  EXPECT_EQ(r.exit_code, 0) << format << ": " << r.output;
  return r.output;
}

bool has(const std::string& out, const std::string& line) { return out.find(line + "\n") != std::string::npos; }

TEST(ParseFormatsTest, BinaryReadsRunningConfigIpqos) {
  const std::string out =
      parse("nxos-running-config-ipqos", "roce-config/nxos_running-config_qos_snippet__zartbot-blog.txt");
  EXPECT_TRUE(has(out, "/qos/dscp-map/dscp[value=26]/state/qos-group = 5")) << out;
  EXPECT_TRUE(has(out, "/qos/dscp-map/dscp[value=48]/state/qos-group = 6")) << out;
  const std::string g5 = "/qos/qos-groups/qos-group[id=5]/state/";
  EXPECT_TRUE(has(out, g5 + "pause-cos = 32")) << out;  // bitmap: CoS 5
  EXPECT_TRUE(has(out, g5 + "mtu = 2240"));
  EXPECT_TRUE(has(out, g5 + "bandwidth-percent = 70"));
  EXPECT_TRUE(has(out, g5 + "wred-min-threshold = 409600"));
  EXPECT_TRUE(has(out, g5 + "pause-threshold = 114688"));
  EXPECT_TRUE(has(out, "/qos/qos-groups/qos-group[id=6]/state/priority-level = 2"));
}

TEST(ParseFormatsTest, BinaryReadsPfcWatchdogTextAndJson) {
  const std::string q3 =
      "/interfaces/interface[name=Ethernet1/23]/ethernet/pfc/watchdog/qos-groups/qos-group[id=3]/state/";
  for (const auto& [format, fixture] : std::vector<std::pair<std::string, std::string>>{
           {"nxos-pfc-watchdog", "roce-config/nxos_show_queuing_pfc-queue_interface_detail__otel-ciscoos-test.txt"},
           {"nxos-pfc-watchdog-json",
            "roce-config/SYNTHETIC_nxos_show_queuing_pfc-queue_detail_json__from_9.3x_grammar.json"}}) {
    const std::string out = parse(format, fixture);
    EXPECT_TRUE(has(out, "/interfaces/interface[name=Ethernet1/23]/ethernet/pfc/watchdog/state/enabled = 1"))
        << format << ": " << out;
    EXPECT_TRUE(has(out, q3 + "state = \"Shutdown\"")) << format;
    EXPECT_TRUE(has(out, q3 + "pfc-cos = 3")) << format;
    EXPECT_TRUE(has(out, q3 + "shutdown-events = 1")) << format;
    EXPECT_TRUE(has(out, q3 + "restored-events = 2")) << format;
    EXPECT_TRUE(has(out, q3 + "dropped-packets = 4")) << format;
  }
}

TEST(ParseFormatsTest, BinaryReadsDcbText) {
  const std::string out = parse("dcb-show", "roce-config/linux_dcb_ets_show_dev__iproute2-commit-mlxsw.txt");
  const std::string dcb = "/interfaces/interface[name=eni1np1]/ethernet/dcb/";
  EXPECT_TRUE(has(out, dcb + "priorities/priority[id=1]/state/traffic-class = 3")) << out;
  EXPECT_TRUE(has(out, dcb + "traffic-classes/traffic-class[id=4]/state/tsa = \"ets\"")) << out;
  EXPECT_TRUE(has(out, dcb + "traffic-classes/traffic-class[id=4]/state/bandwidth-percent = 100")) << out;
}

}  // namespace
