// The gateway's gNMI JSON_IETF output, end to end, judged by yanglint against
// the vendored OpenConfig modules plus ours: `rdmagw-demo` (the real binary:
// simulated fabric, collectors, analytics, gNMI server) is asked by an
// independent client (python grpcio) for every top-level tree and "/" of
// each kind of target (a Nexus leaf over gNMI, the same over SSH, an RDMA
// host, an ESXi host, and the fabric verdicts every target carries), and for
// SAMPLE and ON_CHANGE updates of leaves of every encoding rule (a uint16,
// 64-bit counters, an enumeration, decimal64 rates, augment leaves, typed
// keys). Each answer is wrapped into a whole document (its path's ancestors
// with their keys, as RFC 7951 names them) and must validate as a reply
// (yanglint -t get), with no module prefix where the module does not change.
// The gateway must not have left out any value either (it logs each one that
// did not fit its YANG type).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "models/path.h"
#include "northbound/gnmi/yang_tree.h"
#include "tests/northbound/gnmi/python_client.h"
#include "tests/support/test_support.h"
#include "tests/e2e/yang/loaded_schema.h"
#include "tests/e2e/yang/yanglint_runner.h"

namespace rdmagw {
namespace {

using Json = nlohmann::ordered_json;
using northbound::gnmi::YangNode;
using northbound::gnmi::YangTree;
using northbound::gnmi::YangType;
using testing::PythonClient;
using testing::runPython;
using testing::TempDir;
using testing::LoadedSchema;

// `rdmagw-demo` in a child process, its log kept.
class Demo {
 public:
  Demo(const TempDir& tmp, const std::vector<std::string>& extra) : log_(tmp.file("demo.log")) {
    gnmi_port_ = testing::freeLoopbackPort();
    metrics_port_ = testing::freeLoopbackPort();
    std::vector<std::string> args = {RDMAGW_DEMO_BIN, "--hosts", "2", "--devices", "1", "--esxi", "1",
                                     "--switches", "1", "--interval", "1s", "--snmp", "off",
                                     "--gnmi-listen", "127.0.0.1:" + std::to_string(gnmi_port_),
                                     "--listen", "127.0.0.1:" + std::to_string(metrics_port_),
                                     "--dir", tmp.file("sim"), "--log-level", "warn"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = fork();
    if (pid_ == 0) {
      FILE* log = std::fopen(log_.c_str(), "w");
      if (log != nullptr) {
        dup2(fileno(log), 1);
        dup2(fileno(log), 2);
      }
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(RDMAGW_DEMO_BIN, argv.data());
      _exit(127);
    }
  }
  ~Demo() {
    if (pid_ <= 0) return;
    testing::interruptChild(pid_);
  }
  std::string gnmi() const { return "127.0.0.1:" + std::to_string(gnmi_port_); }
  std::string metrics() const {
    return testing::httpGet("http://127.0.0.1:" + std::to_string(metrics_port_) + "/metrics");
  }
  std::string log() const { return testing::readFile(log_); }

 private:
  std::string log_;
  int gnmi_port_ = 0, metrics_port_ = 0;
  pid_t pid_ = -1;
};

struct Answer {
  std::string target, path, value;  // value: the JSON text of one update
};

// Update lines ("U <path> <kind> <value>") after their notification's target.
std::vector<Answer> answers(const std::vector<std::string>& lines, std::string* status) {
  std::vector<Answer> out;
  std::string target;
  for (const std::string& l : lines) {
    if (l.starts_with("N ")) target = l.substr(2, l.find(' ', 2) - 2);
    if (l.starts_with("STATUS ")) *status = l;
    if (!l.starts_with("U ")) continue;
    const size_t p = l.find(' ', 2), k = l.find(' ', p + 1);
    out.push_back({target, l.substr(2, p - 2), l.substr(k + 1)});
    EXPECT_TRUE(l.substr(p + 1, k - p - 1) == "json_ietf_val" || l.substr(p + 1, k - p - 1) == "json_val") << l;
  }
  return out;
}

std::vector<Answer> get(const Demo& demo, const std::string& target, const std::string& path,
                        const std::string& encoding = "JSON_IETF") {
  std::string status;
  std::vector<Answer> out = answers(
      runPython(demo.gnmi(), R"({"rpc": "get", "target": ")" + target + R"(", "encoding": ")" + encoding +
                                 R"(", "paths": [")" + path + R"("]})"),
      &status);
  EXPECT_EQ(status, "STATUS OK") << target << " " << path;
  return out;
}

// A list key's value in RFC 7951 JSON: a number for int8..int32 and
// uint8..uint32 keys (the schema's type of the key leaf), else a string.
Json keyValue(const std::string& keyless_list, const std::string& key, const std::string& text) {
  const Path p = *Path::parse(keyless_list + "/" + key);
  const YangNode* node = YangTree::schema().find(p);
  const YangType t = node != nullptr && node->is_leaf ? node->leaf.type : YangType::kUnknown;
  const bool number = t == YangType::kInt8 || t == YangType::kInt16 || t == YangType::kInt32 ||
                      t == YangType::kUint8 || t == YangType::kUint16 || t == YangType::kUint32;
  if (number) {
    try {
      return Json::parse(text);
    } catch (const std::exception&) {
    }
  }
  return Json(text);
}

// One gNMI update as a whole RFC 7951 document: `value` (at `path`) inside
// its ancestors, named as the loaded modules define them (the module at the
// top and wherever it changes), list entries holding their keys. A value
// that is an object must qualify its first-level members (the gNMI rule for
// a value below the root); inside the document such a prefix is kept where
// the module changes and dropped where it does not, so yanglint judges the
// module the gateway wrote. "" and *error on a value that cannot be placed.
std::string wrap(const std::string& path_text, const std::string& value_text, std::string* error) {
  Json value;
  try {
    value = Json::parse(value_text);
  } catch (const std::exception& e) {
    *error = "not JSON: " + std::string(e.what());
    return "";
  }
  const Result<Path> parsed = Path::parse(path_text);
  if (!parsed.isOk()) {
    *error = "bad path " + path_text;
    return "";
  }
  const std::vector<PathElem>& elems = parsed->elems();
  if (elems.empty()) return value_text;  // "/": already a whole document
  const LoadedSchema& schema = LoadedSchema::instance();
  std::vector<std::string> keyless(elems.size()), names(elems.size());
  std::string prefix, parent_module;
  for (size_t i = 0; i < elems.size(); ++i) {
    prefix += "/" + elems[i].name;
    keyless[i] = prefix;
    const testing::SchemaNode* n = schema.find(prefix);
    if (n == nullptr) {
      *error = prefix + " is not a node of the loaded modules";
      return "";
    }
    names[i] = (i == 0 || n->module != parent_module ? n->module + ":" : "") + elems[i].name;
    parent_module = n->module;
  }
  Json inner;
  if (value.is_object()) {
    for (auto& [member, v] : value.items()) {
      const size_t colon = member.find(':');
      if (colon == std::string::npos) {
        *error = "first-level member \"" + member + "\" has no module";
        return "";
      }
      const testing::SchemaNode* n = schema.find(prefix + "/" + member.substr(colon + 1));
      const bool same = n != nullptr && n->module == parent_module && member.substr(0, colon) == n->module;
      inner[same ? member.substr(colon + 1) : member] = v;
    }
  } else {
    inner = value;
  }
  for (size_t i = elems.size(); i-- > 0;) {
    if (!elems[i].keys.empty()) {
      Json entry = Json::object();
      for (const auto& [k, v] : elems[i].keys) entry[k] = keyValue(keyless[i], k, v);
      if (inner.is_object()) {
        for (auto& [m, v] : inner.items()) entry[m] = v;
      }
      inner = Json::array({entry});
    }
    Json outer = Json::object();
    outer[names[i]] = inner;
    inner = outer;
  }
  return inner.dump();
}

// Wraps every answer, validates them with yanglint as replies, and checks
// that no member is qualified where its module does not change.
void validate(const TempDir& tmp, const std::vector<Answer>& got, const std::string& what) {
  ASSERT_FALSE(got.empty()) << what;
  ASSERT_TRUE(LoadedSchema::instance().error().empty()) << LoadedSchema::instance().error();
  std::vector<std::string> files, docs;
  std::string documents;
  size_t unwrapped = 0;
  for (const Answer& a : got) {
    std::string error;
    const std::string doc = wrap(a.path, a.value, &error);
    if (!error.empty() && ++unwrapped <= 3) {
      ADD_FAILURE() << what << ": " << a.target << " " << a.path << ": " << error << "\n" << a.value.substr(0, 1000);
    }
    if (doc.empty()) continue;
    files.push_back(tmp.file("doc-" + std::to_string(files.size()) + ".json"));
    ASSERT_TRUE(testing::writeFile(files.back(), doc));
    docs.push_back(doc);
    documents += doc + "\n";
  }
  EXPECT_EQ(unwrapped, 0u) << what << ": answers that could not be placed";
  const testing::Validation v = testing::validateJsonIetf(files);
  // yanglint stops at the first file it rejects, and names it.
  std::string rejected;
  for (size_t i = 0; i < files.size(); ++i) {
    if (v.diagnostics.find("\"" + files[i] + "\"") != std::string::npos) rejected = docs[i];
  }
  EXPECT_TRUE(v.ok()) << what << ": yanglint exit " << v.exit_code << "\n"
                      << v.diagnostics.substr(0, 3000) << "\nthe document: " << rejected.substr(0, 3000);
  if (v.ok()) {
    EXPECT_EQ(testing::nonCanonicalMemberNames(documents, v.printed), std::vector<std::string>{}) << what;
  }
}

// The top-level trees a target's Get of "/" holds (JSON, unqualified names).
std::set<std::string> topTrees(const Demo& demo, const std::string& target) {
  std::set<std::string> out;
  std::string status;
  for (const Answer& a : answers(runPython(demo.gnmi(), R"({"rpc": "get", "target": ")" + target +
                                                            R"(", "encoding": "JSON", "paths": ["/"]})"),
                                 &status)) {
    try {
      const Json tree = Json::parse(a.value);
      for (const auto& [name, v] : tree.items()) out.insert(name);
    } catch (const std::exception&) {
    }
  }
  return out;
}

