#include "southbound/gnmi/subscribe_request.h"

#include <gtest/gtest.h>

namespace rdmagw::southbound::gnmi {
namespace {

::gnmi::CapabilityResponse offering(std::initializer_list<::gnmi::Encoding> encs) {
  ::gnmi::CapabilityResponse c;
  for (auto e : encs) c.add_supported_encodings(e);
  return c;
}

TEST(SubscribeRequestTest, PrefersProtoThenJsonThenJsonIetf) {
  EXPECT_EQ(*chooseEncoding(offering({::gnmi::JSON, ::gnmi::PROTO}), EncodingChoice::kAuto), ::gnmi::PROTO);
  EXPECT_EQ(*chooseEncoding(offering({::gnmi::JSON_IETF, ::gnmi::JSON}), EncodingChoice::kAuto), ::gnmi::JSON);
  EXPECT_EQ(*chooseEncoding(offering({::gnmi::JSON_IETF}), EncodingChoice::kAuto), ::gnmi::JSON_IETF);
  EXPECT_EQ(*chooseEncoding(offering({}), EncodingChoice::kAuto), ::gnmi::JSON);
  EXPECT_FALSE(chooseEncoding(offering({::gnmi::ASCII}), EncodingChoice::kAuto).isOk());
}

TEST(SubscribeRequestTest, ForcedEncodingMustBeOffered) {
  // NX-OS offers JSON and PROTO, never JSON_IETF.
  auto nxos = offering({::gnmi::JSON, ::gnmi::PROTO});
  EXPECT_EQ(*chooseEncoding(nxos, EncodingChoice::kJson), ::gnmi::JSON);
  EXPECT_FALSE(chooseEncoding(nxos, EncodingChoice::kJsonIetf).isOk());
}

TEST(SubscribeRequestTest, OneStreamRequestFullPathsNoPrefix) {
  std::vector<GnmiSubscription> subs = {
      {"openconfig:/interfaces/interface[name=eth1/1]/state/counters", SubscriptionMode::kSample,
       std::chrono::seconds(10)},
      {"openconfig:/interfaces/interface/state/oper-status", SubscriptionMode::kOnChange, {}},
      {"device:/System/intf-items/phys-items/PhysIf-list/dbgDot3Stats-items", SubscriptionMode::kSample,
       std::chrono::seconds(1)},
  };
  Result<::gnmi::SubscribeRequest> r = buildSubscribeRequest(subs, ::gnmi::PROTO);
  ASSERT_TRUE(r.isOk());
  const ::gnmi::SubscriptionList& l = r->subscribe();
  EXPECT_FALSE(l.has_prefix());
  EXPECT_EQ(l.mode(), ::gnmi::SubscriptionList::STREAM);
  EXPECT_EQ(l.encoding(), ::gnmi::PROTO);
  ASSERT_EQ(l.subscription_size(), 3);
  const ::gnmi::Subscription& s0 = l.subscription(0);
  EXPECT_EQ(s0.mode(), ::gnmi::SAMPLE);
  EXPECT_EQ(s0.sample_interval(), 10'000'000'000ULL);
  EXPECT_EQ(s0.path().origin(), "openconfig");
  ASSERT_EQ(s0.path().elem_size(), 4);
  EXPECT_EQ(s0.path().elem(1).key().at("name"), "eth1/1");
  EXPECT_EQ(l.subscription(1).mode(), ::gnmi::ON_CHANGE);
  EXPECT_EQ(l.subscription(1).sample_interval(), 0u);
  EXPECT_EQ(l.subscription(2).path().origin(), "device");
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
