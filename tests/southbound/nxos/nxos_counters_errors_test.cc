// `show interface counters errors` (nxos-interface-counters-errors): every
// column reaches its leaf, in text and `| json`, whatever the order or
// number of sections; "--" and absent keys give no leaf; damage is an error
// line, never a crash or a made-up zero.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "southbound/nxos/nxos_error_columns.h"
#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

constexpr std::string_view kFormat = "nxos-interface-counters-errors";

// The model path a column feeds on port `port`.
std::string leafPath(const std::string& port, const ErrorColumn& c) {
  return c.ethernet ? eth(port, std::string(c.leaf)) : ifc(port, std::string(c.leaf));
}

const ErrorColumn& column(std::string_view header) {
  for (const ErrorColumn& c : nxosErrorColumns()) {
    if (c.header == header) return c;
  }
  ADD_FAILURE() << "no column " << header;
  return nxosErrorColumns().front();
}

std::map<std::string, uint64_t> asMap(const PollBatch& b) {
  std::map<std::string, uint64_t> out;
  for (const Update& u : b.updates) {
    const uint64_t* v = std::get_if<uint64_t>(&u.value);
    EXPECT_NE(v, nullptr) << u.path;
    if (v != nullptr) {
      EXPECT_TRUE(out.emplace(u.path, *v).second) << "twice: " << u.path;
    }
  }
  return out;
}

// Five sections as an N9K on 10.x prints them; Eth1/7 gets a distinct value
// per column (column i -> 101 + i) so a swapped column shows; Eth1/8 has
// "--" where the switch does not count.
constexpr std::string_view kSection1 = R"nx(
--------------------------------------------------------------------------------
Port          Align-Err    FCS-Err   Xmit-Err    Rcv-Err  UnderSize OutDiscards
--------------------------------------------------------------------------------
Eth1/7                101        102        103        104        105         106
Eth1/8                  0         --          1          2         --           3
)nx";
constexpr std::string_view kSection2 = R"nx(
--------------------------------------------------------------------------------
Port          Single-Col  Multi-Col   Late-Col  Exces-Col  Carri-Sen       Runts
--------------------------------------------------------------------------------
Eth1/7                107        108        109        110        111         112
Eth1/8                 --         --         --         --         --           4
)nx";
constexpr std::string_view kSection3 = R"nx(
--------------------------------------------------------------------------------
Port           Giants SQETest-Err Deferred-Tx IntMacTx-Er IntMacRx-Er Symbol-Err
--------------------------------------------------------------------------------
Eth1/7            113         114         115         116         117        118
Eth1/8              5          --          --          --          --          6
)nx";
constexpr std::string_view kSection4 = R"nx(
--------------------------------------------------------------------------------
Port           InDiscards
--------------------------------------------------------------------------------
Eth1/7                119
Eth1/8                  7
)nx";
constexpr std::string_view kSection5 = R"nx(
--------------------------------------------------------------------------------
Port         Stomped-CRC
--------------------------------------------------------------------------------
Eth1/7               120
Eth1/8        18446744073709551615
)nx";

std::string join(std::initializer_list<std::string_view> parts) {
  std::string s = "leaf1# show interface counters errors\n";
  for (std::string_view p : parts) s += p;
  return s;
}

// What the five sections above must give, leaf by leaf.
std::map<std::string, uint64_t> expectedFiveSections() {
  std::map<std::string, uint64_t> want;
  uint64_t v = 101;
  for (const ErrorColumn& c : nxosErrorColumns()) want[leafPath("Ethernet1/7", c)] = v++;
  const std::pair<std::string_view, uint64_t> eth18[] = {
      {"Align-Err", 0}, {"Xmit-Err", 1},   {"Rcv-Err", 2},    {"OutDiscards", 3},
      {"Runts", 4},     {"Giants", 5},     {"Symbol-Err", 6}, {"InDiscards", 7},
      {"Stomped-CRC", 18446744073709551615u}};
  for (auto [h, val] : eth18) want[leafPath("Ethernet1/8", column(h))] = val;
  return want;
}

TEST(NxosCountersErrorsTest, TheTableCoversEveryColumnOnce) {
  EXPECT_EQ(nxosErrorColumns().size(), 20u);
  std::set<std::string_view> headers, keys, leaves;
  for (const ErrorColumn& c : nxosErrorColumns()) {
    EXPECT_TRUE(headers.insert(c.header).second) << c.header;
    EXPECT_TRUE(keys.insert(c.json_key).second) << c.json_key;
    EXPECT_TRUE(leaves.insert(c.leaf).second) << c.leaf;
    EXPECT_EQ(schemaProblem(leafPath("Ethernet1/1", c)), "") << c.header;
  }
}

TEST(NxosCountersErrorsTest, EveryColumnMapsWithItsOwnValue) {
  Parsed p = parse(kFormat, join({kSection1, kSection2, kSection3, kSection4, kSection5}));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty()) << p.batch.errors.front();
  EXPECT_EQ(asMap(p.batch), expectedFiveSections());
}

