#include <gtest/gtest.h>

#include <algorithm>

#include "models/ingest_lag.h"
#include "models/lag_histogram.h"
#include "models/self_metrics.h"
#include "models/store.h"

namespace rdmagw {
namespace {

constexpr int64_t kMs = 1000000;

TEST(IngestLagTest, BucketIsTheFirstBoundAtOrAboveTheLag) {
  EXPECT_EQ(IngestLagHistogram::bucketOf(0), 0u);
  EXPECT_EQ(IngestLagHistogram::bucketOf(-5 * kMs), 0u);  // a device clock ahead of ours
  EXPECT_EQ(IngestLagHistogram::bucketOf(1 * kMs), 0u);   // max_seconds="0.001" includes 1 ms
  EXPECT_EQ(IngestLagHistogram::bucketOf(1 * kMs + 1), 1u);
  EXPECT_EQ(IngestLagHistogram::bucketOf(700 * kMs), 9u);  // max_seconds="1"
  EXPECT_EQ(IngestLagHistogram::bucketOf(3600000 * kMs), IngestLagHistogram::kBuckets - 1);  // +Inf
}

TEST(IngestLagTest, StoreApplyCountsEveryTimestampedUpdate) {
  const auto before = IngestLagHistogram::instance().counts();
  Store store;
  const TimestampNs now = nowNs();
  std::vector<Update> ups = {
      {"/interfaces/interface[name=eth1/1]/state/counters/in-octets", Value(uint64_t{1}), now - 300 * kMs},
      {"/interfaces/interface[name=eth1/1]/state/counters/out-octets", Value(uint64_t{2}), now - 300 * kMs},
      {"/interfaces/interface[name=eth1/2]/state/counters/in-octets", Value(uint64_t{3}), 0},  // no timestamp
  };
  store.apply("leaf1", ups);
  const auto after = IngestLagHistogram::instance().counts();
  uint64_t added = 0, slow = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    added += after[i] - before[i];
    if (IngestLagHistogram::kBoundsSeconds.size() > i && IngestLagHistogram::kBoundsSeconds[i] >= 0.5) {
      slow += after[i] - before[i];
    }
  }
  EXPECT_EQ(added, 2u);
  EXPECT_EQ(slow, 2u);  // 300 ms, plus however long apply took: in max_seconds="0.5" or above
}

TEST(IngestLagTest, ExportedAsCumulativeBucketsWithInf) {
  IngestLagHistogram::instance();  // registers
  std::vector<SelfMetricSample> samples = SelfMetrics::instance().collect();
  std::vector<std::string> les;
  double last = -1;
  for (const SelfMetricSample& s : samples) {
    if (s.id != "ingest_lag") continue;
    les.push_back(s.label_values.at(0));
    EXPECT_GE(s.value, last);  // cumulative
    last = s.value;
  }
  ASSERT_EQ(les.size(), IngestLagHistogram::kBuckets);
  EXPECT_EQ(les.front(), "0.001");
  EXPECT_EQ(les[9], "1");
  EXPECT_EQ(les.back(), "+Inf");
}

}  // namespace
}  // namespace rdmagw

namespace rdmagw {
namespace {

TEST(LagHistogramTest, QuantileInterpolatesInsideTheBucketLikePrometheus) {
  constexpr double kBounds[] = {0.001, 0.002, 0.005};
  LagHistogram h(kBounds);
  EXPECT_EQ(h.quantileSeconds(0.99), 0.0);  // nothing recorded
  for (int i = 0; i < 50; ++i) h.record(500'000);    // 0.5 ms: bucket 0
  for (int i = 0; i < 50; ++i) h.record(1'500'000);  // 1.5 ms: bucket 1
  EXPECT_EQ(h.counts(), (std::vector<uint64_t>{50, 50, 0, 0}));
  EXPECT_DOUBLE_EQ(h.quantileSeconds(0.5), 0.001);     // rank 50 ends bucket 0
  EXPECT_DOUBLE_EQ(h.quantileSeconds(0.75), 0.0015);   // half way through bucket 1
  h.record(int64_t{60} * 1'000'000'000);  // a minute: +Inf
  EXPECT_EQ(h.counts().back(), 1u);
  EXPECT_DOUBLE_EQ(h.quantileSeconds(1.0), 0.005);  // +Inf reports the highest bound
}

TEST(LagHistogramTest, ExportsCumulativeBucketsWithShortBounds) {
  constexpr double kBounds[] = {0.00025, 1, 2.5};
  LagHistogram h(kBounds);
  h.record(100'000);
  h.record(2'000'000'000);
  std::vector<SelfMetricSample> out;
  h.appendCumulative("gnmi_change_send_lag", &out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].label_values.at(0), "0.00025");
  EXPECT_EQ(out[1].label_values.at(0), "1");
  EXPECT_EQ(out[2].label_values.at(0), "2.5");
  EXPECT_EQ(out[3].label_values.at(0), "+Inf");
  EXPECT_EQ(out[0].value, 1);
  EXPECT_EQ(out[1].value, 1);
  EXPECT_EQ(out[2].value, 2);
  EXPECT_EQ(out[3].value, 2);
  EXPECT_EQ(out[0].id, "gnmi_change_send_lag");
}

}  // namespace
}  // namespace rdmagw
