#include "northbound/prometheus/exposition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "models/path.h"
#include "northbound/prometheus/text_format.h"
#include "tests/northbound/prometheus/test_util.h"

namespace rdmagw::northbound::prometheus {
namespace {

using testing::fillStore;
using testing::put;
using testing::splitLines;

bool hasLine(const std::string& text, const std::string& line) {
  auto lines = splitLines(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

size_t countPrefix(const std::string& text, const std::string& prefix) {
  size_t n = 0;
  for (const std::string& l : splitLines(text)) n += l.rfind(prefix, 0) == 0 ? 1 : 0;
  return n;
}

std::string familyOf(const std::string& sample) {
  return sample.substr(0, sample.find_first_of("{ "));
}

class ExpositionTest : public ::testing::Test {
 protected:
  void SetUp() override { fillStore(&store_); }
  std::string build(ExpositionStats* stats = nullptr) { return writer_.build(store_, stats); }

  Store store_;
  ExpositionWriter writer_;
};

TEST_F(ExpositionTest, CounterSampleHasTargetThenRowLabelsThenExtraLabels) {
  std::string text = build();
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} 42"))
      << text;
  EXPECT_TRUE(hasLine(text,
      "rdmagw_interface_pfc_in_pause_frames_total{target=\"host01\",interface=\"ens1f0\",priority=\"3\",rack=\"r1\"} 7"));
}

TEST_F(ExpositionTest, HelpAndTypeOncePerFamilyAndFamiliesAreContiguous) {
  std::string text = build();
  std::set<std::string> typed, closed;
  std::string current;
  for (const std::string& line : splitLines(text)) {
    ASSERT_FALSE(line.empty());
    if (line.rfind("# HELP ", 0) == 0) {
      std::string name = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_EQ(countPrefix(text, "# HELP " + name + " "), 1u) << name;
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      std::string name = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_TRUE(typed.insert(name).second) << "TYPE twice: " << name;
      if (!current.empty()) closed.insert(current);
      current = name;
      continue;
    }
    std::string family = familyOf(line);
    EXPECT_EQ(family, current) << "sample outside its family block: " << line;
    EXPECT_EQ(closed.count(family), 0u) << "family split: " << family;
  }
  EXPECT_EQ(countPrefix(text, "# HELP rdmagw_rdma_port_np_cnp_sent_total "), 1u);
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_rdma_port_np_cnp_sent_total counter"));
  EXPECT_TRUE(hasLine(text, "# HELP rdmagw_rdma_port_np_cnp_sent_total "
                            "Congestion notification packets sent by the receiver (notification point)."))
      << text;
}

TEST_F(ExpositionTest, FamiliesWithoutSeriesHaveNoHeader) {
  std::string text = build();
  EXPECT_EQ(text.find("rdmagw_interface_in_bytes_total"), std::string::npos);
}

TEST_F(ExpositionTest, ManySeriesOfOneFamilyStayTogether) {
  for (int d = 0; d < 3; ++d) {
    for (int p = 1; p <= 2; ++p) {
      std::string dev = "mlx5_" + std::to_string(d);
      put(&store_, "host02",
          "/rdma/devices/device[name=" + dev + "]/ports/port[port-num=" + std::to_string(p) +
              "]/state/hw-counters/np-cnp-sent",
          uint64_t(d * 10 + p));
      put(&store_, "host02",
          "/rdma/devices/device[name=" + dev + "]/ports/port[port-num=" + std::to_string(p) +
              "]/state/hw-counters/rp-cnp-handled",
          uint64_t(d * 10 + p));
    }
  }
  std::string text = build();
  std::vector<std::string> order;
  for (const std::string& line : splitLines(text)) {
    if (line[0] == '#') continue;
    std::string f = familyOf(line);
    if (order.empty() || order.back() != f) order.push_back(f);
  }
  std::set<std::string> unique(order.begin(), order.end());
  EXPECT_EQ(unique.size(), order.size()) << "a family appears in more than one block";
  EXPECT_EQ(countPrefix(text, "rdmagw_rdma_port_np_cnp_sent_total{"), 7u);
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"host02\",device=\"mlx5_2\",port=\"2\"} 22"));
}

TEST_F(ExpositionTest, LabelValuesAreEscaped) {
  std::string path = Path()
                         .add("interfaces")
                         .add("interface", {{"name", "e\"x\\y\nz"}})
                         .add("state")
                         .add("counters")
                         .add("in-octets")
                         .toString();
  put(&store_, "host01", path, uint64_t{9});
  std::string text = build();
  EXPECT_TRUE(hasLine(text,
      "rdmagw_interface_in_bytes_total{target=\"host01\",interface=\"e\\\"x\\\\y\\nz\",rack=\"r1\"} 9"))
      << text;
}

TEST_F(ExpositionTest, TargetNameAndExtraLabelValuesAreEscaped) {
  put(&store_, "sw\"1", testing::kCnpPath, uint64_t{1});
  TargetHealth h;
  h.up = true;
  h.labels = {{"site", "a\\b\nc\"d"}};
  store_.setHealth("sw\"1", h);
  std::string text = build();
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"sw\\\"1\",device=\"mlx5_0\",port=\"1\","
      "site=\"a\\\\b\\nc\\\"d\"} 1")) << text;
  EXPECT_TRUE(hasLine(text, "rdmagw_target_up{target=\"sw\\\"1\",site=\"a\\\\b\\nc\\\"d\"} 1"));
}