TEST(NxosCountersErrorsTest, SectionsInAnotherOrder) {
  Parsed p = parse(kFormat, join({kSection5, kSection3, kSection1, kSection4, kSection2}));
  ASSERT_TRUE(p.status.isOk());
  EXPECT_TRUE(p.batch.errors.empty());
  EXPECT_EQ(asMap(p.batch), expectedFiveSections());
}

// Older releases print no Stomped-CRC section; a cut output may lack any.
TEST(NxosCountersErrorsTest, ASectionMissing) {
  for (std::string_view missing : {kSection2, kSection5}) {
    std::vector<std::string_view> parts;
    for (std::string_view s : {kSection1, kSection2, kSection3, kSection4, kSection5}) {
      if (s != missing) parts.push_back(s);
    }
    std::string text = "leaf1# show interface counters errors\n";
    for (std::string_view s : parts) text += s;
    Parsed p = parse(kFormat, text);
    ASSERT_TRUE(p.status.isOk());
    EXPECT_TRUE(p.batch.errors.empty());
    std::map<std::string, uint64_t> want = expectedFiveSections();
    std::vector<std::string_view> gone = missing == kSection2
        ? std::vector<std::string_view>{"Single-Col", "Multi-Col", "Late-Col", "Exces-Col", "Carri-Sen", "Runts"}
        : std::vector<std::string_view>{"Stomped-CRC"};
    for (std::string_view h : gone) {
      want.erase(leafPath("Ethernet1/7", column(h)));
      want.erase(leafPath("Ethernet1/8", column(h)));
    }
    EXPECT_EQ(asMap(p.batch), want);
  }
}

TEST(NxosCountersErrorsTest, DashesGiveNoLeafNotZero) {
  Parsed p = parse(kFormat, join({kSection1, kSection2, kSection3}));
  ASSERT_TRUE(p.status.isOk());
  for (std::string_view h : {"FCS-Err", "UnderSize", "Single-Col", "Multi-Col", "Late-Col", "Exces-Col",
                             "Carri-Sen", "SQETest-Err", "Deferred-Tx", "IntMacTx-Er", "IntMacRx-Er"}) {
    EXPECT_FALSE(findUpdate(p.batch, leafPath("Ethernet1/8", column(h)))) << h;
  }
  EXPECT_EQ(u64At(p.batch, leafPath("Ethernet1/8", column("Align-Err"))), 0u);  // a real zero stays
}

// The recorded N9K output (genie golden): four sections plus Stomped-CRC,
// mgmt0 with "--" in seven columns and no Stomped-CRC row.
TEST(NxosCountersErrorsTest, GenieGoldenEveryColumn) {
  Parsed p = parse(kFormat, readFixture("nxos_show_interface_counters_errors__genie_golden.txt"));
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty());
  for (const Update& u : p.batch.updates) EXPECT_EQ(schemaProblem(u.path), "");
  for (const ErrorColumn& c : nxosErrorColumns()) {
    const std::string path = leafPath("Ethernet1/13", c);
    if (c.header == "SQETest-Err") {
      EXPECT_FALSE(findUpdate(p.batch, path));  // "--" on every Ethernet port
      continue;
    }
    const uint64_t want = c.header == "Align-Err" ? 500 : c.header == "OutDiscards" ? 14500 : 0;
    EXPECT_EQ(u64At(p.batch, path), want) << c.header;
  }
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/23", "out-discards")), 20340u);
  for (std::string_view h : {"Xmit-Err", "Rcv-Err", "UnderSize", "OutDiscards", "Carri-Sen", "Runts",
                             "InDiscards", "Stomped-CRC"}) {
    EXPECT_FALSE(findUpdate(p.batch, leafPath("mgmt0", column(h)))) << h;
  }
  EXPECT_EQ(u64At(p.batch, eth("mgmt0", "out-sqe-test-errors")), 0u);
  // 24 Ethernet ports x 19 counted columns + mgmt0's 12.
  EXPECT_EQ(p.batch.updates.size(), 24u * 19u + 12u);
}

// The JSON fixture was built from the same recording: same leaves, same values.
TEST(NxosCountersErrorsTest, JsonGivesWhatTheTextGives) {
  Parsed text = parse(kFormat, readFixture("nxos_show_interface_counters_errors__genie_golden.txt"));
  Parsed json = parse(kFormat,
                      readFixture("SYNTHETIC_nxos_show_interface_counters_errors_json__built_from_genie_golden.json"));
  ASSERT_TRUE(json.status.isOk()) << json.status.toString();
  EXPECT_TRUE(json.batch.errors.empty());
  EXPECT_EQ(asMap(json.batch), asMap(text.batch));
  EXPECT_EQ(u64At(json.batch, eth("Ethernet1/13", "in-alignment-errors")), 500u);
}

