// Our modules in yang/ load with yanglint beside the OpenConfig and IETF
// modules vendored in yang/openconfig/, from the source tree alone: each on
// its own, all together, with no error and no warning but upstream's known
// one. The vendored set is unchanged and is exactly what the served tree
// needs with its import closure.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/e2e/yang/yanglint_runner.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::set<std::string> yangFilesIn(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".yang") out.insert(e.path().stem().string());
  }
  return out;
}

// The modules a module imports and the submodules it includes.
std::set<std::string> dependenciesOf(const std::string& text) {
  static const std::regex dep_re(R"((?:^|\n)\s*(?:import|include)\s+([A-Za-z0-9_.-]+))");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), dep_re);
       it != std::sregex_iterator(); ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

TEST(YangModulesTest, YanglintIsInstalled) {
  const CommandResult r = runCommand("yanglint --version");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("yanglint 2."), std::string::npos) << r.output;
}

TEST(YangModulesTest, EveryModuleInTheDirectoryIsTested) {
  std::set<std::string> listed;
  for (const char* m : kModules) listed.insert(fs::path(m).stem().string());
  EXPECT_EQ(yangFilesIn(kYangDir), listed);
}

TEST(YangModulesTest, TheVendoredModulesAreUnchanged) {
  // SHA256SUMS was written when they were copied from openconfig/public.
  const CommandResult r =
      runCommand("cd '" + kOpenconfigDir + "' && sha256sum --quiet --strict -c SHA256SUMS");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string sums = slurp(fs::path(kOpenconfigDir) / "SHA256SUMS");
  for (const std::string& m : yangFilesIn(kOpenconfigDir)) {
    EXPECT_NE(sums.find("  " + m + ".yang\n"), std::string::npos) << m << " has no checksum";
  }
}

TEST(YangModulesTest, TheVendoredModulesKeepTheirSourceAndLicence) {
  const std::string readme = slurp(fs::path(kOpenconfigDir) / "README.md");
  EXPECT_NE(readme.find("github.com/openconfig/public at commit 94f58962"), std::string::npos);
  EXPECT_NE(readme.find("Apache-2.0"), std::string::npos);
  EXPECT_NE(slurp(fs::path(kOpenconfigDir) / "LICENSE").find("Apache License"), std::string::npos);
}

TEST(YangModulesTest, TheVendoredSetIsTheImportClosureOfWhatWeLoad) {
  // Start from the modules loaded beside ours and from what ours import:
  // everything reachable must be vendored, and nothing else is.
  std::set<std::string> seen, todo;
  for (const char* m : kOpenconfigModules) todo.insert(fs::path(m).stem().string());
  for (const char* m : kModules) {
    for (const std::string& d : dependenciesOf(slurp(fs::path(kYangDir) / m))) todo.insert(d);
  }
  const std::set<std::string> vendored = yangFilesIn(kOpenconfigDir);
  while (!todo.empty()) {
    const std::string m = *todo.begin();
    todo.erase(todo.begin());
    if (!seen.insert(m).second) continue;
    ASSERT_TRUE(vendored.count(m)) << m << " is needed but not in yang/openconfig";
    for (const std::string& d : dependenciesOf(slurp(fs::path(kOpenconfigDir) / (m + ".yang")))) {
      todo.insert(d);
    }
  }
  EXPECT_EQ(seen, vendored);
}

class EachModuleTest : public ::testing::TestWithParam<const char*> {};

TEST_P(EachModuleTest, CompilesCleanlyBesideOpenconfig) {
  const CommandResult r = runCommand(yanglint(quoted(kYangDir + "/" + GetParam())));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(withoutUpstreamWarnings(r.output), "") << "yanglint printed warnings or errors";
}

TEST_P(EachModuleTest, FollowsTheHouseConventions) {
  const std::string module = fs::path(GetParam()).stem().string();
  const std::string text = slurp(fs::path(kYangDir) / GetParam());
  EXPECT_NE(text.find("module " + module + " {"), std::string::npos);
  EXPECT_NE(text.find("yang-version 1.1;"), std::string::npos);
  EXPECT_NE(text.find("namespace \"urn:rdmagw:yang:" + module + "\";"), std::string::npos);
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\n  prefix rdmagw-[a-z]+;)")));
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\n  revision \d{4}-\d{2}-\d{2} \{)")));
  // Imports come from the vendored set only (ietf-yang-types is one of them):
  // the modules must load from the source tree alone.
  const std::set<std::string> vendored = yangFilesIn(kOpenconfigDir);
  for (const std::string& d : dependenciesOf(text)) {
    EXPECT_TRUE(vendored.count(d)) << GetParam() << " imports " << d;
  }
  EXPECT_EQ(text.find("include "), std::string::npos) << "no submodules";
  // An augment adds to OpenConfig's trees, never to another rdmagw module's.
  const std::regex augment_re(R"(\baugment\s+"/([A-Za-z0-9_.-]+):)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), augment_re);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE((*it)[1].str().starts_with("oc-")) << GetParam() << " augments " << (*it)[0];
  }
}

INSTANTIATE_TEST_SUITE_P(Modules, EachModuleTest, ::testing::ValuesIn(kModules),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

TEST(YangModulesTest, AllModulesLoadTogether) {
  const CommandResult r = runCommand(yanglint(allModules()));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(withoutUpstreamWarnings(r.output), "");
}

TEST(YangModulesTest, OnlyUpstreamsKnownWarningIsTolerated) {
  const std::string fec =
      "libyang warn: Identityref \"fec-mode\" comparison with identity \"FEC_DISABLED\" without "
      "prefix, consider adding a prefix or best using \"derived-from(-or-self)()\" functions.\n";
  EXPECT_EQ(withoutUpstreamWarnings(fec), "");
  const std::string other =
      "libyang warn: Identityref \"port-speed\" comparison with identity \"SPEED_1GB\" without "
      "prefix, consider adding a prefix.\n";
  EXPECT_EQ(withoutUpstreamWarnings(fec + other), other);
}

TEST(YangModulesTest, ABrokenModuleIsReported) {
  // Guards the harness: a yanglint that "passes" everything would make the
  // tests above worthless.
  testing::TempDir tmp("rdmagw-yang");
  const std::string broken = tmp.file("rdmagw-broken.yang");
  ASSERT_TRUE(testing::writeFile(
      broken, "module rdmagw-broken { yang-version 1.1; namespace \"urn:x\"; prefix b; "
              "import openconfig-interfaces { prefix oc-if; } "
              "augment \"/oc-if:interfaces/oc-if:interface\" { leaf x { type no-such-type; } } }\n"));
  const CommandResult r = runCommand(yanglint(quoted(broken)));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("no-such-type"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace rdmagw::testing
