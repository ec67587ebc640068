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
  for (const auto &e : fs::directory_iterator(kSource / "northbound")) {
    if (!e.is_directory()) continue;
    const std::string dir = "northbound/" + e.path().filename().string();
    out.push_back({dir, {"common", "models", dir}});
  }
  return out;
}

// Project headers are included by their path from the source root; a
// header of another top directory names it first.
const std::set<std::string> kTopDirs = {"common",  "models", "southbound", "northbound", "analytics", "sim",
                                        "gateway", "bench",  "tests",      "fuzz",       "proto",     "cluster"};

bool allowedBy(const Rule &rule, const std::string &included) {
  for (const std::string &a : rule.allowed) {
    if (included.starts_with(a + "/")) return true;
  }
  return false;
}

// One project #include: the file (relative to `root`), its line, and the
// quoted path.
struct Include {
  std::string file;
  int line = 0;
  std::string path;
};

// Every quoted #include of the .h and .cc files under `root`.
std::vector<Include> includesUnder(const fs::path &root) {
  static const std::regex include_re(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<Include> out;
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".h" && ext != ".cc") continue;
    std::ifstream in(e.path());
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      std::smatch m;
      if (std::regex_search(line, m, include_re))
        out.push_back({fs::relative(e.path(), root).generic_string(), n, m[1].str()});
    }
  }
  return out;
}

TEST(IncludeRulesTest, EveryLayerIncludesOnlyWhatItMay) {
  size_t checked = 0;
  const std::vector<Rule> all = rules();
  EXPECT_GE(all.size(), 7u) << "the northbound servers were not found";
  for (const Rule &rule : all) {
    const fs::path root = kSource / rule.dir;
    ASSERT_TRUE(fs::is_directory(root)) << rule.dir;
    for (const Include &inc : includesUnder(root)) {
      const std::string top = inc.path.substr(0, inc.path.find('/'));
      if (inc.path.find('/') == std::string::npos || !kTopDirs.count(top)) continue;  // generated, e.g. gnmi.pb.h
      ++checked;
      EXPECT_TRUE(allowedBy(rule, inc.path))
          << rule.dir << "/" << inc.file << ":" << inc.line << ": includes \"" << inc.path << "\"; code in " << rule.dir
          << "/ may include only from the directories docs/architecture.md "
             "lists";
    }
  }
  EXPECT_GT(checked, 500u) << "too few includes found: the pattern is broken";
}

// Inside southbound/, each device family has its folder and the arrows
// between folders point one way: a collector's folder may use the shared
// text helpers and the device readers, never the other way round, so a new
// command has one home and a reader never drags a transport in. Files at
// the top of southbound/ (the poll and stream source interfaces, the
// scheduler, the secret reader) are the base every folder may include; they
// include no folder. A folder not in this table fails until it is given a row.
const std::map<std::string, std::set<std::string>> kSouthboundFolders = {
    {"text", {}},
    {"nxos", {"text"}},
    {"esxi", {"text"}},
    {"rdma", {"text"}},
    {"ssh", {}},
    {"ssh/profiles", {"ssh", "nxos", "esxi"}},
    // NX-API unwraps the switch's envelope and hands each body to the NX-OS
    // readers; of ssh/ it uses only the CliCommand shape it maps.
    {"nxapi", {"text", "ssh", "nxos"}},
    {"gnmi", {"gnmi/mapping"}},
    {"gnmi/mapping", {"text"}},
    // k8s reads a device moved into a pod's netns with the host collector's
    // own code (IbClass, the ethtool and netdev leaves), so its counters land
    // where a host device's do.
    {"k8s", {"text", "rdma"}},
    // GPU topology reads sysfs with the base's kernel-file reader only.
    {"gpu", {}},
};

// The folder of a path under southbound/ ("" for the top), e.g.
// "ssh/profiles" for "southbound/ssh/profiles/nexus_profile.h".
std::string southboundFolder(const std::string &path_from_southbound) {
  const size_t slash = path_from_southbound.rfind('/');
  return slash == std::string::npos ? "" : path_from_southbound.substr(0, slash);
}

