#pragma once
// Shared helpers of the rdma tests: fixture loading, a temp directory tree,
// keyless paths, error lookup (update lookup: tests/support).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "models/path.h"
#include "models/update.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {

inline std::string fixturePath(const std::string& name) {
  return std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/rdma/" + name;
}

inline std::string readFixture(const std::string& name) {
  std::ifstream in(fixturePath(name), std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A scratch directory (tests/support TempDir) removed with the object, with
// helpers to lay out a tree in it.
class TempTree {
 public:
  TempTree() = default;
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::string& root() const { return dir_.path(); }
  std::string path(const std::string& rel) const { return dir_.file(rel); }

  void write(const std::string& rel, const std::string& content) {
    std::filesystem::path p = path(rel);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
  }
  void mkdir(const std::string& rel) { std::filesystem::create_directories(path(rel)); }

 private:
  testing::TempDir dir_{"rdmagw-rdma"};
};

inline std::string keyless(const std::string& path) {
  Result<Path> p = Path::parse(path);
  EXPECT_TRUE(p.isOk()) << path;
  return p.isOk() ? p.value().keylessString() : std::string();
}

inline bool anyErrorContains(const PollBatch& b, const std::string& needle) {
  for (const std::string& e : b.errors) {
    if (e.find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace rdmagw::testing
