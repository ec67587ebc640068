// Keeps the gateway's schema (models/) and the YANG modules in step, with our
// modules loaded beside the OpenConfig ones they augment:
// - every schema leaf is a leaf of the loaded schema, owned by OpenConfig or
//   by the rdmagw module its tree belongs to, with a type that fits its kind;
// - an RFC 7951 document holding every schema leaf (sample keys and values,
//   names qualified wherever the module changes) validates with yanglint;
// - every leaf our modules define is a schema leaf.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/schema.h"
#include "tests/e2e/yang/loaded_schema.h"
#include "tests/e2e/yang/yanglint_runner.h"

namespace rdmagw::testing {
namespace {

const LoadedSchema& loaded() {
  const LoadedSchema& s = LoadedSchema::instance();
  EXPECT_EQ(s.error(), "");
  return s;
}

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

std::string parentOf(const std::string& path) { return path.substr(0, path.rfind('/')); }

// The top-level tree each rdmagw module serves or augments: a leaf under it
// that OpenConfig does not define must be this module's.
const std::map<std::string, std::string> kOurModuleOf = {
    {"interfaces", "rdmagw-interfaces"}, {"qos", "rdmagw-qos"},
    {"lldp", "rdmagw-lldp"},             {"rdma", "rdmagw-rdma"},
    {"hypervisor", "rdmagw-hypervisor-nic"}, {"fabric", "rdmagw-fabric"},
    {"gpus", "rdmagw-gpu"},
};

bool isOpenconfig(const std::string& module) { return module.starts_with("openconfig-"); }

// RFC 7951 encodings of a sample value, by YANG type: 64-bit integers and
// decimal64 are strings, smaller integers numbers. Leaves whose type is an
// enumeration, an identity or a typedef (OpenConfig's) need a sample that is
// one of its values, by path.
const std::map<std::string, std::string> kSamplesByPath = {
    {"/interfaces/interface/state/oper-status", "\"UP\""},
    {"/interfaces/interface/state/admin-status", "\"UP\""},
    {"/interfaces/interface/ethernet/state/port-speed", "\"openconfig-if-ethernet:SPEED_100GB\""},
    {"/interfaces/interface/ethernet/state/negotiated-port-speed",
     "\"openconfig-if-ethernet:SPEED_100GB\""},
    {"/lldp/interfaces/interface/neighbors/neighbor/state/port-id-type", "\"INTERFACE_NAME\""},
    // oc-if:base-interface-ref, a reference to an interface name.
    {"/lldp/interfaces/interface/config/name", "\"Ethernet1/1\""},
};

std::string sampleValue(const std::string& path, const SchemaNode& leaf) {
  if (auto it = kSamplesByPath.find(path); it != kSamplesByPath.end()) return it->second;
  const std::string& t = leaf.type;
  if (t.ends_with("counter64")) return "\"18446744073709551615\"";
  if (t == "uint64" || t == "int64") return "\"4\"";
  if (t == "decimal64") return "\"0.5\"";  // the ratios' range is 0..1
  if (t == "uint8" || t == "uint16" || t == "uint32" || t == "int8" || t == "int16" ||
      t == "int32") {
    return "4";
  }
  if (t == "string") return "\"sample value\"";
  ADD_FAILURE() << path << ": no sample value for YANG type " << t << " (add one to kSamplesByPath)";
  return "null";
}

// A JSON object tree; a list holds exactly one entry.
struct Node {
  std::map<std::string, Node> children;  // by RFC 7951 member name
  std::string value;                     // JSON-encoded, for leaves
  bool is_list = false;
};

// Builds the instance document from the schema's leaves. `rename` maps a
// row path to the leaf name to write instead (to prove misspellings fail).
Node buildDocument(const std::map<std::string_view, std::string>& rename = {}) {
  const LoadedSchema& schema = loaded();
  Node root;
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    const std::string qualified = schema.qualifiedPath(std::string(row.path));
    EXPECT_NE(qualified, "") << row.path << " is not a node of the loaded schema";
    if (qualified.empty()) continue;
    const std::vector<std::string> segs = split(row.path);
    const std::vector<std::string> names = split(qualified);  // member names
    Node* n = &root;
    std::string path;
    for (size_t i = 0; i < segs.size(); ++i) {
      path += "/" + segs[i];
      std::string name = names[i];
      if (i + 1 == segs.size()) {
        if (auto r = rename.find(row.path); r != rename.end()) name = r->second;
        n->children[name].value = sampleValue(std::string(row.path), *schema.find(path));
        break;
      }
      n = &n->children[name];
      if (!schema.find(path)->is_list) continue;
      // The list's one entry (child ""), with its key and the leaf it refers to.
      n->is_list = true;
      n = &n->children[""];
      for (const auto& [kpath, knode] : schema.nodes()) {
        if (!knode.is_key || parentOf(kpath) != path) continue;
        // The key refers to ../state/<key> or ../config/<key>: both get the value.
        const std::string key = kpath.substr(path.size() + 1);
        EXPECT_TRUE(knode.key_target.starts_with("../")) << kpath << " -> " << knode.key_target;
        const std::string target_path = path + "/" + knode.key_target.substr(3);
        const SchemaNode* target_node = schema.find(target_path);
        EXPECT_NE(target_node, nullptr) << kpath << " -> " << knode.key_target;
        if (target_node == nullptr) continue;
        const std::string sample = sampleValue(target_path, *target_node);
        n->children[key].value = sample;
        Node* target = n;
        for (const std::string& s : split(knode.key_target.substr(3))) target = &target->children[s];
        target->value = sample;
      }
    }
  }
  return root;
}

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
  Validation validate(const Node& doc) {
    std::ostringstream json;
    writeJson(doc, json);
    document_ = json.str();
    const std::string file = tmp_.file("schema.json");
    EXPECT_TRUE(testing::writeFile(file, document_));
    // A partial operational tree, as the gateway serves it (state only).
    return validateJsonIetf({file}, DataKind::kReply);
  }