// True when `from` reaches itself again through the table.
bool reachesItself(const std::string &from) {
  std::set<std::string> seen;
  std::vector<std::string> todo(kSouthboundFolders.at(from).begin(), kSouthboundFolders.at(from).end());
  while (!todo.empty()) {
    const std::string f = todo.back();
    todo.pop_back();
    if (f == from) return true;
    if (!seen.insert(f).second) continue;
    const auto it = kSouthboundFolders.find(f);
    if (it != kSouthboundFolders.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
  return false;
}

TEST(IncludeRulesTest, SouthboundFoldersIncludeOneWay) {
  for (const auto &[folder, allowed] : kSouthboundFolders) {
    EXPECT_FALSE(reachesItself(folder)) << "southbound/" << folder << "/ is on a cycle of the folder table";
    for (const std::string &a : allowed) {
      EXPECT_TRUE(kSouthboundFolders.count(a))
          << "southbound/" << folder << "/ may include southbound/" << a << "/, which has no row";
    }
  }

  size_t checked = 0;
  std::set<std::string> unlisted;
  for (const Include &inc : includesUnder(kSource / "southbound")) {
    const std::string from = southboundFolder(inc.file);
    const auto row = kSouthboundFolders.find(from);
    if (!from.empty() && row == kSouthboundFolders.end()) {
      if (unlisted.insert(from).second)
        ADD_FAILURE() << "southbound/" << from << "/ has no row in the southbound folder table";
      continue;
    }
    if (!inc.path.starts_with("southbound/")) continue;
    const std::string included = inc.path.substr(std::string("southbound/").size());
    const std::string to = southboundFolder(included);
    ++checked;
    if (to.empty() || to == from) continue;  // the shared top, or its own folder
    const bool ok = !from.empty() && row->second.count(to) > 0;
    EXPECT_TRUE(ok) << "southbound/" << inc.file << ":" << inc.line << ": includes \"" << inc.path << "\"; southbound/"
                    << (from.empty() ? std::string("") : from + "/")
                    << " may include only the southbound folders its row of "
                       "the table lists";
  }
  EXPECT_GT(checked, 200u) << "too few southbound includes found: the pattern is broken";
}

// gateway/ by job, one way: cli and demo (the two programs' commands) over
// fleet, fleet over runtime, runtime over config, which knows no other
// gateway folder. demo also uses cli's argument parsing, and it alone may
// include the simulator (sim/): the daemon the package installs links none.
// Every source under gateway/ sits in one of these folders.
TEST(IncludeRulesTest, GatewayFoldersIncludeOneWay) {
  const std::map<std::string, std::set<std::string>> may = {
      {"config", {"config"}},
      {"runtime", {"runtime", "config"}},
      {"fleet", {"fleet", "runtime", "config"}},
      {"cli", {"cli", "fleet", "runtime", "config"}},
      {"demo", {"demo", "cli", "fleet", "runtime", "config"}},
  };
  size_t checked = 0;
  std::set<std::string> misplaced;
  for (const Include &inc : includesUnder(kSource / "gateway")) {
    const std::string &rel = inc.file;
    const std::string folder = rel.substr(0, rel.find('/'));
    const auto rule = may.find(folder);
    if (rel.find('/') == std::string::npos || rule == may.end()) {
      if (misplaced.insert(rel).second)
        ADD_FAILURE() << "gateway/" << rel << ": not in a job folder (cli, config, runtime, fleet, demo)";
      continue;
    }
    const std::string &included = inc.path;
    if (included.starts_with("sim/")) {
      ++checked;
      EXPECT_EQ(folder, "demo") << "gateway/" << rel << ":" << inc.line << ": includes \"" << included
                                << "\"; only gateway/demo/ may use the simulator";
      continue;
    }
    if (!included.starts_with("gateway/")) continue;
    ++checked;
    const std::string rest = included.substr(std::string("gateway/").size());
    const std::string target = rest.substr(0, rest.find('/'));
    EXPECT_TRUE(rest.find('/') != std::string::npos && rule->second.count(target))
        << "gateway/" << rel << ":" << inc.line << ": includes \"" << included << "\"; gateway/" << folder
        << "/ may include only from gateway/{" <<
        [&] {
          std::string list;
          for (const std::string &a : rule->second) list += (list.empty() ? "" : ",") + a;
          return list;
        }()
        << "}/";
  }
  EXPECT_GT(checked, 80u) << "too few gateway includes found: the pattern is broken";
}

}  // namespace
