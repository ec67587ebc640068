// Every module in yang/ compiles with yanglint on its own, with nothing but
// libyang's built-in modules: Debian ships no OpenConfig YANG.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/yang/yanglint_runner.h"

namespace rdmagw::yangtest {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(YangModulesTest, YanglintIsInstalled) {
  const CommandResult r = runCommand("yanglint --version");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("yanglint 2."), std::string::npos) << r.output;
}

TEST(YangModulesTest, EveryModuleInTheDirectoryIsTested) {
  std::set<std::string> on_disk, listed(std::begin(kModules), std::end(kModules));
  for (const auto& e : fs::directory_iterator(kYangDir)) {
    if (e.path().extension() == ".yang") on_disk.insert(e.path().filename().string());
  }
  EXPECT_EQ(on_disk, listed);
}

class EachModuleTest : public ::testing::TestWithParam<const char*> {};

TEST_P(EachModuleTest, CompilesCleanly) {
  const CommandResult r = runCommand(yanglint("'" + kYangDir + "/" + GetParam() + "'"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "yanglint printed warnings or errors";
}

TEST_P(EachModuleTest, FollowsTheHouseConventions) {
  const std::string module = std::string(GetParam()).substr(0, std::string(GetParam()).size() - 5);
  const std::string text = slurp(fs::path(kYangDir) / GetParam());
  EXPECT_NE(text.find("module " + module + " {"), std::string::npos);
  EXPECT_NE(text.find("yang-version 1.1;"), std::string::npos);
  EXPECT_NE(text.find("namespace \"urn:rdmagw:yang:" + module + "\";"), std::string::npos);
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\n  prefix rdmagw-[a-z]+;)")));
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\n  revision \d{4}-\d{2}-\d{2} \{)")));
  // Only libyang's built-in ietf-yang-types may be imported: the modules must
  // load with no OpenConfig or other files present.
  const std::regex import_re(R"(\bimport\s+([A-Za-z0-9_.-]+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), import_re);
       it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1].str(), "ietf-yang-types") << GetParam();
  }
  EXPECT_EQ(text.find("include "), std::string::npos) << "no submodules";
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
  EXPECT_EQ(r.output, "");
}

TEST(YangModulesTest, ABrokenModuleIsReported) {
  // Guards the harness: a yanglint that "passes" everything would make the
  // tests above worthless.
  const fs::path tmp = fs::temp_directory_path() / "rdmagw-broken.yang";
  std::ofstream(tmp) << "module rdmagw-broken { yang-version 1.1; namespace \"urn:x\"; "
                        "prefix b; leaf x { type no-such-type; } }\n";
  const CommandResult r = runCommand("yanglint -D '" + tmp.string() + "'");
  fs::remove(tmp);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("no-such-type"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace rdmagw::yangtest