// Distinct values through JSON, rows per section, a single-object ROW, a
// string "--" and numbers as strings as NX-API sometimes sends them.
TEST(NxosCountersErrorsTest, JsonEveryKeyWithItsOwnValue) {
  std::string rows;
  uint64_t v = 101;
  for (const ErrorColumn& c : nxosErrorColumns()) {
    rows += std::string(rows.empty() ? "" : ",") + "{\"interface\": \"Ethernet1/7\", \"" +
            std::string(c.json_key) + "\": " + (v % 2 ? std::to_string(v) : "\"" + std::to_string(v) + "\"") + "}";
    ++v;
  }
  rows += R"(,{"interface": "Eth1/8", "eth_fcs_err": "--", "eth_giants": 5})";
  Parsed p = parse(kFormat, "{\"TABLE_interface\": {\"ROW_interface\": [" + rows + "]}}");
  ASSERT_TRUE(p.status.isOk()) << p.status.toString();
  EXPECT_TRUE(p.batch.errors.empty());
  std::map<std::string, uint64_t> want;
  v = 101;
  for (const ErrorColumn& c : nxosErrorColumns()) want[leafPath("Ethernet1/7", c)] = v++;
  want[eth("Ethernet1/8", "in-maxsize-exceeded")] = 5;
  EXPECT_EQ(asMap(p.batch), want);

  Parsed one = parse(kFormat, R"({"TABLE_interface": {"ROW_interface": {"interface": "mgmt0", "eth_align_err": 3}}})");
  ASSERT_TRUE(one.status.isOk());
  EXPECT_EQ(u64At(one.batch, eth("mgmt0", "in-alignment-errors")), 3u);
  EXPECT_EQ(one.batch.updates.size(), 1u);
}

TEST(NxosCountersErrorsTest, DamagedTextIsAnErrorLineNeverAValue) {
  constexpr std::string_view kText = R"nx(
Port          Align-Err    FCS-Err   Xmit-Err
Eth1/1                  1          2          3
Eth1/2                  1          x          3
Eth1/3                  1          2
Eth1/4                  1   99999999999999999999  3
)nx";
  Parsed p = parse(kFormat, kText);
  ASSERT_TRUE(p.status.isOk());
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/1", "in-fcs-errors")), 2u);
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/2", "in-fcs-errors")));  // not a number: row refused
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/3", "out-errors")));     // a cell short: row refused
  EXPECT_FALSE(findUpdate(p.batch, ifc("Ethernet1/4", "in-fcs-errors")));  // overflow: no value
  EXPECT_EQ(u64At(p.batch, ifc("Ethernet1/4", "out-errors")), 3u);         // its neighbours kept
  EXPECT_TRUE(anyErrorContains(p.batch, "line 4"));
  EXPECT_TRUE(anyErrorContains(p.batch, "line 5"));
  EXPECT_TRUE(anyErrorContains(p.batch, "beyond 64 bits"));

  Parsed junk = parse(kFormat, "Port Align-Err\nthis is not a table at all\n");
  EXPECT_FALSE(junk.status.isOk());
  EXPECT_TRUE(junk.batch.updates.empty());
  EXPECT_FALSE(junk.status.message().empty());
}

TEST(NxosCountersErrorsTest, DamagedJsonKeepsRowsBeforeTheDamage) {
  Parsed cut = parse(kFormat, R"({"TABLE_interface": {"ROW_interface": [
      {"interface": "Ethernet1/1", "eth_fcs_err": 9},
      {"interface": "Ethernet1/2", "eth_fcs_err": 1)");
  EXPECT_EQ(u64At(cut.batch, ifc("Ethernet1/1", "in-fcs-errors")), 9u);
  EXPECT_TRUE(anyErrorContains(cut.batch, "JSON damaged"));

  Parsed bad = parse(kFormat, R"({"TABLE_interface": {"ROW_interface": [
      {"interface": "Ethernet1/1", "eth_fcs_err": {"x": 1}, "eth_runts": -4, "eth_giants": 2},
      {"eth_fcs_err": 1}]}})");
  EXPECT_FALSE(findUpdate(bad.batch, ifc("Ethernet1/1", "in-fcs-errors")));
  EXPECT_FALSE(findUpdate(bad.batch, eth("Ethernet1/1", "in-fragment-frames")));
  EXPECT_EQ(u64At(bad.batch, eth("Ethernet1/1", "in-maxsize-exceeded")), 2u);
  EXPECT_TRUE(anyErrorContains(bad.batch, "eth_fcs_err"));
  EXPECT_TRUE(anyErrorContains(bad.batch, "eth_runts"));
  EXPECT_TRUE(anyErrorContains(bad.batch, "no usable interface name"));

  Parsed empty = parse(kFormat, R"({"TABLE_interface": {}})");
  EXPECT_FALSE(empty.status.isOk());
}

}  // namespace
}  // namespace rdmagw::testing
