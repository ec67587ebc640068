// Keeps models/schema_table.cc and yang/ in step. An RFC 7951 JSON instance
// document holding every leaf row of the schema table (sample keys, sample
// values) must validate against the modules with yanglint; and every leaf the
// modules define under the table's subtrees must be a row of the table.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/schema.h"
#include "tests/yang/yanglint_runner.h"

namespace rdmagw::yangtest {
namespace {

namespace fs = std::filesystem;

// Top-level container -> module that defines it (the JSON member prefix).
const std::map<std::string, std::string> kModuleOf = {
    {"interfaces", "rdmagw-interfaces"},
    {"rdma", "rdmagw-rdma"},
    {"hypervisor", "rdmagw-hypervisor-nic"},
    {"qos", "rdmagw-qos"},
    {"fabric", "rdmagw-fabric"},
    {"lldp", "rdmagw-lldp"},
};

// Lists on schema paths: their key leaf, the leaf the key refers to (the
// OpenConfig leafref pattern), and a sample key in RFC 7951 encoding.
struct ListKey {
  std::string key;
  std::string target;  // relative to the list entry
  std::string sample;
};
// Keyed by list name, or "<top container>:<list>" where two modules share a
// list name with different keys (OpenConfig's qos interface[interface-id]).
const std::map<std::string, ListKey> kLists = {
    {"interface", {"name", "config/name", "\"ens1f0np0\""}},
    {"qos:interface", {"interface-id", "state/interface-id", "\"Ethernet1/1\""}},
    {"fabric:interface", {"name", "state/name", "\"Ethernet1/1\""}},
    {"queue", {"name", "state/name", "\"3\""}},
    {"priority", {"id", "state/id", "3"}},
    {"device", {"name", "state/name", "\"mlx5_0\""}},
    {"port", {"port-num", "state/port-num", "1"}},
    {"nic", {"name", "state/name", "\"vmnic4\""}},
    {"lldp:interface", {"name", "state/name", "\"Ethernet1/1\""}},
    {"neighbor", {"id", "state/id", "\"00de.fb01.0001\""}},
    {"class", {"name", "state/name", "\"c-8q-nq3\""}},
};

std::vector<std::string> split(std::string_view path) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < path.size()) {
    size_t next = path.find('/', pos);
    if (next == std::string_view::npos) next = path.size();
    if (next > pos) out.emplace_back(path.substr(pos, next - pos));
    pos = next + 1;
  }
  return out;
}

// A JSON object tree; a list holds exactly one entry.
struct Node {
  std::map<std::string, Node> children;
  std::string value;  // JSON-encoded, for leaves
  bool is_list = false;

  Node& child(const std::string& name) { return children[name]; }

  void set(const std::vector<std::string>& rel, const std::string& json) {
    Node* n = this;
    for (const std::string& s : rel) n = &n->child(s);
    n->value = json;
  }
};

// RFC 7951 §6.1: 64-bit integers are JSON strings. Counters are counter64 and
// gauges are uint64 in our modules (the model's values are uint64), so both
// encode as strings; a gauge declared uint32 in YANG fails here on purpose.
// The derived rates and ratios (rdmagw-fabric) are decimal64, also a JSON
// string, for which "4" is as valid as for uint64; a ratio is at most 1.
std::string sampleValue(const LeafSchema& row) {
  if (row.unit == "ratio") return "\"0.5\"";  // decimal64 with range 0..1
  switch (row.kind) {
    case LeafKind::kCounter: return "\"18446744073709551615\"";
    case LeafKind::kGauge: return "\"4\"";
    case LeafKind::kString: return "\"sample value\"";
  }
  return "null";
}