TEST(TextFormatTest, HelpEscapesBackslashAndNewlineButNotQuotes) {
  std::string out;
  prometheus::appendHelpText(&out, "a\\b\nc\"d");
  EXPECT_EQ(out, "a\\\\b\\nc\"d");
  out.clear();
  prometheus::appendLabelValue(&out, "a\\b\nc\"d");
  EXPECT_EQ(out, "a\\\\b\\nc\\\"d");
}

TEST(TextFormatTest, NumbersUseShortestRoundTripAndPrometheusSpecials) {
  std::string out;
  prometheus::appendDouble(&out, 0.1);
  out += ' ';
  prometheus::appendDouble(&out, 1e-6);
  out += ' ';
  prometheus::appendDouble(&out, std::numeric_limits<double>::quiet_NaN());
  out += ' ';
  prometheus::appendDouble(&out, -std::numeric_limits<double>::infinity());
  out += ' ';
  prometheus::appendUint(&out, UINT64_MAX);
  EXPECT_EQ(out, "0.1 1e-06 NaN -Inf 18446744073709551615");
  EXPECT_EQ(prometheus::sanitizeLabelName("fw-version"), "fw_version");
  EXPECT_EQ(prometheus::sanitizeLabelName("9rack.x"), "_9rack_x");
}

TEST_F(ExpositionTest, ScaledValuesUseBaseUnits) {
  std::string text = build();
  // 1 500 000 us of pause -> 1.5 s; 100 Gb/s -> 12.5e9 bytes/s, written as Go's
  // FormatFloat(v, 'g', -1) would (the official client's spelling).
  EXPECT_TRUE(hasLine(text,
      "rdmagw_interface_pfc_in_pause_duration_seconds_total{target=\"host01\",interface=\"ens1f0\","
      "priority=\"3\",rack=\"r1\"} 1.5")) << text;
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_rate_bytes_per_second{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} 1.25e+10"))
      << text;
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_rdma_port_rate_bytes_per_second gauge"));
}

TEST_F(ExpositionTest, LargeCountersPrintAsExactIntegers) {
  put(&store_, "host01",
      "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/rp-cnp-handled",
      uint64_t{18446744073709551615u});
  std::string text = build();
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_rp_cnp_handled_total{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} "
      "18446744073709551615")) << text;
}

TEST_F(ExpositionTest, GaugesKeepSignAndFraction) {
  const std::string state_id = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/state-id";
  put(&store_, "host01", state_id, int64_t{-4});
  EXPECT_TRUE(hasLine(build(),
      "rdmagw_rdma_port_state_id{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} -4"));
  put(&store_, "host01", state_id, 2.25);
  EXPECT_TRUE(hasLine(build(),
      "rdmagw_rdma_port_state_id{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} 2.25"));
}

TEST_F(ExpositionTest, StringLeavesBecomeInfoGauges) {
  std::string text = build();
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_rdma_device_fw_version_info gauge"));
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_device_fw_version_info{target=\"host01\",device=\"mlx5_0\",fw_version=\"14.28.2006\","
      "rack=\"r1\"} 1")) << text;
  put(&store_, "host01", "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/phys-state",
      std::string("LinkUp"));
  EXPECT_TRUE(hasLine(build(),
      "rdmagw_rdma_port_phys_state_info{target=\"host01\",device=\"mlx5_0\",port=\"1\","
      "phys_state=\"LinkUp\",rack=\"r1\"} 1"));
}

