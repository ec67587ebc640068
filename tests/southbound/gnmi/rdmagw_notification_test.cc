#include "southbound/gnmi/rdmagw_notification.h"

#include <gtest/gtest.h>

namespace rdmagw::southbound::gnmi {
namespace {

void addElem(::gnmi::Path* p, const std::string& name, const std::string& key = "", const std::string& value = "") {
  auto* e = p->add_elem();
  e->set_name(name);
  if (!key.empty()) (*e->mutable_key())[key] = value;
}

TEST(RdmagwNotificationTest, JoinsPrefixAndPathWithKeysAndStampsTheSendersTime) {
  ::gnmi::Notification n;
  n.set_timestamp(1234);
  n.mutable_prefix()->set_target("leaf1");
  addElem(n.mutable_prefix(), "interfaces");
  addElem(n.mutable_prefix(), "interface", "name", "Ethernet1/1");
  auto* u = n.add_update();
  addElem(u->mutable_path(), "state");
  addElem(u->mutable_path(), "mtu");
  u->mutable_val()->set_uint_val(9216);
  auto* s = n.add_update();
  addElem(s->mutable_path(), "state");
  addElem(s->mutable_path(), "description");
  s->mutable_val()->set_string_val("to host1");

  NotificationChanges c = fromRdmagwNotification(n);
  ASSERT_EQ(c.updates.size(), 2u);
  EXPECT_EQ(c.updates[0].path, "/interfaces/interface[name=Ethernet1/1]/state/mtu");
  EXPECT_EQ(std::get<uint64_t>(c.updates[0].value), 9216u);
  EXPECT_EQ(c.updates[0].timestamp_ns, 1234);
  EXPECT_EQ(std::get<std::string>(c.updates[1].value), "to host1");
  EXPECT_TRUE(c.deletes.empty());
}

TEST(RdmagwNotificationTest, SkipsNonScalarValuesAndKeepsDeletes) {
  ::gnmi::Notification n;
  addElem(n.mutable_prefix(), "interfaces");
  auto* u = n.add_update();
  addElem(u->mutable_path(), "interface", "name", "eth0");
  u->mutable_val()->set_json_val("{\"mtu\": 1500}");
  auto* d = n.add_delete_();
  addElem(d, "interface", "name", "eth1");

  NotificationChanges c = fromRdmagwNotification(n);
  EXPECT_TRUE(c.updates.empty());
  ASSERT_EQ(c.deletes.size(), 1u);
  EXPECT_EQ(c.deletes[0].toString(), "/interfaces/interface[name=eth1]");
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
