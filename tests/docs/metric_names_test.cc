// Every metric name README.md and docs/*.md mention is one the gateway
// serves: a name in models/schema.yaml (devices' leaves and the gateway's
// own metrics alike). A renamed metric then fails here, not in an
// operator's alert written from the docs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = RDMAGW_SOURCE_DIR;

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> schemaNames() {
  const std::string schema = slurp(kSource / "models/schema.yaml");
  const std::regex name_re(R"(name: (rdmagw_[a-z0-9_]+))");
  std::set<std::string> names;
  for (std::sregex_iterator it(schema.begin(), schema.end(), name_re), end; it != end; ++it) names.insert((*it)[1]);
  return names;
}

// Build targets (rdmagw_bench, rdmagw_gateway...) share the prefix; they are
// programs and libraries, not metrics.
std::set<std::string> buildTargets() {
  std::set<std::string> names;
  const std::regex target_re(R"((?:add_executable|add_library|rdmagw_test)\((rdmagw_[a-z0-9_]+))");
  for (auto it = fs::recursive_directory_iterator(kSource); it != fs::recursive_directory_iterator(); ++it) {
    const std::string top = fs::relative(it->path(), kSource).begin()->string();
    if (it->is_directory() && (top.starts_with("build") || top == ".git")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().filename() != "CMakeLists.txt") continue;
    const std::string text = slurp(it->path());
    for (std::sregex_iterator m(text.begin(), text.end(), target_re), end; m != end; ++m) names.insert((*m)[1]);
  }
  return names;
}

TEST(MetricNamesTest, EveryNameInTheDocsIsServed) {
  const std::set<std::string> metrics = schemaNames();
  const std::set<std::string> targets = buildTargets();
  ASSERT_GT(metrics.size(), 100u);
  std::vector<fs::path> pages = {kSource / "README.md"};
  for (const auto& e : fs::directory_iterator(kSource / "docs")) {
    if (e.path().extension() == ".md") pages.push_back(e.path());
  }
  // A name followed by '{' or '*' right after a '_' is a family written as a
  // pattern (rdmagw_fabric_dcqcn_{a,b}_total, rdmagw_hypervisor_nic_*): its
  // prefix must still start some metric.
  const std::regex token_re(R"(rdmagw_(?:[a-z][a-z0-9_]*)?)");  // not rdmagw_0.1.0_amd64.deb
  size_t checked = 0;
  for (const fs::path& page : pages) {
    const std::string text = slurp(page);
    for (std::sregex_iterator it(text.begin(), text.end(), token_re), end; it != end; ++it) {
      const std::string name = it->str();
      if (targets.count(name)) continue;
      ++checked;
      const std::string where = fs::relative(page, kSource).string() + ": " + name;
      if (name.ends_with("_")) {
        auto next = metrics.lower_bound(name);
        EXPECT_TRUE(next != metrics.end() && next->starts_with(name)) << where << ": no metric starts so";
      } else {
        EXPECT_TRUE(metrics.count(name)) << where << ": not a metric of models/schema.yaml";
      }
    }
  }
  EXPECT_GT(checked, 50u);
}

}  // namespace
