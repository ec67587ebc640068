#include "southbound/gnmi/gnmi_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace rdmagw::southbound::gnmi {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

GnmiConfig valid() {
  GnmiConfig c;
  c.address = "leaf1:50051";
  return c;
}

TEST(GnmiConfigTest, DefaultsAreValidTlsOn) {
  GnmiConfig c = valid();
  EXPECT_TRUE(c.validate().isOk()) << c.validate().message();
  EXPECT_TRUE(c.tls);
  EXPECT_FALSE(c.plaintext);
  EXPECT_FALSE(c.insecure_skip_verify);
}

TEST(GnmiConfigTest, CollectsEveryErrorWithFieldNames) {
  GnmiConfig c;
  c.address = "leaf1";
  c.cert_file = "/c.pem";
  c.sample_interval = milliseconds(10);
  c.keepalive_time = seconds(10);
  c.subscriptions.push_back({"openconfig:/a[name=x", SubscriptionMode::kSample, {}});
  Status s = c.validate();
  ASSERT_FALSE(s.isOk());
  for (const char* field : {"address", "cert_file", "sample_interval", "keepalive_time", "subscriptions[0].path"}) {
    EXPECT_NE(s.message().find(field), std::string::npos) << field << " in " << s.message();
  }
}

TEST(GnmiConfigTest, FirstDialSpreadKeepsAnyNumberOfSwitchesEvenlyApart) {
  EXPECT_EQ(firstDialSpread(0, seconds(10)), milliseconds(0));  // the first switch dials at once
  EXPECT_EQ(firstDialSpread(1, seconds(10)), milliseconds(6180));
  EXPECT_EQ(firstDialSpread(2, seconds(10)), milliseconds(2360));
  for (size_t n : {2u, 5u, 80u, 1000u}) {
    std::vector<int64_t> at;
    for (size_t i = 0; i < n; ++i) {
      const milliseconds d = firstDialSpread(i, seconds(10));
      ASSERT_GE(d.count(), 0);
      ASSERT_LT(d, seconds(10));
      at.push_back(d.count());
    }
    std::sort(at.begin(), at.end());
    at.push_back(10000 + at.front());  // the gap that wraps into the next interval
    int64_t widest = 0;
    for (size_t i = 1; i < at.size(); ++i) widest = std::max(widest, at[i] - at[i - 1]);
    // Evenly spread: no gap much wider than interval / n (the three-gap bound is 2.62 x).
    EXPECT_LE(widest, int64_t(2.7 * 10000.0 / double(n)) + 1) << n << " switches";
  }
}

TEST(GnmiConfigTest, FirstDialDelayMustNotBeNegative) {
  GnmiConfig c = valid();
  c.first_dial_delay = milliseconds(-1);
  EXPECT_NE(c.validate().message().find("first_dial_delay"), std::string::npos);
}

TEST(GnmiConfigTest, InsecureOptionsMustBeExplicitAndConsistent) {
  GnmiConfig c = valid();
  c.tls = false;
  EXPECT_FALSE(c.validate().isOk());  // tls off without saying plaintext
  c.plaintext = true;
  EXPECT_TRUE(c.validate().isOk());
  c.insecure_skip_verify = true;
  EXPECT_FALSE(c.validate().isOk());
}

TEST(GnmiConfigTest, DefaultSubscriptionsCoverCountersPfcAndStateOnChange) {
  std::vector<GnmiSubscription> subs = nxosDefaultSubscriptions(seconds(10));
  bool counters = false, ipqos = false, on_change = false;
  for (const GnmiSubscription& s : subs) {
    counters |= s.path == "openconfig:/interfaces/interface/state/counters";
    ipqos |= s.path.find("QueuingStats-list") != std::string::npos;
    on_change |= s.mode == SubscriptionMode::kOnChange && s.path.find("oper-status") != std::string::npos;
    if (s.mode == SubscriptionMode::kSample) EXPECT_EQ(s.sample_interval, seconds(10)) << s.path;
  }
  EXPECT_TRUE(counters);
  EXPECT_TRUE(ipqos);
  EXPECT_TRUE(on_change);
}

TEST(GnmiConfigTest, IdleTimeoutExceedsThreeSampleIntervals) {
  GnmiConfig c = valid();
  c.sample_interval = seconds(10);
  EXPECT_GT(c.effectiveIdleTimeout(), seconds(30));
  c.subscriptions = {{"openconfig:/interfaces/interface/state/oper-status", SubscriptionMode::kOnChange, {}}};
  EXPECT_EQ(c.effectiveIdleTimeout().count(), 0);  // ON_CHANGE only: quiet is normal
  c.idle_timeout = seconds(5);
  EXPECT_EQ(c.effectiveIdleTimeout(), seconds(5));
}

TEST(GnmiConfigTest, ParsesModesAndEncodings) {
  EXPECT_EQ(*parseSubscriptionMode("on_change"), SubscriptionMode::kOnChange);
  EXPECT_EQ(*parseSubscriptionMode("sample"), SubscriptionMode::kSample);
  EXPECT_FALSE(parseSubscriptionMode("poll").isOk());
  EXPECT_EQ(*parseEncodingChoice("proto"), EncodingChoice::kProto);
  EXPECT_FALSE(parseEncodingChoice("xml").isOk());
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