// Waits until every target in `want` holds at least its trees, and leaf01
// is collected over `transport`.
bool waitForTrees(const Demo& demo, const std::map<std::string, std::set<std::string>>& want,
                  const std::string& transport, std::string* last) {
  return testing::waitUntil(
      [&] {
        const std::string info = "rdmagw_target_info{target=\"leaf01\",kind=\"nexus\",transport=\"" + transport + "\"";
        if (demo.metrics().find(info) == std::string::npos) {
          *last = "leaf01 not on " + transport;
          return false;
        }
        for (const auto& [target, trees] : want) {
          const std::set<std::string> have = topTrees(demo, target);
          for (const std::string& t : trees) {
            if (!have.count(t)) {
              *last = target + " has no /" + t + " yet";
              return false;
            }
          }
        }
        return true;
      },
      testing::kEventWait, std::chrono::milliseconds(500));
}

const std::map<std::string, std::set<std::string>> kSwitchTrees = {
    {"leaf01", {"interfaces", "qos", "lldp", "fabric"}}};
const std::map<std::string, std::set<std::string>> kAllTrees = {
    {"leaf01", {"interfaces", "qos", "lldp", "fabric"}},
    {"host01", {"interfaces", "rdma", "fabric"}},
    {"esx01", {"hypervisor", "fabric"}}};

