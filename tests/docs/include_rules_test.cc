// The layering rule of docs/architecture.md ("Who may include whom"),
// checked against every #include of the sources: data flows one way, so a
// northbound never knows a device, a southbound never knows a server, and
// nothing below the gateway knows the analytics exist.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = RDMAGW_SOURCE_DIR;

// The directories a file under `dir` may include from.
struct Rule {
  std::string dir;
  std::set<std::string> allowed;
};

// Each server under northbound/ gets its own rule, found on disk, so a new
// server is held to it from the day it is added.
std::vector<Rule> rules() {
  // common/ is the ground floor: it includes only itself, every layer may
  // include it.
  std::vector<Rule> out = {
      {"common", {"common"}},
      {"models", {"common", "models"}},
      {"southbound", {"common", "models", "southbound"}},
      {"analytics", {"common", "models", "analytics"}},
      {"sim", {"common", "models", "sim"}},
      {"cluster", {"common", "models", "cluster"}},
  };
  for (const auto& e : fs::directory_iterator(kSource / "northbound")) {
    if (!e.is_directory()) continue;
    const std::string dir = "northbound/" + e.path().filename().string();
    out.push_back({dir, {"common", "models", dir}});
  }
  return out;
}

// Project headers are included by their path from the source root; a
// header of another top directory names it first.
const std::set<std::string> kTopDirs = {"common", "models", "southbound", "northbound", "analytics", "sim",
                                        "gateway", "bench", "tests",     "fuzz",       "proto",     "cluster"};

bool allowedBy(const Rule& rule, const std::string& included) {
  for (const std::string& a : rule.allowed) {
    if (included.starts_with(a + "/")) return true;
  }
  return false;
}

TEST(IncludeRulesTest, EveryLayerIncludesOnlyWhatItMay) {
  const std::regex include_re(R"re(^\s*#\s*include\s+"([^"]+)")re");
  size_t checked = 0;
  const std::vector<Rule> all = rules();
  EXPECT_GE(all.size(), 7u) << "the northbound servers were not found";
  for (const Rule& rule : all) {
    const fs::path root = kSource / rule.dir;
    ASSERT_TRUE(fs::is_directory(root)) << rule.dir;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string ext = e.path().extension().string();
      if (ext != ".h" && ext != ".cc") continue;
      std::ifstream in(e.path());
      int n = 0;
      for (std::string line; std::getline(in, line);) {
        ++n;
        std::smatch m;
        if (!std::regex_search(line, m, include_re)) continue;
        const std::string included = m[1].str();
        const std::string top = included.substr(0, included.find('/'));
        if (included.find('/') == std::string::npos || !kTopDirs.count(top)) continue;  // generated, e.g. gnmi.pb.h
        ++checked;
        EXPECT_TRUE(allowedBy(rule, included))
            << fs::relative(e.path(), kSource).string() << ":" << n << ": includes \"" << included
            << "\"; code in " << rule.dir << "/ may include only from the directories docs/architecture.md lists";
      }
    }
  }
  EXPECT_GT(checked, 500u) << "too few includes found: the pattern is broken";
}

}  // namespace
