#include "models/series_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "models/path.h"

namespace rdmagw {
namespace {

std::string hwPath(int dev, int port, std::string_view leaf = "np-cnp-sent") {
  return "/rdma/devices/device[name=mlx5_" + std::to_string(dev) + "]/ports/port[port-num=" +
         std::to_string(port) + "]/state/hw-counters/" + std::string(leaf);
}

class SeriesTableTest : public ::testing::Test {
 protected:
  uint32_t add(std::string_view path) {
    std::string err;
    uint32_t slot = table_.insert(path, &err);
    EXPECT_NE(slot, SeriesTable::kNone) << err;
    return slot;
  }
  PathPieces pieces_;
  SeriesTable table_{&pieces_};
};

TEST_F(SeriesTableTest, FindsWhatWasInsertedAndRebuildsItsPath) {
  const std::string p = hwPath(0, 1);
  uint32_t slot = add(p);
  EXPECT_EQ(table_.find(p), slot);
  EXPECT_EQ(table_.path(table_.at(slot)), p);
  EXPECT_EQ(table_.find(hwPath(0, 2)), SeriesTable::kNone);
  ASSERT_NE(table_.schema(table_.at(slot)), nullptr);
  std::span<const std::string> labels = table_.labels(table_.at(slot));
  EXPECT_EQ(std::vector<std::string>(labels.begin(), labels.end()), (std::vector<std::string>{"mlx5_0", "1"}));
}

TEST_F(SeriesTableTest, IndexStaysConsistentThroughChurn) {
  std::vector<std::string> paths;
  for (int d = 0; d < 50; ++d) {
    for (int p = 0; p < 100; ++p) paths.push_back(hwPath(d, p, p % 2 ? "out-of-buffer" : "np-cnp-sent"));
  }
  for (const std::string& p : paths) add(p);
  std::mt19937 rng(7);
  std::vector<bool> gone(paths.size(), false);
  for (int round = 0; round < 3000; ++round) {
    size_t k = rng() % paths.size();
    uint32_t slot = table_.find(paths[k]);
    if (gone[k]) {
      EXPECT_EQ(slot, SeriesTable::kNone);
      add(paths[k]);
      gone[k] = false;
    } else {
      ASSERT_NE(slot, SeriesTable::kNone);
      table_.erase(slot);
      gone[k] = true;
    }
  }
  size_t live = 0;
  for (size_t k = 0; k < paths.size(); ++k) {
    uint32_t slot = table_.find(paths[k]);
    if (gone[k]) {
      EXPECT_EQ(slot, SeriesTable::kNone) << paths[k];
    } else {
      ASSERT_NE(slot, SeriesTable::kNone) << paths[k];
      EXPECT_EQ(table_.path(table_.at(slot)), paths[k]);
      ++live;
    }
  }
  EXPECT_EQ(table_.size(), live);
}

// Shapes the fast path hands to the full parser must bind exactly as before:
// the schema row and labels of the parsed path, the text kept verbatim.
TEST_F(SeriesTableTest, EscapesOriginsAndKeylessPathsBindAsTheParserSays) {
  const std::string escaped = "/interfaces/interface[name=phys-[eth1/1\\]]/state/counters/in-octets";
  uint32_t a = add(escaped);
  ASSERT_NE(table_.schema(table_.at(a)), nullptr);
  EXPECT_EQ(table_.labels(table_.at(a))[0], "phys-[eth1/1]");
  EXPECT_EQ(table_.path(table_.at(a)), escaped);

  const std::string origin = "openconfig:/interfaces/interface[name=Ethernet1/1]/state/counters/in-octets";
  uint32_t b = add(origin);
  ASSERT_NE(table_.schema(table_.at(b)), nullptr);
  EXPECT_EQ(table_.labels(table_.at(b))[0], "Ethernet1/1");

  const std::string keyless = "/system/state/hostname";
  uint32_t c = add(keyless);
  EXPECT_EQ(table_.schema(table_.at(c)), nullptr);
  EXPECT_TRUE(table_.labels(table_.at(c)).empty());
  EXPECT_EQ(table_.find(keyless), c);

  const std::string escaped_leaf = "/interfaces/interface[name=x]/state/counters/in\\-octets";
  uint32_t d = add(escaped_leaf);  // "\-" is "-": the same schema row as in-octets
  ASSERT_NE(table_.schema(table_.at(d)), nullptr);
  EXPECT_EQ(table_.find(escaped_leaf), d);
  EXPECT_EQ(table_.size(), 4u);
}

TEST_F(SeriesTableTest, RejectsWhatTheParserRejectsWithItsMessage) {
  for (const char* bad : {"/bad[path", "/a[k=v]//b", "/a[k=v]/b/", "/a[k=v]/b]c", "/a[k=v]/b=c", ""}) {
    std::string err;
    EXPECT_EQ(table_.insert(bad, &err), SeriesTable::kNone) << bad;
    EXPECT_EQ(err, Path::parse(bad).status().message()) << bad;
  }
  std::string err;
  EXPECT_EQ(table_.insert("/rdma/devices/device/ports/port[port-num=1]/state/hw-counters/np-cnp-sent", &err),
            SeriesTable::kNone);
  EXPECT_NE(err.find("expects 2"), std::string::npos) << err;
  EXPECT_EQ(table_.size(), 0u);
}

TEST_F(SeriesTableTest, TablesShareInternedPrefixes) {
  SeriesTable other(&pieces_);
  std::string err;
  uint32_t a = add(hwPath(0, 1));
  uint32_t b = other.insert(hwPath(0, 1, "out-of-buffer"), &err);
  ASSERT_NE(b, SeriesTable::kNone) << err;
  EXPECT_EQ(table_.labels(table_.at(a)).data(), other.labels(other.at(b)).data());
  table_.clear();
  EXPECT_EQ(other.labels(other.at(b))[0], "mlx5_0");  // still held by `other`
}

TEST_F(SeriesTableTest, ValuesChangeKindAndReportChanges) {
  SeriesTable::Series& s = table_.at(add("/system/state/anything"));
  Value scratch;
  EXPECT_TRUE(table_.setValue(s, std::string("up")));
  EXPECT_FALSE(table_.setValue(s, std::string("up")));
  EXPECT_EQ(std::get<std::string>(table_.value(s, &scratch)), "up");
  EXPECT_TRUE(table_.setValue(s, uint64_t{0}));  // a string slot number is no value
  EXPECT_EQ(std::get<uint64_t>(table_.value(s, &scratch)), 0u);
  EXPECT_TRUE(table_.setValue(s, int64_t{-3}));
  EXPECT_EQ(std::get<int64_t>(table_.value(s, &scratch)), -3);
  EXPECT_TRUE(table_.setValue(s, 0.5));
  EXPECT_FALSE(table_.setValue(s, 0.5));
  EXPECT_TRUE(table_.setValue(s, std::nan("")));
  EXPECT_TRUE(table_.setValue(s, std::nan("")));  // as Value's ==, NaN never equals itself
  EXPECT_TRUE(table_.setValue(s, true));
  EXPECT_TRUE(std::get<bool>(table_.value(s, &scratch)));
  EXPECT_TRUE(table_.setValue(s, std::string("down")));
  EXPECT_EQ(std::get<std::string>(table_.value(s, &scratch)), "down");
}

TEST_F(SeriesTableTest, ARecordIsFortyEightBytes) {
  // The per-series budget (docs/performance.md): keep the record this size.
  EXPECT_EQ(sizeof(SeriesTable::Series), 48u);
}

}  // namespace
}  // namespace rdmagw