// Gets "/" and every top-level tree of each target, and the containers below
// list entries where augments start (their first-level members are the
// augmenting modules'), then validates every answer.
void getAndValidate(const Demo& demo, const TempDir& tmp, const std::map<std::string, std::set<std::string>>& want) {
  for (const auto& [target, trees] : want) {
    std::vector<Answer> got = get(demo, target, "/");
    for (const std::string& tree : topTrees(demo, target)) {
      for (Answer& a : get(demo, target, "/" + tree)) got.push_back(std::move(a));
    }
    const std::vector<std::string> deeper = {"/interfaces/interface", "/interfaces/interface/ethernet",
                                             "/interfaces/interface/ethernet/pfc", "/qos/network-qos",
                                             "/rdma/devices/device/ports/port", "/fabric/interfaces/interface"};
    for (const std::string& path : deeper) {
      if (!trees.count(path.substr(1, path.find('/', 1) - 1))) continue;
      for (Answer& a : get(demo, target, path)) got.push_back(std::move(a));
    }
    validate(tmp, got, "Get on " + target);
  }
}

// Subscribes (STREAM) to `paths` on `target` in `mode`, reads the initial
// sync and `after_sync` updates more, and returns every update.
std::vector<Answer> subscribe(const Demo& demo, const std::string& target, const std::vector<std::string>& paths,
                              const std::string& mode, size_t after_sync) {
  std::string subs;
  for (const std::string& p : paths) {
    subs += std::string(subs.empty() ? "" : ",") + R"({"path": ")" + p + R"(", "mode": ")" + mode +
            R"(", "sample_ms": 1000})";
  }
  PythonClient client(demo.gnmi(), R"({"rpc": "sub", "mode": "STREAM", "encoding": "JSON_IETF", "timeout": 60, "target": ")" +
                                       target + R"(", "subs": [)" + subs + "]}");
  std::vector<std::string> lines = client.until("SYNC");
  EXPECT_TRUE(!lines.empty() && lines.back() == "SYNC") << target << " " << mode;
  size_t more = 0;
  while (more < after_sync) {
    const std::string l = client.next();
    if (l.empty() || l.starts_with("STATUS")) break;
    lines.push_back(l);
    if (l.starts_with("U ")) ++more;
  }
  EXPECT_GE(more, after_sync) << target << " " << mode << ": updates after the sync";
  std::string status;
  return answers(lines, &status);
}