  testing::TempDir tmp_{"rdmagw-schema-yang"};
  std::string document_;
};

TEST(SchemaYangOwnershipTest, EverySchemaLeafIsALeafOfTheLoadedSchema) {
  const LoadedSchema& schema = loaded();
  ASSERT_GT(SchemaTable::instance().leaves().size(), 90u);
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    const std::string path(row.path);
    const SchemaNode* leaf = schema.find(path);
    ASSERT_NE(leaf, nullptr) << path << " is no node of OpenConfig's modules or ours";
    EXPECT_TRUE(leaf->is_leaf) << path;
    const std::string top = split(path).front();
    ASSERT_TRUE(kOurModuleOf.count(top)) << path;
    // OpenConfig's where it defines the leaf, else the module of the tree.
    if (!isOpenconfig(leaf->module)) {
      EXPECT_EQ(leaf->module, kOurModuleOf.at(top)) << path;
    }
    // Counters are 64-bit monotonic in the model: a counter leaf must be a
    // counter64 in YANG, whoever defines it, and nothing else may be.
    EXPECT_EQ(row.kind == LeafKind::kCounter, leaf->type.ends_with("counter64"))
        << path << " is " << leaf->type;
  }
}

TEST(SchemaYangOwnershipTest, QualifiedPathsNameTheModuleAtEveryChange) {
  const LoadedSchema& schema = loaded();
  // One path per kind of module change the served tree has.
  EXPECT_EQ(schema.qualifiedPath("/interfaces/interface/state/mtu"),
            "/openconfig-interfaces:interfaces/interface/state/mtu");
  EXPECT_EQ(schema.qualifiedPath("/interfaces/interface/ethernet/state/counters/in-mac-pause-frames"),
            "/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/state/"
            "counters/in-mac-pause-frames");
  EXPECT_EQ(schema.qualifiedPath("/interfaces/interface/ethernet/state/counters/in-alignment-errors"),
            "/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/state/"
            "counters/rdmagw-interfaces:in-alignment-errors");
  EXPECT_EQ(schema.qualifiedPath(
                "/interfaces/interface/ethernet/pfc/priorities/priority/state/counters/in-pause-frames"),
            "/openconfig-interfaces:interfaces/interface/openconfig-if-ethernet:ethernet/"
            "rdmagw-interfaces:pfc/priorities/priority/state/counters/in-pause-frames");
  EXPECT_EQ(schema.qualifiedPath("/qos/interfaces/interface/input/state/dropped-pkts"),
            "/openconfig-qos:qos/interfaces/interface/input/state/rdmagw-qos:dropped-pkts");
  EXPECT_EQ(schema.qualifiedPath("/qos/interfaces/interface/output/queues/queue/state/ecn-marked-pkts"),
            "/openconfig-qos:qos/interfaces/interface/output/queues/queue/state/ecn-marked-pkts");
  EXPECT_EQ(schema.qualifiedPath("/qos/network-qos/classes/class/state/mtu"),
            "/openconfig-qos:qos/rdmagw-qos:network-qos/classes/class/state/mtu");
  EXPECT_EQ(schema.qualifiedPath("/lldp/interfaces/interface/neighbors/neighbor/state/port-id"),
            "/openconfig-lldp:lldp/interfaces/interface/neighbors/neighbor/state/port-id");
  EXPECT_EQ(schema.qualifiedPath("/rdma/devices/device/ports/port/state/hw-counters/np-cnp-sent"),
            "/rdmagw-rdma:rdma/devices/device/ports/port/state/hw-counters/np-cnp-sent");
  EXPECT_EQ(schema.qualifiedPath("/interfaces/interface/no-such-leaf"), "");
}

TEST(SchemaYangOwnershipTest, OurModulesRestateNoOpenconfigLeaf) {
  // An rdmagw leaf that has the name of an OpenConfig leaf of the same
  // container is a copy creeping back (it would also make two members of
  // the same name, told apart only by their prefixes).
  const LoadedSchema& schema = loaded();
  std::map<std::string, std::set<std::string>> openconfig_names;  // container -> leaf names
  for (const auto& [path, node] : schema.nodes()) {
    if (node.is_leaf && isOpenconfig(node.module)) {
      openconfig_names[parentOf(path)].insert(path.substr(path.rfind('/') + 1));
    }
  }
  for (const auto& [path, node] : schema.nodes()) {
    if (!node.is_leaf || !node.module.starts_with("rdmagw-")) continue;
    EXPECT_FALSE(openconfig_names[parentOf(path)].count(path.substr(path.rfind('/') + 1)))
        << node.module << " restates " << path;
  }
}

