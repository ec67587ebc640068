#pragma once
// Shared helpers of the rdma tests: fixture loading, a temp directory tree,
// update lookup.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "models/path.h"
#include "models/update.h"

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

// A scratch directory removed with the object.
class TempTree {
 public:
  TempTree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rdmagw-rdma-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::string& root() const { return root_; }
  std::string path(const std::string& rel) const { return root_ + "/" + rel; }

  void write(const std::string& rel, const std::string& content) {
    std::filesystem::path p = path(rel);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
  }
  void mkdir(const std::string& rel) { std::filesystem::create_directories(path(rel)); }

 private:
  std::string root_;
};

inline const Update* findUpdate(const PollBatch& b, const std::string& path) {
  for (const Update& u : b.updates) {
    if (u.path == path) return &u;
  }
  return nullptr;
}

inline std::optional<uint64_t> u64At(const PollBatch& b, const std::string& path) {
  const Update* u = findUpdate(b, path);
  if (!u || !std::holds_alternative<uint64_t>(u->value)) return std::nullopt;
  return std::get<uint64_t>(u->value);
}

inline std::optional<std::string> strAt(const PollBatch& b, const std::string& path) {
  const Update* u = findUpdate(b, path);
  if (!u || !std::holds_alternative<std::string>(u->value)) return std::nullopt;
  return std::get<std::string>(u->value);
}

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
