// The naming rule of docs/architecture.md ("One namespace per folder"),
// checked on every source: a reader who knows a file's folder knows its
// namespace, and a test helper is found under one name.
//   models/            rdmagw (the vocabulary every layer speaks)
//   southbound/F/...   rdmagw::southbound::F   (files at southbound/:
//   rdmagw::southbound) northbound/F/...   rdmagw::northbound::F common/,
//   cluster/, analytics/, gateway/, sim/   rdmagw::<folder> tests/, fuzz/ the
//   namespace of the code under test, or rdmagw::testing
// A nested name under the prefix is allowed (rdmagw::sim::gnmi_tree); a
// block that only forward-declares another layer's classes is not a
// definition and is allowed.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = RDMAGW_SOURCE_DIR;

std::string textOf(const fs::path &file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The prefix a production file's namespaces must carry; empty: no rule.
std::string expectedPrefix(const fs::path &relative) {
  std::vector<std::string> parts;
  for (const auto &p : relative) parts.push_back(p.string());
  const std::string &top = parts.front();
  if (top == "models") return "rdmagw";
  if (top == "southbound" || top == "northbound") {
    return parts.size() > 2 ? "rdmagw::" + top + "::" + parts[1] : "rdmagw::" + top;
  }
  for (const char *layer : {"common", "cluster", "analytics", "gateway", "sim"}) {
    if (top == layer) return "rdmagw::" + top;
  }
  return "";
}

bool under(const std::string &ns, const std::string &prefix) { return ns == prefix || ns.starts_with(prefix + "::"); }

struct NamespaceBlock {
  std::string name;
  bool forward_declarations_only = true;
};

// Every named, braced namespace block opened at the start of a line, with
// whether its body (up to the matching closing comment or brace) declares
// anything beyond `class X;` / `struct X;`.
std::vector<NamespaceBlock> namedBlocks(const std::string &text) {
  static const std::regex kOpen(R"(^namespace ([\w:]+) \{\s*$)");
  static const std::regex kForward(R"(^\s*(class|struct) \w+;\s*$)");
  std::vector<NamespaceBlock> out;
  std::istringstream in(text);
  int open = -1;  // index into out of the block being read, -1 outside
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, kOpen)) {
      out.push_back({m[1].str()});
      open = static_cast<int>(out.size()) - 1;
      continue;
    }
    if (open < 0) continue;
    if (line.starts_with("}")) {
      open = -1;
      continue;
    }
    if (!line.empty() && !std::regex_match(line, kForward)) out[open].forward_declarations_only = false;
  }
  return out;
}

std::vector<fs::path> sources(const std::vector<std::string> &dirs) {
  std::vector<fs::path> out;
  for (const std::string &d : dirs) {
    for (const auto &e : fs::recursive_directory_iterator(kSource / d)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".h" || ext == ".cc")) out.push_back(e.path());
    }
  }
  return out;
}

TEST(NamespaceRulesTest, EveryProductionFileUsesItsFoldersNamespace) {
  size_t checked = 0;
  for (const fs::path &file :
       sources({"common", "models", "southbound", "northbound", "analytics", "cluster", "gateway", "sim"})) {
    const fs::path relative = fs::relative(file, kSource);
    const std::string prefix = expectedPrefix(relative);
    ASSERT_FALSE(prefix.empty()) << relative;
    for (const NamespaceBlock &block : namedBlocks(textOf(file))) {
      ++checked;
      if (block.forward_declarations_only) continue;
      EXPECT_TRUE(under(block.name, prefix))
          << relative.string() << " defines in namespace " << block.name << "; its folder's is " << prefix;
    }
  }
  EXPECT_GT(checked, 300u) << "the walk found too few namespaces: is RDMAGW_SOURCE_DIR right?";
}

// Test code either sits in the namespace of what it tests (so it reads as
// that code does) or in the one helper namespace, rdmagw::testing: never a
// private helper namespace of its own.
TEST(NamespaceRulesTest, TestsUseTheTestedNamespaceOrTesting) {
  std::vector<std::string> production_namespaces;  // benchmarks count: their helpers have tests too
  for (const fs::path &file :
       sources({"common", "models", "southbound", "northbound", "analytics", "cluster", "gateway", "sim", "bench"})) {
    for (const NamespaceBlock &block : namedBlocks(textOf(file))) production_namespaces.push_back(block.name);
  }
  size_t checked = 0;
  for (const fs::path &file : sources({"tests", "fuzz"})) {
    for (const NamespaceBlock &block : namedBlocks(textOf(file))) {
      ++checked;
      if (block.name == "rdmagw::testing" || block.forward_declarations_only) continue;
      const bool production = std::find(production_namespaces.begin(), production_namespaces.end(), block.name) !=
                              production_namespaces.end();
      EXPECT_TRUE(production) << fs::relative(file, kSource).string() << " opens namespace " << block.name
                              << ", which no production code uses: test "
                                 "helpers belong in rdmagw::testing";
    }
  }
  EXPECT_GT(checked, 100u);
}

// The rule's own parser: a definition in a forward-declaration-looking
// block is caught, and a block of forward declarations is not.
TEST(NamespaceRulesTest, ForwardDeclarationBlocksAreToldFromDefinitions) {
  const auto blocks = namedBlocks(
      "namespace rdmagw::sim {\nclass A;\nstruct "
      "B;\n}  // namespace rdmagw::sim\n"
      "namespace rdmagw::gateway {\n\nclass C "
      "{\n};\n}  // namespace rdmagw::gateway\n");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_TRUE(blocks[0].forward_declarations_only);
  EXPECT_FALSE(blocks[1].forward_declarations_only);
  EXPECT_EQ(expectedPrefix("southbound/nxos/nxos_pfc.cc"), "rdmagw::southbound::nxos");
  EXPECT_EQ(expectedPrefix("southbound/poll_source.h"), "rdmagw::southbound");
  EXPECT_EQ(expectedPrefix("northbound/gnmi/gnmi_server.h"), "rdmagw::northbound::gnmi");
}

}  // namespace
}  // namespace rdmagw::testing
