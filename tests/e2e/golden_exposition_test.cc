// The whole binary on the simulated fabric at a fixed seed, its /metrics
// diffed against one golden file (tests/e2e/golden/demo_exposition.txt), as
// node_exporter's end-to-end test does. What is compared is the shape of the
// exposition, not its numbers: every HELP and TYPE line and every series'
// name and labels, with the sample value dropped (the demo's counters move
// with wall time). So the test fails when a leaf, a metric or a label is
// renamed, added or lost, which no unit test of one layer would notice.
//
// After an intended change, rewrite the golden file and review its diff:
//   RDMAGW_UPDATE_GOLDEN=1 ctest --test-dir build -R GoldenExposition

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

const std::string kGolden = RDMAGW_SOURCE_DIR "/tests/e2e/golden/demo_exposition.txt";

// The exposition's lines with values dropped, loopback ports and the demo's
// scratch directory replaced by placeholders, sorted and unique.
std::string normalized(const std::string& body, const std::string& scratch) {
  static const std::regex port(R"((127\.0\.0\.1|localhost):[0-9]+)");
  std::set<std::string> lines;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line[0] != '#') {
      // "name{labels} value [timestamp]": label values may hold spaces, so
      // the series ends at the closing brace when there is one.
      const size_t brace = line.rfind('}');
      const size_t end = brace != std::string::npos ? brace + 1 : line.find(' ');
      line = line.substr(0, end);
    }
    for (size_t at; !scratch.empty() && (at = line.find(scratch)) != std::string::npos;) {
      line.replace(at, scratch.size(), "$DIR");
    }
    lines.insert(std::regex_replace(line, port, "$1:PORT"));
  }
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Lines of `a` not in `b`, each prefixed with `mark`.
std::string missingFrom(const std::string& a, const std::string& b, const std::string& mark) {
  std::set<std::string> in_b;
  std::istringstream bs(b);
  for (std::string l; std::getline(bs, l);) in_b.insert(l);
  std::string out;
  std::istringstream as(a);
  for (std::string l; std::getline(as, l);) {
    if (!in_b.count(l)) out += mark + l + "\n";
  }
  return out;
}

TEST(GoldenExpositionTest, DemoFabricMatchesTheGoldenFile) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated switches' sshd needs root";
  TempDir tmp("rdmagw-golden");
  const std::string dir = tmp.file("sim");
  const int port = freeLoopbackPort();
  ASSERT_GT(port, 0);
  // A frozen fabric (one tick an hour) and every transport the demo has, but
  // no listeners beyond /metrics: what is compared is the one exposition.
  const pid_t pid = spawnLogged({RDMAGW_DEMO_BIN, "--seed", "7", "--hosts", "2", "--devices", "2",
                                 "--switches", "1", "--esxi", "1", "--period", "1h", "--interval", "300ms",
                                 "--listen", "127.0.0.1:" + std::to_string(port), "--gnmi-listen", "off", "--snmp",
                                 "off", "--dir", dir},
                                tmp.file("demo.log"));
  ASSERT_GT(pid, 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
  const bool update = std::getenv("RDMAGW_UPDATE_GOLDEN") != nullptr;
  const std::string golden = readFile(kGolden);
  if (!update) {
    ASSERT_FALSE(golden.empty()) << kGolden << " is missing: run with RDMAGW_UPDATE_GOLDEN=1";
  }

  std::string seen;
  if (update) {
    // The demo has settled when three scrapes two seconds apart agree and
    // every target polled at least once.
    std::vector<std::string> last;
    waitUntil(
        [&] {
          const std::string body = httpGet(url);
          if (body.find("rdmagw_target_up{") == std::string::npos) return false;
          last.push_back(normalized(body, dir));
          if (last.size() > 3) last.erase(last.begin());
          return last.size() == 3 && last[0] == last[1] && last[1] == last[2];
        },
        kEventWait, std::chrono::seconds(2));
    seen = last.empty() ? "" : last.back();
  } else {
    // The demo starts its devices and collectors one by one: wait for the
    // exposition to reach the golden shape, and show the difference if it
    // never does.
    waitUntil(
        [&] {
          seen = normalized(httpGet(url), dir);
          return seen == golden;
        },
        kEventWait, std::chrono::milliseconds(500));
  }
  const std::optional<int> stopped = interruptChild(pid);
  EXPECT_TRUE(stopped) << "the demo did not stop on SIGINT";
  ASSERT_FALSE(seen.empty()) << "no exposition at " << url << ":\n" << readFile(tmp.file("demo.log")).substr(0, 4000);

  if (update) {
    ASSERT_TRUE(writeFile(kGolden, seen)) << kGolden;
    std::cout << "rewrote " << kGolden << "\n";
    return;
  }
  EXPECT_TRUE(seen == golden) << "the exposition differs from " << kGolden
                          << " (RDMAGW_UPDATE_GOLDEN=1 rewrites it after an intended change):\n"
                          << missingFrom(golden, seen, "- ") << missingFrom(seen, golden, "+ ");
}

}  // namespace
}  // namespace rdmagw::testing
