#include "southbound/gnmi/rdmagw_notification.h"

#include <map>
#include <string>

namespace rdmagw::southbound::gnmi {
namespace {

std::string pathText(const ::gnmi::Path& prefix, const ::gnmi::Path& path) {
  Path out;
  for (const ::gnmi::Path* part : {&prefix, &path}) {
    for (const ::gnmi::PathElem& e : part->elem()) {
      out.add(e.name(), std::map<std::string, std::string>(e.key().begin(), e.key().end()));
    }
  }
  return out.toString();
}

bool toValue(const ::gnmi::TypedValue& v, Value* out) {
  switch (v.value_case()) {
    case ::gnmi::TypedValue::kUintVal: *out = v.uint_val(); return true;
    case ::gnmi::TypedValue::kIntVal: *out = v.int_val(); return true;
    case ::gnmi::TypedValue::kDoubleVal: *out = v.double_val(); return true;
    case ::gnmi::TypedValue::kBoolVal: *out = v.bool_val(); return true;
    case ::gnmi::TypedValue::kStringVal: *out = v.string_val(); return true;
    default: return false;
  }
}

}  // namespace

NotificationChanges fromRdmagwNotification(const ::gnmi::Notification& n) {
  NotificationChanges out;
  out.updates.reserve(n.update_size());
  for (const ::gnmi::Update& u : n.update()) {
    Update up;
    if (!toValue(u.val(), &up.value)) continue;
    up.path = pathText(n.prefix(), u.path());
    up.timestamp_ns = n.timestamp();
    out.updates.push_back(std::move(up));
  }
  for (const ::gnmi::Path& d : n.delete_()) {
    Result<Path> p = Path::parse(pathText(n.prefix(), d));
    if (p.isOk()) out.deletes.push_back(std::move(*p));
  }
  return out;
}

}  // namespace rdmagw::southbound::gnmi
