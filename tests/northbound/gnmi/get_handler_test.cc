// Get answered straight from a filled store (the wire is covered by the
// Python conformance tests).

#include "northbound/gnmi/get_handler.h"

#include <gtest/gtest.h>

#include "tests/northbound/gnmi/test_store.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test
namespace {

::gnmi::Path gp(const std::string& text, const std::string& target = "") {
  ::gnmi::Path p;
  p.set_target(target);
  Path parsed = *Path::parse(text);
  for (const PathElem& e : parsed.elems()) {
    ::gnmi::PathElem* g = p.add_elem();
    g->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*g->mutable_key())[k] = v;
  }
  return p;
}

class GetHandlerTest : public ::testing::Test {
 protected:
  void SetUp() override { fillTestStore(store_); }
  grpc::Status get(const std::string& target, const std::vector<std::string>& paths, ::gnmi::Encoding enc,
                   ::gnmi::GetResponse* out, ::gnmi::GetRequest::DataType type = ::gnmi::GetRequest::ALL) {
    ::gnmi::GetRequest req;
    req.mutable_prefix()->set_target(target);
    for (const std::string& p : paths) *req.add_path() = gp(p);
    req.set_encoding(enc);
    req.set_type(type);
    return answerGet(store_, req, out);
  }
  Store store_;
};

TEST_F(GetHandlerTest, LeafOnOneTargetInProto) {
  ::gnmi::GetResponse r;
  ASSERT_TRUE(get("host01", {kHostXmit}, ::gnmi::PROTO, &r).ok());
  ASSERT_EQ(r.notification_size(), 1);
  const ::gnmi::Notification& n = r.notification(0);
  EXPECT_EQ(n.prefix().target(), "host01");
  EXPECT_EQ(n.timestamp(), kTs1);
  ASSERT_EQ(n.update_size(), 1);
  EXPECT_EQ(n.update(0).val().uint_val(), kBig);
}

TEST_F(GetHandlerTest, WildcardTargetGivesOneNotificationPerTarget) {
  ::gnmi::GetResponse r;
  ASSERT_TRUE(get("*", {"/interfaces/interface[name=*]/state/counters/in-octets"}, ::gnmi::PROTO, &r).ok());
  ASSERT_EQ(r.notification_size(), 3);
  EXPECT_EQ(r.notification(0).prefix().target(), "host01");
  EXPECT_EQ(r.notification(1).prefix().target(), "host02");
  EXPECT_EQ(r.notification(2).prefix().target(), "leaf01");
  EXPECT_EQ(r.notification(2).update_size(), 2);
  EXPECT_EQ(r.notification(2).timestamp(), kTs2);
}

TEST_F(GetHandlerTest, ContainerInJsonIsOneGroupedUpdate) {
  ::gnmi::GetResponse r;
  ASSERT_TRUE(get("host02", {"/rdma/devices/device[name=mlx5_0]/ports"}, ::gnmi::JSON_IETF, &r).ok());
  ASSERT_EQ(r.notification_size(), 1);
  ASSERT_EQ(r.notification(0).update_size(), 1);
  EXPECT_EQ(r.notification(0).update(0).val().json_ietf_val(),
            "{\"rdmagw-rdma:port\":[{\"port-num\":1,\"state\":{\"counters\":{\"port-xmit-octets\":\"1152921504606846983\"},"
            "\"rate\":\"100000000000\",\"state\":\"ACTIVE\"}}]}");
  // JSON: names and values as the store holds them, keys as strings.
  r.Clear();
  ASSERT_TRUE(get("host02", {"/rdma/devices/device[name=mlx5_0]/ports"}, ::gnmi::JSON, &r).ok());
  EXPECT_EQ(r.notification(0).update(0).val().json_val(),
            "{\"port\":[{\"port-num\":\"1\",\"state\":{\"counters\":{\"port-xmit-octets\":1152921504606846983},"
            "\"rate\":100000000000,\"state\":\"ACTIVE\"}}]}");
}

TEST_F(GetHandlerTest, ConfigHasNoUpdatesAndErrorsHaveTheirCodes) {
  ::gnmi::GetResponse r;
  ASSERT_TRUE(get("host01", {kHostFw}, ::gnmi::JSON, &r, ::gnmi::GetRequest::CONFIG).ok());
  ASSERT_EQ(r.notification_size(), 1);
  EXPECT_EQ(r.notification(0).update_size(), 0);
  r.Clear();
  EXPECT_EQ(get("host01", {"/qos"}, ::gnmi::JSON, &r).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(get("nosuch", {"/"}, ::gnmi::JSON, &r).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(get("host01", {"/"}, ::gnmi::ASCII, &r).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  ::gnmi::GetRequest bad;
  bad.add_path()->add_elem();  // empty name
  grpc::Status st = answerGet(store_, bad, &r);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("path[0]: path element 0 has an empty name"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::testing
