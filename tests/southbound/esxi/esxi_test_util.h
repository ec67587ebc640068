#pragma once
// Helpers of the ESXi parser tests: fixtures, update lookup, schema check.

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "models/path.h"
#include "models/schema.h"
#include "models/update.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {

inline std::string readEsxiFixture(const std::string& name) {
  std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/esxi/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Short names for the tests/support update lookups.
inline const Update* find(const PollBatch& b, const std::string& path) {
  return testing::findUpdate(b, path);
}
inline std::optional<uint64_t> u64(const PollBatch& b, const std::string& path) {
  return testing::u64At(b, path);
}
inline std::optional<std::string> str(const PollBatch& b, const std::string& path) {
  return testing::strAt(b, path);
}

inline std::string nic(const std::string& name) {
  return "/hypervisor/nics/nic[name=" + name + "]/state/";
}
inline std::string prio(const std::string& name, int p) {
  return "/hypervisor/nics/nic[name=" + name + "]/priorities/priority[id=" + std::to_string(p) +
         "]/state/counters/";
}

// Every update parses as a path; those outside driver-private/ have a schema
// row of the right kind and every key the row's labels name.
inline void expectSchemaRows(const PollBatch& b) {
  for (const Update& u : b.updates) {
    Result<Path> p = Path::parse(u.path);
    ASSERT_TRUE(p.isOk()) << u.path;
    if (u.path.find("/driver-private/") != std::string::npos) continue;
    const LeafSchema* row = SchemaTable::instance().find(p.value().keylessString());
    ASSERT_NE(row, nullptr) << u.path;
    EXPECT_EQ(row->kind == LeafKind::kString, std::holds_alternative<std::string>(u.value))
        << u.path;
    size_t keys = 0;
    for (const PathElem& e : p.value().elems()) keys += e.keys.size();
    EXPECT_EQ(keys, SchemaTable::splitLabels(row->labels).size()) << u.path;
  }
}

inline bool anyError(const PollBatch& b, const std::string& needle) {
  for (const std::string& e : b.errors) {
    if (e.find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace rdmagw::testing
