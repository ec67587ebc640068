#include "southbound/gpu/nvidia_smi_csv.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace rdmagw::southbound::gpu {
namespace {

constexpr uint64_t kMiB = 1024 * 1024;

// The header line ("timestamp, driver_version, ...") and data rows of the
// `section`-th query-gpu CSV in a capture (0: idle, 1: load).
std::string querySection(const std::string& fixture, int section) {
  std::istringstream in(testing::readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/gpu/" + fixture));
  std::string line;
  std::string out;
  int seen = -1;
  while (std::getline(in, line)) {
    if (line.starts_with("timestamp, ")) ++seen;
    if (seen != section) continue;
    if (line.empty() || line.starts_with("#")) break;
    out += line + "\n";
  }
  return out;
}

TEST(NvidiaSmiCsvTest, QueryCommandAsksForNoHeaderAndNoUnitsWithNameLast) {
  const std::string cmd = nvidiaSmiQueryCommand("/opt/bin/nvidia-smi");
  EXPECT_TRUE(cmd.starts_with("/opt/bin/nvidia-smi --query-gpu=index,uuid,pci.bus_id,")) << cmd;
  EXPECT_TRUE(cmd.ends_with(",name --format=csv,noheader,nounits")) << cmd;
}

std::vector<std::string> splitOnCommaSpace(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t at = line.find(", "); at != std::string::npos; at = line.find(", ", start)) {
    out.push_back(line.substr(start, at - start));
    start = at + 2;
  }
  out.push_back(line.substr(start));
  return out;
}

// kNvidiaSmiQueryFields one by one.
std::vector<std::string> queryFields() {
  std::vector<std::string> out;
  std::istringstream in{std::string(kNvidiaSmiQueryFields)};
  std::string field;
  while (std::getline(in, field, ',')) out.push_back(field);
  return out;
}

// The capture's row cut down to the gateway's query, as nvidia-smi prints it
// with noheader,nounits: the asked-for columns in the asked-for order, each
// number without the unit its header names.
std::string asGatewayQueryRow(const std::string& header_and_row) {
  const size_t newline = header_and_row.find('\n');
  const std::vector<std::string> header = splitOnCommaSpace(header_and_row.substr(0, newline));
  const std::vector<std::string> row =
      splitOnCommaSpace(header_and_row.substr(newline + 1, header_and_row.find('\n', newline + 1) - newline - 1));
  std::string out;
  for (const std::string& field : queryFields()) {
    std::string cell = "<missing " + field + ">";
    for (size_t i = 0; i < header.size() && i < row.size(); ++i) {
      const std::string name = header[i].substr(0, header[i].find(" ["));
      if (name != field) continue;
      cell = row[i];
      if (header[i].find(" [") != std::string::npos && !cell.starts_with("[")) cell = cell.substr(0, cell.find(' '));
    }
    out += (out.empty() ? "" : ", ") + cell;
  }
  return out + "\n";
}

TEST(NvidiaSmiCsvTest, EveryQueriedFieldIsOneNvidiaSmi590Knows) {
  const std::string capture = querySection("nvidia-smi_h100-sxm_590.48.01_capture-excerpt.txt", 1);
  const std::string header = capture.substr(0, capture.find('\n'));
  ASSERT_TRUE(header.starts_with("timestamp, ")) << "the capture's header was not found";
  std::set<std::string> known;
  for (const std::string& cell : splitOnCommaSpace(header)) known.insert(cell.substr(0, cell.find(" [")));
  int checked = 0;
  for (const std::string& field : queryFields()) {
    EXPECT_TRUE(known.count(field)) << field << " is not a query-gpu field of nvidia-smi 590";
    ++checked;
  }
  EXPECT_EQ(checked, 27);
}

// The gateway's own query against the recorded answer: the same values
// whether read by name under the header or by position without it.
TEST(NvidiaSmiCsvTest, GatewayQueryOfTheCaptureReadsAsTheFullCapture) {
  for (const char* fixture :
       {"nvidia-smi_h100-sxm_590.48.01_capture-excerpt.txt", "nvidia-smi_h100-mig_590.48.01_query-gpu-csv.txt"}) {
    const std::string capture = querySection(fixture, 0);
    const NvidiaSmiCsv by_name = parseNvidiaSmiCsvWithHeader(capture);
    const std::string row = asGatewayQueryRow(capture);
    const NvidiaSmiCsv by_position = parseNvidiaSmiCsv(row);
    ASSERT_TRUE(by_position.errors.empty()) << fixture << ": " << by_position.errors[0];
    ASSERT_EQ(by_name.gpus.size(), 1u) << fixture;
    ASSERT_EQ(by_position.gpus.size(), 1u) << fixture;
    const GpuSample& a = by_name.gpus[0];
    const GpuSample& b = by_position.gpus[0];
    EXPECT_EQ(a.uuid, b.uuid) << fixture;
    EXPECT_EQ(a.pci_bus_id, b.pci_bus_id) << fixture;
    EXPECT_EQ(a.model_name, b.model_name) << fixture;
    EXPECT_EQ(a.temperature_c, b.temperature_c) << fixture;
    EXPECT_EQ(a.utilization_gpu_pct, b.utilization_gpu_pct) << fixture;
    EXPECT_EQ(a.memory_used_bytes, b.memory_used_bytes) << fixture;
    EXPECT_EQ(a.memory_total_bytes, b.memory_total_bytes) << fixture;
    EXPECT_EQ(a.power_draw_mw, b.power_draw_mw) << fixture;
    EXPECT_EQ(a.power_limit_mw, b.power_limit_mw) << fixture;
    EXPECT_EQ(a.ecc.aggregate_uncorrected, b.ecc.aggregate_uncorrected) << fixture;
    EXPECT_EQ(a.remapped_rows.pending, b.remapped_rows.pending) << fixture;
    EXPECT_EQ(a.pcie_link.width_max, b.pcie_link.width_max) << fixture;
    EXPECT_EQ(a.mig_enabled, b.mig_enabled) << fixture;
    EXPECT_TRUE(b.memory_total_bytes.has_value()) << fixture << ": " << row;
  }
}

TEST(NvidiaSmiCsvTest, H100UnderLoadFieldByField) {
  const NvidiaSmiCsv csv =
      parseNvidiaSmiCsvWithHeader(querySection("nvidia-smi_h100-sxm_590.48.01_capture-excerpt.txt", 1));
  ASSERT_TRUE(csv.errors.empty()) << csv.errors[0];
  ASSERT_EQ(csv.gpus.size(), 1u);
  const GpuSample& g = csv.gpus[0];
  EXPECT_EQ(g.index, 0u);
  EXPECT_EQ(g.uuid, "GPU-00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(g.pci_bus_id, "00000000:00:09.0");
  EXPECT_EQ(g.model_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g.temperature_c, 59);
  EXPECT_EQ(g.utilization_gpu_pct, 100u);
  EXPECT_EQ(g.utilization_memory_pct, 11u);
  EXPECT_EQ(g.memory_used_bytes, 19818 * kMiB);
  EXPECT_EQ(g.memory_total_bytes, 81559 * kMiB);
  EXPECT_EQ(g.power_draw_mw, 631950u);
  EXPECT_EQ(g.power_limit_mw, 700000u);
  EXPECT_EQ(g.ecc.volatile_corrected, 0u);
  EXPECT_EQ(g.ecc.volatile_uncorrected, 0u);
  EXPECT_EQ(g.ecc.aggregate_corrected, 0u);
  EXPECT_EQ(g.ecc.aggregate_uncorrected, 0u);
  // H100 replaced page retirement by row remapping: "[N/A]", so absent.
  EXPECT_FALSE(g.retired_pages.single_bit.has_value());
  EXPECT_FALSE(g.retired_pages.double_bit.has_value());
  EXPECT_FALSE(g.retired_pages.pending.has_value());
  EXPECT_EQ(g.remapped_rows.correctable, 0u);
  EXPECT_EQ(g.remapped_rows.uncorrectable, 0u);
  EXPECT_EQ(g.remapped_rows.pending, false);
  EXPECT_EQ(g.remapped_rows.failure, false);
  EXPECT_EQ(g.pcie_link.gen_current, 5u);
  EXPECT_EQ(g.pcie_link.gen_max, 5u);
  EXPECT_EQ(g.pcie_link.width_current, 16u);
  EXPECT_EQ(g.pcie_link.width_max, 16u);
  EXPECT_EQ(g.mig_enabled, false);
  EXPECT_FALSE(g.pcie_tx_bytes_per_s.has_value());
  EXPECT_FALSE(g.read_error.has_value());
}

TEST(NvidiaSmiCsvTest, IdleCaptureDiffersFromLoadWhereItShould) {
  const NvidiaSmiCsv csv =
      parseNvidiaSmiCsvWithHeader(querySection("nvidia-smi_h100-sxm_590.48.01_capture-excerpt.txt", 0));
  ASSERT_EQ(csv.gpus.size(), 1u);
  EXPECT_EQ(csv.gpus[0].temperature_c, 41);
  EXPECT_EQ(csv.gpus[0].utilization_gpu_pct, 0u);
  EXPECT_EQ(csv.gpus[0].memory_used_bytes, 0u);
  EXPECT_EQ(csv.gpus[0].power_draw_mw, 69850u);
}

TEST(NvidiaSmiCsvTest, MigGpuHasNoUtilizationButTheRest) {
  const NvidiaSmiCsv csv =
      parseNvidiaSmiCsvWithHeader(querySection("nvidia-smi_h100-mig_590.48.01_query-gpu-csv.txt", 0));
  ASSERT_TRUE(csv.errors.empty()) << csv.errors[0];
  ASSERT_EQ(csv.gpus.size(), 1u);
  const GpuSample& g = csv.gpus[0];
  EXPECT_EQ(g.mig_enabled, true);
  EXPECT_FALSE(g.utilization_gpu_pct.has_value());
  EXPECT_FALSE(g.utilization_memory_pct.has_value());
  EXPECT_EQ(g.memory_used_bytes, 59 * kMiB);
  EXPECT_EQ(g.temperature_c, 42);
  EXPECT_EQ(g.power_draw_mw, 71150u);
  EXPECT_EQ(g.uuid, "GPU-00000000-0000-0000-0000-000000000000");
}

// The same H100 under load as the gateway's own query prints it.
constexpr char kTwoGpus[] =
    "0, GPU-11111111-2222-3333-4444-555555555555, 00000000:3B:00.0, 59, 100, 11, 19818, 81559, 631.95, 700.00, 0, 0, "
    "3, 1, [N/A], [N/A], [N/A], 2, 0, No, No, 5, 5, 16, 16, Disabled, NVIDIA H100 80GB HBM3\n"
    "1, GPU-66666666-7777-8888-9999-000000000000, 00000000:8D:00.0, 33, [N/A], [N/A], 59, 81559, 71.5, 700.00, "
    "[Not Supported], [Not Supported], [Unknown Error], [Unknown Error], 2, 1, Yes, [N/A], [N/A], [N/A], [N/A], 4, 5, "
    "8, 16, Enabled, "
    "NVIDIA A100-SXM4-80GB\n";

TEST(NvidiaSmiCsvTest, GatewayQueryRowsFieldByField) {
  const NvidiaSmiCsv csv = parseNvidiaSmiCsv(kTwoGpus);
  ASSERT_TRUE(csv.errors.empty()) << csv.errors[0];
  ASSERT_EQ(csv.gpus.size(), 2u);
  const GpuSample& a = csv.gpus[0];
  EXPECT_EQ(a.pci_bus_id, "00000000:3B:00.0");
  EXPECT_EQ(a.power_draw_mw, 631950u);
  EXPECT_EQ(a.ecc.aggregate_corrected, 3u);
  EXPECT_EQ(a.ecc.aggregate_uncorrected, 1u);
  EXPECT_EQ(a.remapped_rows.correctable, 2u);
  EXPECT_EQ(a.remapped_rows.uncorrectable, 0u);
  EXPECT_EQ(a.remapped_rows.pending, false);
  EXPECT_EQ(a.remapped_rows.failure, false);
  EXPECT_EQ(a.model_name, "NVIDIA H100 80GB HBM3");
  const GpuSample& b = csv.gpus[1];
  EXPECT_EQ(b.index, 1u);
  EXPECT_EQ(b.uuid, "GPU-66666666-7777-8888-9999-000000000000");
  EXPECT_EQ(b.temperature_c, 33);
  EXPECT_FALSE(b.utilization_gpu_pct.has_value());
  EXPECT_EQ(b.power_draw_mw, 71500u);
  EXPECT_FALSE(b.ecc.volatile_corrected.has_value());
  EXPECT_FALSE(b.ecc.aggregate_uncorrected.has_value());
  EXPECT_EQ(b.retired_pages.single_bit, 2u);
  EXPECT_EQ(b.retired_pages.double_bit, 1u);
  EXPECT_EQ(b.retired_pages.pending, true);
  EXPECT_FALSE(b.remapped_rows.correctable.has_value());
  EXPECT_FALSE(b.remapped_rows.failure.has_value());
  EXPECT_EQ(b.pcie_link.gen_current, 4u);
  EXPECT_EQ(b.pcie_link.width_current, 8u);
  EXPECT_EQ(b.mig_enabled, true);
  EXPECT_EQ(b.model_name, "NVIDIA A100-SXM4-80GB");
}

TEST(NvidiaSmiCsvTest, CommaInModelNameIsJoinedBack) {
  const NvidiaSmiCsv csv = parseNvidiaSmiCsv(
      "0, GPU-1, 00000000:3B:00.0, 40, 1, 2, 3, 4, 5.00, 6.00, 0, 0, 0, 0, 0, 0, No, 0, 0, No, Yes, 1, 4, 16, 16, "
      "Disabled, "
      "Quadro RTX 8000, Rev. B, Engineering Sample\r\n");
  ASSERT_TRUE(csv.errors.empty()) << csv.errors[0];
  ASSERT_EQ(csv.gpus.size(), 1u);
  EXPECT_EQ(csv.gpus[0].model_name, "Quadro RTX 8000, Rev. B, Engineering Sample");
  EXPECT_EQ(csv.gpus[0].mig_enabled, false);
  EXPECT_EQ(csv.gpus[0].retired_pages.pending, false);
  EXPECT_EQ(csv.gpus[0].remapped_rows.failure, true);
}

TEST(NvidiaSmiCsvTest, BadLinesAreReportedAndTheOthersStillRead) {
  std::string text(kTwoGpus);
  const size_t second = text.find('\n') + 1;
  text.insert(second, "Unable to determine the device handle for GPU0000:5E:00.0: Unknown Error\n");
  text +=
      "2, GPU-2, 00000000:9C:00.0, hot, 1, 2, 3, 4, 5.00, 6.00, 0, 0, 0, 0, 0, 0, No, 0, 0, No, Yes, 1, 4, 16, 16, "
      "Disabled, X\n";
  text +=
      "3, GPU-3, 3b:00.0, 40, 1, 2, 3, 4, 5.00, 6.00, 0, 0, 0, 0, 0, 0, No, 0, 0, No, Yes, 1, 4, 16, 16, Disabled, X\n";
  const NvidiaSmiCsv csv = parseNvidiaSmiCsv(text);
  ASSERT_EQ(csv.gpus.size(), 2u);
  EXPECT_EQ(csv.gpus[0].index, 0u);
  EXPECT_EQ(csv.gpus[1].index, 1u);
  ASSERT_EQ(csv.errors.size(), 3u);
  EXPECT_TRUE(csv.errors[0].starts_with("line 2: 1 cells, expected 27")) << csv.errors[0];
  EXPECT_EQ(csv.errors[1], "line 4: temperature.gpu: \"hot\" is not a temperature");
  EXPECT_EQ(csv.errors[2], "line 5: pci.bus_id: \"3b:00.0\" is not a PCI address");
}

TEST(NvidiaSmiCsvTest, NumbersOutOfRangeOrMalformedAreErrors) {
  const std::string row =
      "0, GPU-1, 00000000:3B:00.0, 40, 99999999999, 2, 3, 4, 5.0001, 6.00, 0, 0, 0, 0, 0, 0, "
      "Maybe, 0, 0, No, No, 1, 4, 16, 16, Disabled, X\n";
  const NvidiaSmiCsv csv = parseNvidiaSmiCsv(row);
  EXPECT_TRUE(csv.gpus.empty());
  ASSERT_EQ(csv.errors.size(), 1u);
  EXPECT_EQ(csv.errors[0], "line 1: utilization.gpu: \"99999999999\" is not a count");
}

TEST(NvidiaSmiCsvTest, EmptyOutputIsNoGpuAndNoError) {
  const NvidiaSmiCsv csv = parseNvidiaSmiCsv("\n\n");
  EXPECT_TRUE(csv.gpus.empty());
  EXPECT_TRUE(csv.errors.empty());
}

}  // namespace
}  // namespace rdmagw::southbound::gpu
