// docs/configuration.md against the config reader: every key the reader
// accepts has a row on that page, and every key the page names is one the
// reader accepts.
//
// The reader is asked, not copied: a probe key is put into every mapping of
// a configuration that reaches every block (examples/rdmagw.yaml plus the
// blocks it leaves out), and each "unknown key (allowed: ...)" error it
// answers names the keys that mapping accepts. A key added to the reader
// shows up there without this test being touched.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "gateway/config/config.h"

namespace rdmagw::gateway {
namespace {

constexpr const char* kProbe = "zz_doc_probe";

// Keys this page documents while the reader that accepts them is being
// written on another branch. Once the reader accepts one, the test fails
// until it is taken off this list.
const std::set<std::string> kDocumentedAhead = {};

// Blocks examples/rdmagw.yaml does not show (it is an operator's example,
// not a list of every block).
constexpr const char* kExtraTargets = R"(
- name: probe-switch
  kind: nexus
  address: 192.0.2.99
  transport: auto
  credentials: {username: probe, password_env: PROBE_PASSWORD}
  ssh: {port: 22}
  gnmi:
    subscriptions:
      - {path: "openconfig:/interfaces", mode: sample}
- name: probe-nxapi
  kind: nexus
  address: 192.0.2.98
  transport: [nxapi, ssh]
  credentials: {username: probe, password_env: PROBE_PASSWORD}
  nxapi: {port: 443}
- name: probe-node
  kind: rdma-host
  kubernetes: {kubelet_socket: /var/lib/kubelet/pod-resources/kubelet.sock}
  gpu: {metrics: auto}
)";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Adds the probe key to every mapping under `node`, lists included.
void addProbes(YAML::Node node) {
  if (node.IsMap()) {
    for (auto kv : node) addProbes(kv.second);
    node[kProbe] = "1";
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) addProbes(node[i]);
  }
}

// "targets[3].gnmi.subscriptions[0]" -> "targets[].gnmi.subscriptions[]".
std::string generic(const std::string& path) { return std::regex_replace(path, std::regex(R"(\[\d+\])"), "[]"); }

// Every key path the reader accepts, from the probes' errors.
std::set<std::string> keysTheReaderAccepts() {
  YAML::Node root = YAML::Load(slurp(std::string(RDMAGW_SOURCE_DIR) + "/examples/rdmagw.yaml"));
  YAML::Node extra = YAML::Load(kExtraTargets);
  for (size_t i = 0; i < extra.size(); ++i) root["targets"].push_back(extra[i]);
  root["cluster"] = YAML::Load("{endpoints: [127.0.0.1:2379], tls: {ca_file: ca.pem}, advertise: {gnmi: x}}");
  addProbes(root);
  YAML::Emitter out;
  out << root;
  Result<GatewayConfig> cfg = parseConfig(out.c_str(), "probe.yaml");
  EXPECT_FALSE(cfg.isOk()) << "the probe keys were not refused";
  std::set<std::string> keys;
  if (cfg.isOk()) return keys;
  const std::regex line_re(std::string(R"(^probe\.yaml:\d+:\d+: (?:(.*)\.)?)") + kProbe +
                           R"(: unknown key \(allowed: (.*)\)$)");
  std::istringstream lines(cfg.status().message());
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    const std::string parent = generic(m[1].str());
    std::istringstream allowed(m[2].str());
    for (std::string key; std::getline(allowed, key, ',');) {
      key.erase(0, key.find_first_not_of(' '));
      keys.insert(parent.empty() ? key : parent + "." + key);
    }
  }
  return keys;
}

// The key paths in the first column of the page's tables.
std::set<std::string> keysThePageNames() {
  std::istringstream page(slurp(std::string(RDMAGW_SOURCE_DIR) + "/docs/configuration.md"));
  const std::regex key_re(R"(`([a-z_]+(?:\[\])?(?:\.[a-z_]+(?:\[\])?)*)`)");
  std::set<std::string> keys;
  for (std::string line; std::getline(page, line);) {
    if (!line.starts_with("| ")) continue;
    const std::string first = line.substr(2, line.find(" |", 2) - 2);
    for (std::sregex_iterator it(first.begin(), first.end(), key_re), end; it != end; ++it) {
      keys.insert((*it)[1].str());
    }
  }
  return keys;
}

TEST(ConfigReferenceTest, ProbesReachEveryBlock) {
  const std::set<std::string> reader = keysTheReaderAccepts();
  // One key from deep in each family of blocks: a probe that stopped reaching
  // them would make the comparison below vacuous.
  for (const char* key : {"log_level", "targets[].rdma.devices.include", "targets[].ssh.known_hosts",
                          "targets[].gnmi.subscriptions[].mode", "targets[].credentials.key_file", "targets[].nxapi.retry_after",
                          "analytics.links[].a.rdma_port", "analytics.pause_storm.for",
                          "northbound.prometheus.refresh_period", "northbound.snmp.notifications[].timeout",
                          "northbound.gnmi.tls.client_ca", "northbound.gnmi.limits.max_queued_updates",
                          "cluster.tls.key_file", "cluster.advertise.snmp"}) {
    EXPECT_TRUE(reader.count(key)) << key;
  }
}

TEST(ConfigReferenceTest, EveryKeyTheReaderAcceptsIsDocumented) {
  const std::set<std::string> page = keysThePageNames();
  for (const std::string& key : keysTheReaderAccepts()) {
    EXPECT_TRUE(page.count(key)) << "the config reader accepts `" << key
                                 << "` but docs/configuration.md has no row for it";
  }
}

TEST(ConfigReferenceTest, EveryDocumentedKeyIsOneTheReaderAccepts) {
  const std::set<std::string> reader = keysTheReaderAccepts();
  const std::set<std::string> page = keysThePageNames();
  EXPECT_GT(page.size(), 50u) << "docs/configuration.md: its tables were not found";
  for (const std::string& key : page) {
    if (kDocumentedAhead.count(key)) {
      EXPECT_FALSE(reader.count(key)) << "the reader now accepts `" << key
                                      << "`: take it off kDocumentedAhead in " << __FILE__;
      continue;
    }
    EXPECT_TRUE(reader.count(key)) << "docs/configuration.md documents `" << key
                                   << "` but the config reader refuses it";
  }
}

}  // namespace
}  // namespace rdmagw::gateway