// Builds the instance document; `rename` maps a row path to the leaf name to
// write instead (to prove misspellings fail).
Node buildDocument(const std::map<std::string_view, std::string>& rename = {}) {
  Node root;
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    std::vector<std::string> segs = split(row.path);
    EXPECT_GE(segs.size(), 2u) << row.path;
    if (segs.size() < 2) continue;
    auto mod = kModuleOf.find(segs[0]);
    EXPECT_NE(mod, kModuleOf.end()) << "no YANG module defines /" << segs[0] << " (" << row.path << ")";
    if (mod == kModuleOf.end()) continue;
    if (auto r = rename.find(row.path); r != rename.end()) segs.back() = r->second;

    Node* n = &root.child(mod->second + ":" + segs[0]);
    for (size_t i = 1; i + 1 < segs.size(); ++i) {
      n = &n->child(segs[i]);
      auto list = kLists.find(segs[0] + ":" + segs[i]);
      if (list == kLists.end()) list = kLists.find(segs[i]);
      if (list == kLists.end()) continue;
      n->is_list = true;
      Node& entry = n->child("");  // the one entry; written as the list's object
      entry.set({list->second.key}, list->second.sample);
      entry.set(split(list->second.target), list->second.sample);
      n = &entry;
    }
    n->child(segs.back()).value = sampleValue(row);
  }
  return root;
}

// Lists are stored with their single entry under the "" child; print that.
void writeJson(const Node& node, std::ostream& out) {
  if (!node.value.empty()) {
    out << node.value;
    return;
  }
  const Node& body = node.is_list ? node.children.at("") : node;
  out << (node.is_list ? "[{" : "{");
  bool first = true;
  for (const auto& [name, kid] : body.children) {
    out << (first ? "" : ",") << "\"" << name << "\":";
    writeJson(kid, out);
    first = false;
  }
  out << (node.is_list ? "}]" : "}");
}

class SchemaYangTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/rdmagw-schema-yang-XXXXXX.json";
    const int fd = mkstemps(tmpl, 5);
    ASSERT_GE(fd, 0);
    close(fd);
    file_ = tmpl;
  }
  void TearDown() override { fs::remove(file_); }

  CommandResult validate(const Node& doc) {
    std::ofstream out(file_);
    writeJson(doc, out);
    out.close();
    // -t data: a complete datastore including state (config false) data.
    return runCommand(yanglint("-t data -f json " + allModules() + "'" + file_ + "'"));
  }

  std::string file_;
};

TEST_F(SchemaYangTest, EveryLeafRowValidatesAgainstTheModules) {
  ASSERT_GT(SchemaTable::instance().leaves().size(), 90u);
  const Node doc = buildDocument();
  const CommandResult r = validate(doc);
  std::ifstream in(file_);
  std::stringstream json;
  json << in.rdbuf();
  EXPECT_EQ(r.exit_code, 0) << r.output << "\ndocument: " << json.str().substr(0, 2000);
  // Round trip: yanglint printed the document back, so every leaf was parsed
  // as data, not skipped.
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    const std::string leaf = split(row.path).back();
    EXPECT_NE(r.output.find("\"" + leaf + "\""), std::string::npos) << row.path;
  }
}

TEST_F(SchemaYangTest, AMisspelledLeafFails) {
  const std::string_view path = "/rdma/devices/device/ports/port/state/hw-counters/np-cnp-sent";
  ASSERT_NE(SchemaTable::instance().find(path), nullptr);
  const CommandResult r = validate(buildDocument({{path, "np-cnp-snet"}}));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("np-cnp-snet"), std::string::npos) << r.output;
}

TEST_F(SchemaYangTest, AMisplacedLeafFails) {
  // Right name, wrong container: counters/ instead of hw-counters/.
  Node doc = buildDocument();
  Node& port = doc.child("rdmagw-rdma:rdma").child("devices").child("device").child("")
                   .child("ports").child("port").child("");
  port.child("state").child("counters").child("np-ecn-marked-roce-packets").value = "\"1\"";
  const CommandResult r = validate(doc);
  EXPECT_NE(r.exit_code, 0) << r.output;
}