TEST_F(SchemaYangTest, EveryLeafRowValidatesAgainstTheModules) {
  const Validation v = validate(buildDocument());
  EXPECT_TRUE(v.ok()) << v.diagnostics << "\ndocument: " << document_.substr(0, 3000);
  EXPECT_EQ(nonCanonicalMemberNames(document_, v.printed), std::vector<std::string>{});
  // yanglint printed the document back: every leaf was parsed as data, and
  // named as RFC 7951 names it (qualified where its module changes).
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    const std::string member = split(loaded().qualifiedPath(std::string(row.path))).back();
    EXPECT_NE(v.printed.find("\"" + member + "\":"), std::string::npos) << row.path;
  }
}

TEST_F(SchemaYangTest, AMisspelledLeafFails) {
  const std::string_view path = "/rdma/devices/device/ports/port/state/hw-counters/np-cnp-sent";
  ASSERT_NE(SchemaTable::instance().find(path), nullptr);
  const Validation v = validate(buildDocument({{path, "np-cnp-snet"}}));
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.diagnostics.find("np-cnp-snet"), std::string::npos) << v.diagnostics;
}

TEST_F(SchemaYangTest, AnAugmentLeafWithoutItsModuleFails) {
  // in-alignment-errors is rdmagw-interfaces' inside OpenConfig's counters:
  // without its module name it is not found.
  const std::string_view path = "/interfaces/interface/ethernet/state/counters/in-alignment-errors";
  ASSERT_NE(SchemaTable::instance().find(path), nullptr);
  const Validation v = validate(buildDocument({{path, "in-alignment-errors"}}));
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.diagnostics.find("\"in-alignment-errors\" not found"), std::string::npos)
      << v.diagnostics;
}

TEST_F(SchemaYangTest, AMisplacedLeafFails) {
  // Right name, wrong container: counters/ instead of hw-counters/.
  Node doc = buildDocument();
  Node& port = doc.children["rdmagw-rdma:rdma"].children["devices"].children["device"]
                   .children[""].children["ports"].children["port"].children[""];
  port.children["state"].children["counters"].children["np-ecn-marked-roce-packets"].value = "\"1\"";
  const Validation v = validate(doc);
  EXPECT_FALSE(v.ok()) << v.diagnostics;
}

// Gauges of ours that YANG types narrower than uint64 (the store holds every
// integer as 64 bits), each to match the OpenConfig leaf it stands beside.
const std::map<std::string, std::string> kNarrowGauges = {
    // A vmnic's IF-MIB row, as openconfig-interfaces' state/mtu (uint16).
    {"/hypervisor/nics/nic/state/mtu", "uint16"},
    // The kubelet answered: 0 or 1.
    {"/rdma/kubernetes/state/podresources-up", "uint8"},
    // NVML's temperature is signed (unsigned int in NVML, int in nvidia-smi's CSV).
    {"/gpus/gpu/state/temperature", "int32"},
};

TEST(SchemaYangReverseTest, EveryLeafOfOurModulesIsARowOfTheTableWithItsKind) {
  const LoadedSchema& schema = loaded();
  // Keys, and the leaves they refer to, carry list keys, not data.
  std::set<std::string> keys;
  for (const auto& [path, node] : schema.nodes()) {
    if (!node.is_key) continue;
    keys.insert(path);
    if (node.key_target.starts_with("../")) keys.insert(parentOf(path) + "/" + node.key_target.substr(3));
  }
  size_t checked = 0, ours = 0;
  for (const auto& [path, node] : schema.nodes()) {
    if (!node.is_leaf || !node.module.starts_with("rdmagw-") || keys.count(path)) continue;
    const LeafSchema* row = SchemaTable::instance().find(path);
    ASSERT_NE(row, nullptr) << node.module << " defines " << path
                            << " but the schema table lacks it";
    // Rates and ratios are fractional: decimal64 (the store holds doubles).
    const bool fractional = row->unit.ends_with("-per-second") && row->unit != "bits-per-second";
    std::string want = row->kind == LeafKind::kCounter ? "yang:counter64"
                       : row->kind == LeafKind::kGauge
                           ? (fractional || row->unit == "ratio" ? "decimal64" : "uint64")
                           : "string";
    if (auto narrow = kNarrowGauges.find(path); narrow != kNarrowGauges.end()) {
      EXPECT_EQ(row->kind, LeafKind::kGauge) << path;
      want = narrow->second;
    }
    EXPECT_EQ(node.type, want) << path;
    ++checked;
  }
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    if (!isOpenconfig(loaded().ownerOf(std::string(row.path)))) ++ours;
  }
  EXPECT_EQ(checked, ours);
}

}  // namespace
}  // namespace rdmagw::testing
