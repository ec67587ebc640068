#include "northbound/gnmi/subscription_spec.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "northbound/gnmi/capabilities.h"

namespace rdmagw::northbound::gnmi {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

::gnmi::SubscriptionList list(::gnmi::SubscriptionMode mode, uint64_t sample_ns, uint64_t heartbeat_ns = 0) {
  ::gnmi::SubscriptionList l;
  l.set_encoding(::gnmi::PROTO);
  ::gnmi::Subscription* s = l.add_subscription();
  s->mutable_path()->add_elem()->set_name("interfaces");
  s->set_mode(mode);
  s->set_sample_interval(sample_ns);
  s->set_heartbeat_interval(heartbeat_ns);
  return l;
}

TEST(SubscriptionSpecTest, IntervalsAgainstTheLowest) {
  SampleLimits limits{milliseconds(500), milliseconds(5000)};
  SubscriptionSpec spec;
  ASSERT_TRUE(parseSubscriptionList(list(::gnmi::SAMPLE, 0), limits, &spec).ok());
  EXPECT_EQ(spec.entries[0].interval, milliseconds(500));
  ASSERT_TRUE(parseSubscriptionList(list(::gnmi::SAMPLE, 2'000'000'000), limits, &spec).ok());
  EXPECT_EQ(spec.entries[0].interval, milliseconds(2000));
  ASSERT_TRUE(parseSubscriptionList(list(::gnmi::TARGET_DEFINED, 0), limits, &spec).ok());
  EXPECT_EQ(spec.entries[0].interval, milliseconds(5000));
  grpc::Status st = parseSubscriptionList(list(::gnmi::SAMPLE, 100'000'000), limits, &spec);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("sample_interval 100ms is below this server's lowest sample interval, 500ms"),
            std::string::npos) << st.error_message();
  st = parseSubscriptionList(list(::gnmi::ON_CHANGE, 0, 1000), limits, &spec);
  EXPECT_NE(st.error_message().find("heartbeat_interval 1us"), std::string::npos) << st.error_message();
}

TEST(SubscriptionSpecTest, RefusesWhatItCannotServe) {
  SampleLimits limits;
  SubscriptionSpec spec;
  ::gnmi::SubscriptionList l = list(::gnmi::SAMPLE, 0);
  l.set_encoding(::gnmi::BYTES);
  EXPECT_EQ(parseSubscriptionList(l, limits, &spec).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  l = list(::gnmi::SAMPLE, 0);
  l.clear_subscription();
  EXPECT_EQ(parseSubscriptionList(l, limits, &spec).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  l = list(::gnmi::SAMPLE, 0);
  l.mutable_subscription(0)->mutable_path()->add_elem();  // empty name
  grpc::Status st = parseSubscriptionList(l, limits, &spec);
  EXPECT_NE(st.error_message().find("subscription[0]: path element 1 has an empty name"), std::string::npos);
}

TEST(CapabilitiesTest, OurModulesCarryTheRevisionsInYang) {
  int ours = 0;
  for (const ServedModel& m : servedModels()) {
    if (m.name.rfind("rdmagw-", 0) != 0) continue;
    ++ours;
    std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/yang/" + std::string(m.name) + ".yang");
    ASSERT_TRUE(in) << m.name;
    std::stringstream ss;
    ss << in.rdbuf();
    std::smatch match;
    const std::string text = ss.str();
    ASSERT_TRUE(std::regex_search(text, match, std::regex("\\n  revision (\\S+) \\{")));
    EXPECT_EQ(match[1].str(), std::string(m.version)) << m.name;
  }
  EXPECT_EQ(ours, 7);
  ::gnmi::CapabilityResponse r;
  fillCapabilities(&r);
  EXPECT_EQ(r.gnmi_version(), "0.10.0");
  EXPECT_EQ(r.supported_encodings_size(), 3);
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