TEST_F(ExpositionTest, DownTargetWithoutSeriesStillHasUpZero) {
  std::string text = build();
  EXPECT_TRUE(hasLine(text, "rdmagw_target_up{target=\"down1\"} 0")) << text;
  EXPECT_TRUE(hasLine(text, "rdmagw_target_up{target=\"host01\",rack=\"r1\"} 1"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_info{target=\"down1\",kind=\"nexus\",transport=\"gnmi\"} 1"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_poll_errors_total{target=\"down1\"} 3"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_series{target=\"down1\"} 0"));
  for (const std::string& line : splitLines(text)) {
    if (line.find("target=\"down1\"") != std::string::npos) {
      EXPECT_EQ(line.rfind("rdmagw_target_", 0), 0u) << "device series for a target with no data: " << line;
    }
  }
}

TEST_F(ExpositionTest, GatewayFamiliesCarryHealth) {
  std::string text = build();
  EXPECT_TRUE(hasLine(text,
      "rdmagw_target_info{target=\"host01\",kind=\"rdma-host\",transport=\"sysfs\",rack=\"r1\"} 1")) << text;
  EXPECT_TRUE(hasLine(text, "rdmagw_target_poll_duration_seconds{target=\"host01\",rack=\"r1\"} 0.25"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_polls_total{target=\"host01\",rack=\"r1\"} 10"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_poll_errors_total{target=\"host01\",rack=\"r1\"} 1"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_read_errors_total{target=\"host01\",rack=\"r1\"} 2"));
  EXPECT_TRUE(hasLine(text,
      "rdmagw_target_last_success_timestamp_seconds{target=\"host01\",rack=\"r1\"} 1700000000.5"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_series{target=\"host01\",rack=\"r1\"} 6"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_value_resets_total{target=\"host01\",rack=\"r1\"} 0"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_rejected_updates_total{target=\"host01\",rack=\"r1\"} 0"));
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_target_polls_total counter"));
  // Never succeeded: no timestamp rather than 1970.
  EXPECT_EQ(text.find("rdmagw_target_last_success_timestamp_seconds{target=\"down1\""), std::string::npos);
  EXPECT_EQ(countPrefix(text, "rdmagw_exposition_duration_seconds "), 1u);
}

TEST_F(ExpositionTest, ScrapeDurationReportsThePreviousBuild) {
  build();
  ExpositionStats stats;
  std::string text = build(&stats);
  ASSERT_EQ(countPrefix(text, "rdmagw_exposition_duration_seconds "), 1u);
  EXPECT_EQ(text.find("rdmagw_exposition_duration_seconds 0\n"), std::string::npos);
  EXPECT_GT(stats.build_ns, 0);
  EXPECT_GT(stats.build_cpu_ns, 0);
  EXPECT_EQ(stats.bytes, text.size());
  ASSERT_EQ(countPrefix(text, "rdmagw_exposition_cpu_seconds "), 1u);
  EXPECT_EQ(text.find("rdmagw_exposition_cpu_seconds 0\n"), std::string::npos);
}

// The build's own wall-clock time, so a prebuilt exposition's age can be
// read at the scrape (timestamp(m) - m).
TEST_F(ExpositionTest, ExpositionCarriesItsBuildTime) {
  const double before = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string text = build();
  const double after = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  ASSERT_EQ(countPrefix(text, "rdmagw_exposition_timestamp_seconds "), 1u) << text;
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_exposition_timestamp_seconds gauge"));
  const std::string sample = "\nrdmagw_exposition_timestamp_seconds ";  // not the HELP line
  const size_t at = text.find(sample);
  ASSERT_NE(at, std::string::npos);
  const double stamped = std::strtod(text.c_str() + at + sample.size(), nullptr);
  EXPECT_GE(stamped, before - 0.001);
  EXPECT_LE(stamped, after + 0.001);
}

// An exposition holds the writer's pooled buckets until it is let go: a
// scrape built meanwhile (a second Prometheus) gets buckets of its own, and
// neither overwrites the other's text.
TEST_F(ExpositionTest, AnExpositionKeepsItsTextWhileAnotherIsBuilt) {
  Exposition first;
  writer_.build(store_, &first);
  const std::string before = first.join();
  testing::put(&store_, "host01", testing::kCnpPath, uint64_t{4242});

  Exposition second;
  writer_.build(store_, &second);
  EXPECT_EQ(first.join(), before);
  EXPECT_TRUE(hasLine(before, "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} 42"));
  const std::string after = second.join();
  EXPECT_TRUE(hasLine(after, "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} 4242"))
      << after;
  size_t total = 0;
  for (std::string_view piece : second.pieces()) total += piece.size();
  EXPECT_EQ(second.size(), total);
  EXPECT_EQ(after.size(), total);
}

TEST(ExpositionEmptyTest, GatewayHeadersAreAlwaysPresent) {
  Store store;
  ExpositionWriter writer;
  std::string text = writer.build(store);
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_target_up gauge")) << text;
  EXPECT_TRUE(hasLine(text, "# TYPE rdmagw_target_rejected_updates_total counter"));
  EXPECT_TRUE(hasLine(text, "rdmagw_exposition_duration_seconds 0"));
  EXPECT_TRUE(hasLine(text, "rdmagw_exposition_cpu_seconds 0"));
  EXPECT_EQ(countPrefix(text, "rdmagw_target_up{"), 0u);
}

TEST_F(ExpositionTest, RemovedSeriesDisappear) {
  Result<Path> prefix = Path::parse("/interfaces/interface[name=ens1f0]");
  ASSERT_TRUE(prefix.isOk());
  EXPECT_EQ(store_.remove("host01", *prefix), 2u);
  std::string text = build();
  EXPECT_EQ(text.find("rdmagw_interface_pfc_in_pause_frames_total"), std::string::npos) << text;
  EXPECT_EQ(text.find("ens1f0"), std::string::npos);
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\",rack=\"r1\"} 42"));
}

TEST_F(ExpositionTest, ExpiredTargetKeepsOnlyItsHealth) {
  store_.expireData("host01");
  std::string text = build();
  EXPECT_EQ(text.find("rdmagw_rdma_"), std::string::npos) << text;
  EXPECT_TRUE(hasLine(text, "rdmagw_target_up{target=\"host01\",rack=\"r1\"} 1"));
  EXPECT_TRUE(hasLine(text, "rdmagw_target_series{target=\"host01\",rack=\"r1\"} 0"));
  store_.removeTarget("host01");
  EXPECT_EQ(build().find("host01"), std::string::npos);
}

TEST_F(ExpositionTest, ExtraLabelsAreSanitizedAndNeverShadowSchemaLabels) {
  TargetHealth h;
  h.up = true;
  h.labels = {{"site-name", "dc1"}, {"device", "evil"}, {"target", "evil"}, {"__name__", "evil"},
              {"site_name", "dup"}, {"", "empty"}};
  store_.setHealth("host01", h);
  std::string text = build();
  EXPECT_TRUE(hasLine(text,
      "rdmagw_rdma_port_np_cnp_sent_total{target=\"host01\",device=\"mlx5_0\",port=\"1\",site_name=\"dc1\"} 42"))
      << text;
  EXPECT_EQ(text.find("evil"), std::string::npos);
  EXPECT_EQ(text.find("dup"), std::string::npos);
}

TEST_F(ExpositionTest, UnknownLeavesAreSkippedButCounted) {
  ExpositionStats stats;
  std::string text = build(&stats);
  EXPECT_EQ(text.find("sprockets"), std::string::npos);
  EXPECT_EQ(stats.unknown_skipped, 1u);
  EXPECT_EQ(stats.series, 5u);
  EXPECT_EQ(stats.invalid_skipped, 0u);
}

TEST_F(ExpositionTest, NoTimestampsOnSamples) {
  for (const std::string& line : splitLines(build())) {
    if (line[0] == '#') continue;
    size_t brace = line.rfind('}');
    std::string after = line.substr(brace == std::string::npos ? line.find(' ') + 1 : brace + 2);
    EXPECT_EQ(after.find(' '), std::string::npos) << line;
  }
}

// Informal speed check: prints series/s; never fails on time (the machine is shared).
TEST(ExpositionSpeedTest, BuildsTwoHundredThousandSeries) {
  Store store;
  std::vector<Update> batch;
  const char* leaves[] = {"np-cnp-sent", "rp-cnp-handled", "np-ecn-marked-roce-packets", "out-of-buffer"};
  for (int host = 0; host < 50; ++host) {
    batch.clear();
    for (int dev = 0; dev < 25; ++dev) {
      for (int port = 1; port <= 40; ++port) {
        for (const char* leaf : leaves) {
          batch.push_back(Update{"/rdma/devices/device[name=mlx5_" + std::to_string(dev) +
                                     "]/ports/port[port-num=" + std::to_string(port) +
                                     "]/state/hw-counters/" + leaf,
                                 Value(uint64_t(host * 1000003 + dev * 7 + port)), 1, {}});
        }
      }
    }
    store.apply("host" + std::to_string(host), batch);
  }
  ASSERT_EQ(store.seriesCount(), 200000u);
  ExpositionWriter writer;
  writer.build(store);  // warm the size hints, as a steady scrape loop would
  ExpositionStats stats;
  std::string text = writer.build(store, &stats);
  EXPECT_EQ(stats.series, 200000u);
  std::printf("[ speed    ] %zu series, %zu bytes in %.1f ms = %.2f M series/s\n", stats.series,
              stats.bytes, stats.build_ns / 1e6, stats.series / (stats.build_ns / 1e9) / 1e6);
}

}  // namespace
}  // namespace rdmagw::northbound::prometheus