// Leaves of every encoding rule, per target; each must send updates unless
// optional (a leaf not every source of that target gives).
struct Subscribed {
  std::string path;
  bool optional = false;
};
const std::map<std::string, std::vector<Subscribed>> kSubscribed = {
    {"leaf01",
     {{"/interfaces/interface/state/mtu"},                                          // uint16
      {"/interfaces/interface/state/counters/in-octets"},                            // uint64
      {"/interfaces/interface/state/oper-status"},                                   // enumeration
      {"/interfaces/interface/state/admin-status"},                                  // enumeration
      {"/interfaces/interface/state/speed"},                                         // uint64, our augment
      {"/interfaces/interface/ethernet/state/port-speed"},                           // identityref
      {"/interfaces/interface/ethernet/state/counters/in-mac-pause-frames"},         // OpenConfig augment
      {"/interfaces/interface/ethernet/pfc/state/enabled-priorities"},               // our augment
      {"/interfaces/interface/ethernet/pfc/priorities/priority/state/counters/out-pause-frames"},  // typed key
      {"/qos/network-qos/classes/class/state/mtu"},                                  // our qos augment
      {"/lldp/interfaces/interface/neighbors/neighbor/state/port-id-type"},          // enumeration
      {"/fabric/interfaces/interface/dcb/state/consistency"}}},                      // a verdict
    {"host01",
     {{"/interfaces/interface/state/mtu"},
      {"/interfaces/interface/state/oper-status"},
      {"/interfaces/interface/state/admin-status"},
      {"/interfaces/interface/state/speed"},
      {"/interfaces/interface/ethernet/state/port-speed"},
      {"/rdma/devices/device/ports/port/state/rate"},
      {"/rdma/devices/device/ports/port/state/counters/port-xmit-octets"},
      {"/fabric/dcqcn/devices/device/ports/port/state/cnp-handled-rate"},            // decimal64
      {"/fabric/interfaces/interface/priorities/priority/state/paused-ratio"}}},
    {"esx01", {{"/hypervisor/nics/nic/state"}, {"/fabric/interfaces/interface/link/state/peer-target"}}},
};

