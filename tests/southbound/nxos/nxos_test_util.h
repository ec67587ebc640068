#pragma once
// Helpers of the NX-OS parser tests: fixtures, lookups, schema checks.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "models/path.h"
#include "models/schema.h"
#include "models/update.h"
#include "southbound/nxos/nxos_formats.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound;  // the helpers speak the vocabulary of the code they test
using namespace rdmagw::southbound::nxos;

inline constexpr TimestampNs kTs = 1700000000000000000;

inline std::string fixtureDir() { return std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/nxos/"; }

inline std::string readFixture(const std::string& name) {
  std::ifstream in(fixtureDir() + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every NX-OS fixture file (not SOURCES.md).
inline std::vector<std::string> allFixtures() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(fixtureDir())) {
    std::string name = e.path().filename().string();
    if (name != "SOURCES.md") out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline const ParserFormat* format(std::string_view name) {
  for (const ParserFormat& f : nxosParserFormats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

struct Parsed {
  Status status;
  PollBatch batch;
};

inline Parsed parse(std::string_view fmt, std::string_view text) {
  Parsed p;
  const ParserFormat* f = format(fmt);
  EXPECT_NE(f, nullptr) << fmt;
  if (f != nullptr) p.status = f->parse(text, kTs, p.batch);
  return p;
}

// Update lookups shared with the other test folders.
using testing::findUpdate;
using testing::strAt;
using testing::u64At;

// Empty when the path parses, round-trips, names a schema row and carries as
// many keys as the row has labels; else why not.
inline std::string schemaProblem(const std::string& path) {
  Result<Path> p = Path::parse(path);
  if (!p.isOk()) return "unparsable path " + path;
  if (p->toString() != path) return "path does not round-trip: " + path;
  const LeafSchema* row = SchemaTable::instance().find(p->keylessString());
  if (row == nullptr) return "no schema row for " + path;
  size_t keys = 0;
  for (const PathElem& e : p->elems()) keys += e.keys.size();
  if (keys != SchemaTable::splitLabels(row->labels).size()) return "key count mismatch: " + path;
  return "";
}

inline std::string ifc(const std::string& name, const std::string& leaf) {
  return "/interfaces/interface[name=" + name + "]/state/counters/" + leaf;
}
inline std::string eth(const std::string& name, const std::string& leaf) {
  return "/interfaces/interface[name=" + name + "]/ethernet/state/counters/" + leaf;
}
inline std::string pfcState(const std::string& name, const std::string& leaf) {
  return "/interfaces/interface[name=" + name + "]/ethernet/pfc/state/" + leaf;
}
inline std::string pfcCtr(const std::string& name, const std::string& leaf) {
  return "/interfaces/interface[name=" + name + "]/ethernet/pfc/state/counters/" + leaf;
}
inline std::string prio(const std::string& name, int p, const std::string& leaf) {
  return "/interfaces/interface[name=" + name + "]/ethernet/pfc/priorities/priority[id=" +
         std::to_string(p) + "]/state/counters/" + leaf;
}
inline std::string queue(const std::string& name, const std::string& q, const std::string& leaf) {
  return "/qos/interfaces/interface[interface-id=" + name + "]/output/queues/queue[name=" + q +
         "]/state/" + leaf;
}
inline std::string qosIn(const std::string& name) {
  return "/qos/interfaces/interface[interface-id=" + name + "]/input/state/dropped-pkts";
}

inline bool anyErrorContains(const PollBatch& b, std::string_view needle) {
  for (const std::string& e : b.errors) {
    if (e.find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace rdmagw::testing
