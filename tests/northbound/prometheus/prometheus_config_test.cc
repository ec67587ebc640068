#include "northbound/prometheus/prometheus_config.h"

#include <gtest/gtest.h>

namespace rdmagw::northbound::prometheus {
namespace {

Status check(std::string listen, std::string path = "/metrics") {
  PrometheusConfig c;
  c.listen = std::move(listen);
  c.path = std::move(path);
  return c.validate();
}

TEST(PrometheusConfigTest, DefaultsAreValid) { EXPECT_TRUE(PrometheusConfig{}.validate().isOk()); }

TEST(PrometheusConfigTest, AcceptsHostPortEphemeralPortAndBracketedIpv6) {
  EXPECT_TRUE(check("127.0.0.1:0").isOk());
  EXPECT_TRUE(check("0.0.0.0:9464").isOk());
  EXPECT_TRUE(check("localhost:65535").isOk());
  EXPECT_TRUE(check("[::1]:9464").isOk());
  EXPECT_TRUE(check("[::]:0").isOk());
}

TEST(PrometheusConfigTest, RejectsMalformedListenAddresses) {
  for (const char* bad : {"", "9464", ":9464", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:http",
                          "::1:9464", "[::1]9464", "[::1]:", "[zz]:1", "a b:1"}) {
    Status st = check(bad);
    EXPECT_FALSE(st.isOk()) << bad;
    EXPECT_EQ(st.message().rfind("listen: ", 0), 0u) << st.message();
  }
}

TEST(PrometheusConfigTest, PathMustStartWithSlash) {
  EXPECT_TRUE(check("127.0.0.1:0", "/custom/metrics").isOk());
  EXPECT_FALSE(check("127.0.0.1:0", "metrics").isOk());
  EXPECT_FALSE(check("127.0.0.1:0", "").isOk());
  EXPECT_FALSE(check("127.0.0.1:0", "/a b").isOk());
  EXPECT_FALSE(check("127.0.0.1:0", "/healthz").isOk());
}

TEST(PrometheusConfigTest, RefreshPeriodIsZeroOrAUsablePeriod) {
  using std::chrono::milliseconds;
  PrometheusConfig c;
  EXPECT_EQ(c.refresh_period.count(), 0);  // off by default: every scrape is built fresh
  for (long long ok : {0LL, 100LL, 5000LL, 60000LL}) {
    c.refresh_period = milliseconds(ok);
    EXPECT_TRUE(c.validate().isOk()) << ok;
  }
  for (long long bad : {-1LL, 1LL, 99LL, 60001LL}) {
    c.refresh_period = milliseconds(bad);
    Status st = c.validate();
    EXPECT_FALSE(st.isOk()) << bad;
    EXPECT_EQ(st.message().rfind("refresh_period: ", 0), 0u) << st.message();
  }
}

TEST(PrometheusConfigTest, ReportsEveryProblemAtOnce) {
  Status st = check("nope", "metrics");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("listen: "), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("path: "), std::string::npos) << st.message();
}

}  // namespace
}  // namespace rdmagw::northbound::prometheus
