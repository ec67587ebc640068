// Hand-written RFC 7951 (gNMI JSON_IETF) documents, one per tree the gateway
// serves (tests/e2e/yang/data/), validate with yanglint against OpenConfig's
// modules and ours; the wrong ones in data/invalid/ are rejected, each for
// its own reason. The documents hold state only, as the gateway serves it:
// a reply (yanglint -t get). Merged with the configuration and mandatory
// state OpenConfig requires of a complete datastore (openconfig-required.json),
// they also validate as one (yanglint -t data), which checks every leafref,
// when and mandatory node as well; tests/e2e/yang/README.md says why a reply is
// checked as a reply.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/e2e/yang/yanglint_runner.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;

const std::string kDataDir = std::string(RDMAGW_SOURCE_DIR) + "/tests/e2e/yang/data";

std::string doc(const std::string& name) { return kDataDir + "/" + name; }

// Each document and the top-level member it holds.
const std::map<std::string, std::string> kDocuments = {
    {"interfaces.json", "openconfig-interfaces:interfaces"},
    {"qos.json", "openconfig-qos:qos"},
    {"lldp.json", "openconfig-lldp:lldp"},
    {"rdma.json", "rdmagw-rdma:rdma"},
    {"hypervisor.json", "rdmagw-hypervisor-nic:hypervisor"},
    {"fabric.json", "rdmagw-fabric:fabric"},
};

using Document = std::pair<std::string, std::string>;
class EachDocumentTest : public ::testing::TestWithParam<Document> {};

TEST_P(EachDocumentTest, IsAValidReply) {
  const auto& [file, top] = GetParam();
  const Validation v = validateJsonIetf({doc(file)}, DataKind::kReply);
  EXPECT_TRUE(v.ok()) << v.diagnostics;
  // Printed back: the tree was parsed, not skipped, and every member is
  // named as RFC 7951 names it (no prefix where the module does not change).
  EXPECT_NE(v.printed.find("\"" + top + "\""), std::string::npos) << v.printed;
  EXPECT_EQ(nonCanonicalMemberNames(testing::readFile(doc(file)), v.printed),
            std::vector<std::string>{});
}

TEST(JsonIetfDataTest, ARedundantModulePrefixIsFound) {
  // yanglint accepts it; nonCanonicalMemberNames() does not.
  testing::TempDir tmp("rdmagw-json-ietf");
  std::string json = testing::readFile(doc("interfaces.json"));
  const std::string plain = "\"admin-mode\":";
  ASSERT_NE(json.find(plain), std::string::npos);
  json.replace(json.find(plain), plain.size(), "\"rdmagw-interfaces:admin-mode\":");
  ASSERT_TRUE(testing::writeFile(tmp.file("redundant.json"), json));
  const Validation v = validateJsonIetf({tmp.file("redundant.json")}, DataKind::kReply);
  EXPECT_TRUE(v.ok()) << v.diagnostics;
  EXPECT_EQ(nonCanonicalMemberNames(json, v.printed),
            std::vector<std::string>{"rdmagw-interfaces:admin-mode"});
}

INSTANTIATE_TEST_SUITE_P(Documents, EachDocumentTest,
                         ::testing::ValuesIn(std::vector<Document>(kDocuments.begin(), kDocuments.end())),
                         [](const auto& info) { return fs::path(info.param.first).stem().string(); });

TEST(JsonIetfDataTest, EveryDocumentInTheDirectoryIsTested) {
  for (const auto& e : fs::directory_iterator(kDataDir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name != "openconfig-required.json") {
      EXPECT_TRUE(kDocuments.count(name)) << name;
    }
  }
}

TEST(JsonIetfDataTest, OurOwnTreesAreValidDatastoresByThemselves) {
  // Their list keys refer to state leaves, which the documents hold.
  for (const char* name : {"rdma.json", "hypervisor.json", "fabric.json"}) {
    const Validation v = validateJsonIetf({doc(name)}, DataKind::kDatastore);
    EXPECT_TRUE(v.ok()) << name << ": " << v.diagnostics;
  }
}

TEST(JsonIetfDataTest, WithWhatOpenconfigRequiresTheDocumentsAreOneValidDatastore) {
  std::vector<std::string> files;
  for (const auto& [file, top] : kDocuments) files.push_back(doc(file));
  files.push_back(doc("openconfig-required.json"));
  const Validation v = validateJsonIetf(files, DataKind::kDatastore);
  EXPECT_TRUE(v.ok()) << v.diagnostics;
}

TEST(JsonIetfDataTest, StateOnlyOpenconfigIsNoCompleteDatastore) {
  // Why a reply is checked as a reply: OpenConfig keys its lists by a
  // leafref to config/name, which state-only data lacks; so does the LLDP
  // interface's reference to /interfaces. Also guards that the kinds differ.
  const Validation qos = validateJsonIetf({doc("qos.json")}, DataKind::kDatastore);
  EXPECT_FALSE(qos.ok());
  EXPECT_NE(qos.diagnostics.find("no target instance \"../config/name\""), std::string::npos)
      << qos.diagnostics;
  const Validation lldp = validateJsonIetf({doc("lldp.json")}, DataKind::kDatastore);
  EXPECT_FALSE(lldp.ok());
  EXPECT_NE(lldp.diagnostics.find("/oc-if:interfaces/oc-if:interface/oc-if:name"),
            std::string::npos)
      << lldp.diagnostics;
}

// Each wrong document and what yanglint must say about it.
const std::map<std::string, std::string> kInvalid = {
    // rdmagw-interfaces:pfc written as "pfc" inside OpenConfig's ethernet.
    {"interfaces-unqualified-pfc.json", "Node \"pfc\" not found as a child of \"ethernet\""},
    // rdmagw-interfaces' speed written as "speed" inside OpenConfig's state.
    {"interfaces-unqualified-speed.json", "Node \"speed\" not found as a child of \"state\""},
    // OpenConfig's state/mtu is a uint16: a JSON number, not a string.
    {"interfaces-mtu-as-string.json", "Invalid non-number-encoded uint16 value \"9216\""},
};

TEST(JsonIetfDataTest, EveryInvalidDocumentIsTested) {
  for (const auto& e : fs::directory_iterator(kDataDir + "/invalid")) {
    EXPECT_TRUE(kInvalid.count(e.path().filename().string())) << e.path();
  }
}

TEST(JsonIetfDataTest, InvalidDocumentsAreRejectedForTheirFault) {
  for (const auto& [file, reason] : kInvalid) {
    const Validation v = validateJsonIetf({doc("invalid/" + file)}, DataKind::kReply);
    EXPECT_FALSE(v.ok()) << file;
    EXPECT_NE(v.diagnostics.find(reason), std::string::npos) << file << ": " << v.diagnostics;
  }
}

}  // namespace
}  // namespace rdmagw::testing
