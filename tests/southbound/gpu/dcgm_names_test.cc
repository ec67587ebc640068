#include "southbound/gpu/dcgm_names.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

// The metric names of dcgm-exporter's counters CSV, enabled rows and the
// commented-out ones ("# DCGM_FI_..., counter, ...") alike.
std::set<std::string> countersCsvMetricNames() {
  std::istringstream in(
      testing::readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/gpu/dcgm-exporter_default-counters.csv"));
  std::set<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    size_t start = line.find("DCGM_");
    if (start == std::string::npos) continue;
    if (line.find_first_not_of("# ") != start) continue;
    const size_t comma = line.find(',', start);
    if (comma == std::string::npos) continue;
    std::string name = line.substr(start, comma - start);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    names.insert(name);
  }
  return names;
}

TEST(DcgmNamesTest, EveryMetricNameIsARowOfTheCountersCsv) {
  const std::set<std::string> names = countersCsvMetricNames();
  ASSERT_GT(names.size(), 30u) << "the counters CSV was not read";
  for (std::string_view metric : dcgm::kMetricNames) {
    EXPECT_TRUE(names.count(std::string(metric))) << metric << " is not in dcgm-exporter's counters CSV";
  }
}

// The CSV lists counters only: the label names come from render_metrics.go.
// Should a later copy of the CSV start naming them, this says to check ours.
TEST(DcgmNamesTest, CountersCsvDoesNotRedefineLabelNames) {
  const std::string csv =
      testing::readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/gpu/dcgm-exporter_default-counters.csv");
  ASSERT_FALSE(csv.empty());
  EXPECT_EQ(csv.find("pci_bus_id"), std::string::npos);
  EXPECT_EQ(csv.find("modelName"), std::string::npos);
}

TEST(DcgmNamesTest, LabelSpellings) {
  EXPECT_EQ(dcgm::kUuidLabel, "UUID");
  EXPECT_EQ(dcgm::kPciBusIdLabel, "pci_bus_id");
  EXPECT_EQ(dcgm::kModelNameLabel, "modelName");
  EXPECT_NE(dcgm::kHostnameLabel, dcgm::kLegacyHostnameLabel);
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
