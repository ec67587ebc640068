#pragma once
// Finds the verdict changes to notify by comparing each snapshot the agent
// thread takes into service with the one before (notification_table.h says
// which columns, and what is sent when). Pure: no Net-SNMP, no store; the
// sender (notification_sender.h) turns its results into PDUs.
//
// Granularity: a verdict that flips and flips back between two snapshots
// (SnmpConfig::refresh_period) is not seen; the analytics' window is longer
// than that period in any sensible config.

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "northbound/snmp/mib_snapshot.h"
#include "northbound/snmp/notification_table.h"
#include "northbound/snmp/oid.h"

namespace rdmagw::northbound::snmp {

// A varbind value owned by the notification (the snapshot may be gone
// before it is sent).
struct NotifyValue {
  SnmpType type = SnmpType::kAbsent;
  uint64_t number = 0;
  std::string text;
  CellView view() const { return CellView{type, number, text}; }
};

struct PendingNotification {
  size_t def = 0;          // index into notificationTable()
  std::string target;      // the device: its context name
  std::string port;        // rdmagwNotifyPort
  uint64_t code = 0;       // the new code
  // The verdict columns (code first, then the row's extra columns), each
  // with its full OID (column OID + the row's instance).
  std::vector<std::pair<Oid, NotifyValue>> varbinds;
};

class NotificationWatcher {
 public:
  // The changes between the previous snapshot given and this one, in
  // (type, target, instance) order. The first call reports every row whose
  // code is not normal.
  std::vector<PendingNotification> diff(const MibSnapshot& snap);

 private:
  using Key = std::tuple<size_t, std::string, Oid>;  // (def, context, row index)
  std::map<Key, uint64_t> last_;                     // code per verdict row
};

}  // namespace rdmagw::northbound::snmp
