// Lints our exposition with the real `promtool check metrics`: the format
// and naming checks Prometheus maintainers apply to exporters.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "models/path.h"
#include "models/schema.h"
#include "northbound/prometheus/exposition.h"
#include "tests/northbound/prometheus/test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::prometheus {
namespace {

constexpr const char* kPromtool = "/usr/bin/promtool";

class PromtoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kPromtool, X_OK) != 0) GTEST_SKIP() << kPromtool << " not installed";
    ASSERT_FALSE(dir_.empty());
  }

  testing::CommandResult check(const std::string& exposition) {
    const std::string file = dir_ + "/metrics.txt";
    EXPECT_TRUE(testing::writeFile(file, exposition));
    return testing::runCommand(std::string(kPromtool) + " check metrics < " + file);
  }

  // promtool's findings; empty means clean. One finding is expected and
  // dropped: "camelCase" on a family carrying a label another exporter
  // spells so (dcgm-exporter's UUID, modelName: kForeignLabelSpellings),
  // whose spelling is the point.
  static std::string unexpectedProblems(const std::string& output) {
    std::set<std::string> foreign_families;
    const auto foreign = [](std::string_view label) {
      return std::find(std::begin(kForeignLabelSpellings), std::end(kForeignLabelSpellings), label) !=
             std::end(kForeignLabelSpellings);
    };
    for (const LeafSchema& row : SchemaTable::instance().leaves()) {
      bool any = foreign(row.prom_info_label);
      for (std::string_view l : SchemaTable::splitLabels(row.labels)) any = any || foreign(l);
      if (any) foreign_families.insert(std::string(row.prom_name));
    }
    std::string out;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
      const std::string family = line.substr(0, line.find(' '));
      if (line.find("should be written in 'snake_case' not 'camelCase'") != std::string::npos &&
          foreign_families.count(family) > 0) {
        continue;
      }
      out += line + "\n";
    }
    return out;
  }

  testing::TempDir tmp_{"rdmagw-prom"};
  std::string dir_ = tmp_.path();
};

TEST_F(PromtoolTest, TestStoreExpositionIsClean) {
  Store store;
  testing::fillStore(&store);
  ExpositionWriter writer;
  testing::CommandResult r = check(writer.build(store));
  // Exit 3 is "lint problems found"; anything else is a parse failure.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.output;
  EXPECT_EQ(unexpectedProblems(r.output), "");
}

// Every row of the schema table at once, so a badly named family added to
// the table later fails here rather than in someone's Prometheus.
TEST_F(PromtoolTest, EverySchemaFamilyIsClean) {
  Store store;
  size_t rows = 0;
  for (const LeafSchema& row : SchemaTable::instance().leaves()) {
    Result<Path> keyless = Path::parse(row.path);
    ASSERT_TRUE(keyless.isOk()) << row.path;
    // Key exactly the list elements of the path (interface, queue,
    // priority, device, port, nic, dscp-priority...), as the schema's lists say.
    Path path;
    std::string prefix;
    for (const PathElem& e : keyless->elems()) {
      prefix += "/" + e.name;
      const bool keyed = &e != &keyless->elems().back() && SchemaTable::instance().findList(prefix) != nullptr;
      if (!keyed) {
        path.add(e.name);
      } else {
        path.add(e.name, {{"name", e.name == "port" || e.name == "priority" ? "1" : "x0"}});
      }
    }
    Value v = row.kind == LeafKind::kString ? Value(std::string("v\"1\\")) : Value(uint64_t{12345});
    testing::put(&store, "t1", path.toString(), v);
    if (row.prom_info_label.empty()) ++rows;  // an info row's leaves make one series
  }
  rows += SchemaTable::instance().infoRows().size();
  TargetHealth h;
  h.up = true;
  h.kind = "rdma-host";
  h.transport = "sysfs";
  h.last_success_ns = 1700000000'000000000;
  h.labels = {{"rack", "r\n1"}};
  store.setHealth("t1", h);
  ExpositionWriter writer;
  ExpositionStats stats;
  std::string text = writer.build(store, &stats);
  EXPECT_EQ(stats.series, rows);
  testing::CommandResult r = check(text);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.output;
  EXPECT_EQ(unexpectedProblems(r.output), "");
}

// The check above is only worth something if promtool can fail it.
TEST_F(PromtoolTest, PromtoolRejectsABadExposition) {
  testing::CommandResult r = check(
      "# HELP rdmagw_bad_bytes A counter without the suffix.\n"
      "# TYPE rdmagw_bad_bytes counter\n"
      "rdmagw_bad_bytes{target=\"x\"} 1\n");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("_total"), std::string::npos) << r.output;
  EXPECT_NE(unexpectedProblems(r.output), "");

  testing::CommandResult syntax = check("rdmagw_broken{target=\"unterminated} 1\n");
  EXPECT_NE(syntax.exit_code, 0) << syntax.output;
  EXPECT_NE(syntax.output, "");
}

}  // namespace
}  // namespace rdmagw::northbound::prometheus
