#pragma once
// The SNMP notifications: one per verdict whose changes are sent as an
// SNMPv2 notification. The rows are the schema's (models/schema.yaml,
// notifications): a row names the verdict code's column of one of our MIB
// tables, the columns carried with it, and the notification's place under
// the notifications arc.
//
// What is sent when (notification_watcher.h): on every change of the code,
// including back to a normal code, and when a row first appears with a code
// that is not normal (an alarm present at gateway start alerts). A row that
// disappears (the verdict's inputs are gone) sends nothing.

#include <span>
#include <string_view>

#include "models/schema.h"

namespace rdmagw::northbound::snmp {

using NotificationDef = NotificationSchema;

inline std::span<const NotificationDef> notificationTable() { return SchemaTable::instance().notifications(); }

// The notifications arc (notifications are <arc>.<sub_id>) and the two
// objects every notification carries, with instance .0.
inline std::string_view notificationsArc() { return SchemaTable::instance().notificationsArc(); }
inline std::string_view notifyTargetOid() { return SchemaTable::instance().notifyObject(NotifyRole::kTarget).oid; }
inline std::string_view notifyPortOid() { return SchemaTable::instance().notifyObject(NotifyRole::kPort).oid; }

}  // namespace rdmagw::northbound::snmp
