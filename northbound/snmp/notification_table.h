#pragma once
// THE table of SNMP notifications: one row per verdict whose changes are
// sent as an SNMPv2 notification. A row names a column of one of our MIB
// tables (a verdict code the analytics writes into the store, served there
// through the schema table's `oid` column) and the notification's place
// under rdmagwNotifications (RDMAGW-MIB, rdmagwMIB 0). mibs/gen_rdmagw_mib.py
// reads these rows too, so a new notification for a new verdict is one row
// here and a regenerated MIB.
//
// What is sent when (notification_watcher.h): on every change of the code,
// including back to a normal code, and when a row first appears with a code
// that is not normal (an alarm present at gateway start alerts). A row that
// disappears (the verdict's inputs are gone) sends nothing.

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace rdmagw::northbound::snmp {

struct NotificationDef {
  std::string_view type;        // label of the self-metrics, e.g. "pause-storm"
  std::string_view name;        // NOTIFICATION-TYPE name in RDMAGW-MIB
  uint32_t sub_id;              // under rdmagwNotifications
  std::string_view table;       // MIB table of the verdict (MibCatalog name)
  uint32_t code_column;         // the verdict code's column: a change of it is sent
  uint32_t extra_columns[3];    // also carried, same instance (0: none); the verdict text first
  uint8_t port_parts;           // leading index parts naming the port (rest: priority...)
  uint32_t normal_mask;         // bit c set: code c is normal (no alert when a row first appears with it)
  std::string_view description; // the NOTIFICATION-TYPE's DESCRIPTION
};

std::span<const NotificationDef> notificationTable();

// rdmagwNotifications (notifications are rdmagwNotifications.<sub_id>) and
// the two objects every notification carries, with instance .0.
inline constexpr std::string_view kNotificationsArc = "1.3.6.1.4.1.32473.1.0";
inline constexpr std::string_view kNotifyTargetOid = "1.3.6.1.4.1.32473.1.3.1.0";  // rdmagwNotifyTarget.0
inline constexpr std::string_view kNotifyPortOid = "1.3.6.1.4.1.32473.1.3.2.0";    // rdmagwNotifyPort.0

}  // namespace rdmagw::northbound::snmp
