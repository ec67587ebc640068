// Seeded-mutation fuzzing of the ESXi parsers over their fixtures: no crash,
// every emitted path well formed and (outside driver-private/) a schema row,
// and no invented numbers: every counter value appears as digits in the
// mutated input. Bounded: a fixed seed and iteration count, a few seconds.

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <random>

#include "southbound/esxi/esxi_formats.h"
#include "southbound/esxi/esxi_nic_list.h"
#include "southbound/esxi/esxi_nic_stats.h"
#include "southbound/esxi/esxi_vsish.h"
#include "southbound/esxi/esxi_vsish_private.h"
#include "tests/southbound/esxi/esxi_test_util.h"

namespace rdmagw::southbound::esxi {
namespace {

using namespace rdmagw::testing;  // NOLINT

const char* kFixtures[] = {
    "SYNTHETIC_esxcli_network_nic_list.txt",
    "esxi_esxcli_network_nic_stats_get_vmnic2__broadcom_kb341594.txt",
    "esxi_vsish_-pe_get_pNics_vmnic_stats__intel_ens_disabled.txt",
    "esxi_localcli_networkinternal_nic_privstats_get__intel_pfc_tc.txt",
    "esxi_vsish_-pe_get_net_sriov_vfs_stats__intel_mfd.txt",
    "SYNTHETIC_nmlx5_vsish_pNics_stats.txt",
};

const char* kTokens[] = {",", "\"", "{", "}", ":", "=", "\n", " ", "-", "0", "9", "[", "]",
                         "\\", "99999999999999999999", "1,234", "\"hw\" : \"", "Error: x\n",
                         "-----", "NIC statistics for vmnic7\n", "/net/pNics/vmnic8/", "\r\n"};

std::string mutate(std::string s, std::mt19937& rng) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : size_t(rng() % n); };
  int edits = 1 + int(rng() % 4);
  for (int i = 0; i < edits; ++i) {
    switch (rng() % 6) {
      case 0:  // flip a byte
        if (!s.empty()) s[pick(s.size())] = char(rng() % 256);
        break;
      case 1: {  // delete a range
        size_t at = pick(s.size());
        s.erase(at, pick(40) + 1);
        break;
      }
      case 2: {  // duplicate a range
        size_t at = pick(s.size());
        s.insert(pick(s.size() + 1), s.substr(at, pick(60) + 1));
        break;
      }
      case 3:  // insert a token
        s.insert(pick(s.size() + 1), kTokens[pick(std::size(kTokens))]);
        break;
      case 4:  // truncate
        s.resize(pick(s.size() + 1));
        break;
      default: {  // swap two lines' worth of text
        size_t a = pick(s.size()), b = pick(s.size());
        if (a > b) std::swap(a, b);
        size_t len = std::min<size_t>(pick(30) + 1, b - a);
        std::string x = s.substr(a, len);
        s.erase(a, len);
        s.insert(std::min(b - len, s.size()), x);
        break;
      }
    }
  }
  return s;
}

// Numbers must come from the input: the digits of the value (speed: of the
// value / 1e6) occur in the text.
void checkBatch(const PollBatch& b, const std::string& input) {
  for (const Update& u : b.updates) {
    Result<Path> p = Path::parse(u.path);
    ASSERT_TRUE(p.isOk()) << u.path;
    ASSERT_EQ(p.value().elems().front().name, "hypervisor") << u.path;
    if (u.path.find("/driver-private/") == std::string::npos) {
      ASSERT_NE(SchemaTable::instance().find(p.value().keylessString()), nullptr) << u.path;
    }
    if (const uint64_t* v = std::get_if<uint64_t>(&u.value)) {
      uint64_t shown = u.path.ends_with("/state/speed") ? *v / 1000000 : *v;
      ASSERT_NE(input.find(std::to_string(shown)), std::string::npos)
          << u.path << " = " << *v << " is not in the input";
    } else {
      ASSERT_TRUE(std::holds_alternative<std::string>(u.value)) << u.path;
    }
  }
}

TEST(EsxiFuzzTest, SeededMutationsNeverCrashOrInvent) {
  std::vector<std::function<void(const std::string&, PollBatch&)>> parsers;
  for (const southbound::ParserFormat& f : esxiParserFormats()) {
    parsers.push_back([f](const std::string& t, PollBatch& b) { (void)f.parse(t, 1, b); });
  }
  parsers.push_back([](const std::string& t, PollBatch& b) {
    (void)parseEsxiNicStatsFor("vmnic2", t, 1, b);
  });
  parsers.push_back([](const std::string& t, PollBatch& b) {
    (void)parseEsxiVsishStatsFor("vmnic4", t, 1, b);
  });
  parsers.push_back([](const std::string& t, PollBatch& b) {
    EsxiPrivateStats priv("vmnic0", 1, b);
    priv.addBlock(t);
    priv.finish("fuzz");
  });
  parsers.push_back([](const std::string& t, PollBatch&) {
    for (const std::string& n : nicNames(t)) ASSERT_FALSE(n.empty());
  });

  std::mt19937 rng(20240521);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
  size_t runs = 0;
  for (int round = 0; round < 2000 && std::chrono::steady_clock::now() < deadline; ++round) {
    for (const char* name : kFixtures) {
      const std::string base = readEsxiFixture(name);
      const std::string input = mutate(base, rng);
      for (auto& parse : parsers) {
        PollBatch b;
        parse(input, b);
        checkBatch(b, input);
        if (::testing::Test::HasFatalFailure()) {
          ADD_FAILURE() << "fixture " << name << " round " << round << " input:\n" << input;
          return;
        }
        ++runs;
      }
    }
  }
  EXPECT_GT(runs, 1000u);
}

}  // namespace
}  // namespace rdmagw::southbound::esxi