// Every leaf in the tree output of a module, as a keyless path, with its type.
std::map<std::string, std::string> yangLeaves(const std::string& module_file) {
  std::map<std::string, std::string> leaves;
  const CommandResult r = runCommand(yanglint("-f tree '" + kYangDir + "/" + module_file + "'"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::istringstream in(r.output);
  std::string line;
  std::vector<std::string> stack;
  while (std::getline(in, line)) {
    const size_t at = line.find("+--");
    if (at == std::string::npos) continue;
    const size_t depth = (at - 2) / 3;
    std::istringstream words(line.substr(at + 6));  // past "+--ro " / "+--rw "
    std::string name, type;
    words >> name >> type;
    const bool is_list = name.back() == '*';
    if (name.back() == '?' || is_list) name.pop_back();
    stack.resize(depth);
    stack.push_back(name);
    if (type.empty() || is_list) continue;  // container or list
    if (type == "->") words >> type;        // key leafref
    std::string path;
    for (const std::string& s : stack) path += "/" + s;
    leaves[path] = type;
  }
  return leaves;
}

TEST(SchemaYangReverseTest, EveryYangLeafIsARowOfTheTableWithItsKind) {
  // Key leaves and the leaves they refer to carry list keys, not data.
  const std::set<std::string> keys = {
      "/interfaces/interface/name",
      "/interfaces/interface/config/name",
      "/interfaces/interface/state/name",
      "/interfaces/interface/ethernet/pfc/priorities/priority/id",
      "/interfaces/interface/ethernet/pfc/priorities/priority/state/id",
      "/rdma/devices/device/name",
      "/rdma/devices/device/state/name",
      "/rdma/devices/device/ports/port/port-num",
      "/rdma/devices/device/ports/port/state/port-num",
      "/qos/interfaces/interface/interface-id",
      "/qos/interfaces/interface/state/interface-id",
      "/qos/interfaces/interface/output/queues/queue/name",
      "/qos/interfaces/interface/output/queues/queue/state/name",
      "/qos/network-qos/classes/class/name",
      "/qos/network-qos/classes/class/state/name",
      "/qos/type-qos/classes/class/name",
      "/qos/type-qos/classes/class/state/name",
      "/hypervisor/nics/nic/name",
      "/hypervisor/nics/nic/state/name",
      "/hypervisor/nics/nic/priorities/priority/id",
      "/hypervisor/nics/nic/priorities/priority/state/id",
      "/fabric/dcqcn/devices/device/name",
      "/fabric/dcqcn/devices/device/state/name",
      "/fabric/dcqcn/devices/device/ports/port/port-num",
      "/fabric/dcqcn/devices/device/ports/port/state/port-num",
      "/fabric/interfaces/interface/name",
      "/fabric/interfaces/interface/state/name",
      "/fabric/interfaces/interface/priorities/priority/id",
      "/fabric/interfaces/interface/priorities/priority/state/id",
      "/lldp/interfaces/interface/name",
      "/lldp/interfaces/interface/state/name",
      "/lldp/interfaces/interface/neighbors/neighbor/id",
      "/lldp/interfaces/interface/neighbors/neighbor/state/id",
  };
  size_t checked = 0;
  for (const char* module : {"rdmagw-interfaces.yang", "rdmagw-rdma.yang", "rdmagw-qos.yang",
                             "rdmagw-hypervisor-nic.yang", "rdmagw-fabric.yang", "rdmagw-lldp.yang"}) {
    for (const auto& [path, type] : yangLeaves(module)) {
      if (keys.count(path)) continue;
      const LeafSchema* row = SchemaTable::instance().find(path);
      ASSERT_NE(row, nullptr) << module << " defines " << path << " but the schema table lacks it";
      // Rates and ratios are fractional: decimal64 (the store holds doubles).
      const bool fractional = row->unit.ends_with("-per-second") && row->unit != "bits-per-second";
      const char* want = row->kind == LeafKind::kCounter ? "yang:counter64"
                         : row->kind == LeafKind::kGauge ? (fractional || row->unit == "ratio" ? "decimal64" : "uint64")
                                                         : "string";
      EXPECT_EQ(type, want) << path;
      ++checked;
    }
  }
  EXPECT_EQ(checked, SchemaTable::instance().leaves().size());
}

}  // namespace
}  // namespace rdmagw::yangtest