void subscribeAndValidate(const Demo& demo, const TempDir& tmp, const std::vector<std::string>& targets) {
  for (const std::string& target : targets) {
    std::vector<std::string> paths;
    for (const Subscribed& s : kSubscribed.at(target)) paths.push_back(s.path);
    for (const std::string mode : {"SAMPLE", "ON_CHANGE"}) {
      const std::vector<Answer> got = subscribe(demo, target, paths, mode, 3);
      for (const Subscribed& s : kSubscribed.at(target)) {
        const std::string want = Path::parse(s.path)->keylessString();
        bool seen = false;
        for (const Answer& a : got) seen = seen || Path::parse(a.path)->keylessString().starts_with(want);
        EXPECT_TRUE(seen || s.optional) << target << " " << mode << ": no update of " << s.path;
      }
      validate(tmp, got, mode + " on " + target);
    }
  }
}

void expectNothingLeftOut(const Demo& demo) {
  const std::string log = demo.log();
  EXPECT_EQ(log.find("does not fit its YANG type"), std::string::npos) << log.substr(0, 4000);
}

class JsonIetfValidationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "the simulated switches' and ESXi hosts' sshd needs root";
    std::string error;
    ASSERT_TRUE(testing::preparePythonClient(&error)) << error;
  }
};

TEST_F(JsonIetfValidationTest, GetAndUpdatesOfNexusOverGnmiRdmaHostEsxiAndVerdictsValidate) {
  TempDir tmp("rdmagw-json-ietf");
  Demo demo(tmp, {"--gnmi", "on"});
  std::string last;
  ASSERT_TRUE(waitForTrees(demo, kAllTrees, "gnmi", &last)) << last << "\n" << demo.log().substr(0, 3000);
  getAndValidate(demo, tmp, kAllTrees);
  subscribeAndValidate(demo, tmp, {"leaf01", "host01", "esx01"});
  expectNothingLeftOut(demo);
}

TEST_F(JsonIetfValidationTest, GetAndUpdatesOfNexusOverSshValidate) {
  TempDir tmp("rdmagw-json-ietf-ssh");
  Demo demo(tmp, {"--gnmi", "off"});
  std::string last;
  ASSERT_TRUE(waitForTrees(demo, kSwitchTrees, "ssh", &last)) << last << "\n" << demo.log().substr(0, 3000);
  getAndValidate(demo, tmp, kSwitchTrees);
  subscribeAndValidate(demo, tmp, {"leaf01"});
  expectNothingLeftOut(demo);
}

// The wrapper itself: it places a value as RFC 7951 names it, and refuses a
// value below the root whose first-level members carry no module.
TEST(JsonIetfWrapTest, PlacesAValueInsideItsAncestors) {
  std::string error;
  EXPECT_EQ(wrap("/interfaces/interface[name=Ethernet1/1]/ethernet",
                 R"({"openconfig-if-ethernet:state":{"port-speed":"openconfig-if-ethernet:SPEED_100GB"},"rdmagw-interfaces:pfc":{}})",
                 &error),
            R"({"openconfig-interfaces:interfaces":{"interface":[{"name":"Ethernet1/1","openconfig-if-ethernet:ethernet":)"
            R"({"state":{"port-speed":"openconfig-if-ethernet:SPEED_100GB"},"rdmagw-interfaces:pfc":{}}}]}})");
  EXPECT_EQ(error, "");
  EXPECT_EQ(wrap("/interfaces/interface[name=e]/state/mtu", "9216", &error),
            R"({"openconfig-interfaces:interfaces":{"interface":[{"name":"e","state":{"mtu":9216}}]}})");
  EXPECT_EQ(wrap("/interfaces/interface[name=e]/state", R"({"mtu":9216})", &error), "");
  EXPECT_EQ(error, "first-level member \"mtu\" has no module");
}

}  // namespace
}  // namespace rdmagw
