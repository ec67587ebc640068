#include "southbound/rdma/lldpctl_json.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/lldp.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::rdma {
namespace {

using text::JsonValue;

// json0 wraps every value in an array: its first element.
const JsonValue* first(const JsonValue* v) {
  while (v != nullptr && v->type == JsonValue::Type::kArray) v = v->items.empty() ? nullptr : &v->items.front();
  return v;
}

const JsonValue* member(const JsonValue* v, std::string_view key) {
  v = first(v);
  return v != nullptr && v->type == JsonValue::Type::kObject ? v->get(key) : nullptr;
}

// A value as text: "x", ["x"], {"value": "x"} or [{"value": "x"}].
std::string text(const JsonValue* v) {
  v = first(v);
  if (v == nullptr) return "";
  if (v->isScalar()) return v->text;
  return v->type == JsonValue::Type::kObject ? text(v->get("value")) : "";
}

// An interface entry of either shape as (netdev, body).
void interfaces(const JsonValue* list, std::vector<std::pair<std::string, const JsonValue*>>& out) {
  if (list == nullptr) return;
  if (list->type == JsonValue::Type::kArray) {
    for (const JsonValue& item : list->items) interfaces(&item, out);
    return;
  }
  if (list->type != JsonValue::Type::kObject) return;
  if (const JsonValue* name = list->get("name"); name != nullptr && (list->get("chassis") || list->get("port"))) {
    out.emplace_back(text(name), list);  // json0: the name is a member
    return;
  }
  for (const auto& [name, body] : list->members) {
    if (body.type == JsonValue::Type::kObject) out.emplace_back(name, &body);  // json: keyed by name
  }
}

}  // namespace

Status parseLldpctlJson(std::string_view text_in, TimestampNs ts, PollBatch& out) {
  const size_t start = text_in.find('{');
  if (start == std::string_view::npos) return Status::corrupt("lldpctl: no JSON document in the output");
  text::JsonParse doc = text::parseJson(text_in.substr(start));
  if (!doc.complete) out.error("lldpctl: JSON damaged (" + doc.error + "); neighbours read before the damage are kept");
  const JsonValue* lldp = doc.root.get("lldp");
  if (lldp == nullptr) {
    return doc.complete ? Status::corrupt("lldpctl: no \"lldp\" member (not lldpctl -f json0/json output)")
                        : Status::corrupt("lldpctl: JSON damaged before any neighbour: " + doc.error);
  }
  std::vector<std::pair<std::string, const JsonValue*>> found;
  if (lldp->type == JsonValue::Type::kArray) {
    for (const JsonValue& l : lldp->items) interfaces(member(&l, "interface"), found);
  } else {
    interfaces(lldp->get("interface"), found);
  }
  std::map<std::string, int> ids;
  for (const auto& [ifname, body] : found) {
    if (ifname.empty()) {
      out.error("lldpctl: an interface without a name, skipped");
      continue;
    }
    const JsonValue* chassis = first(body->get("chassis"));
    std::string system;
    if (chassis != nullptr && chassis->type == JsonValue::Type::kObject) {
      if (chassis->get("id") == nullptr && chassis->members.size() == 1 &&
          chassis->members[0].second.type == JsonValue::Type::kObject) {
        system = chassis->members[0].first;  // json: keyed by its system name
        chassis = &chassis->members[0].second;
      } else {
        system = text(chassis->get("name"));
      }
    }
    const JsonValue* port = first(body->get("port"));
    const std::string chassis_id = text(member(member(chassis, "id"), "value"));
    const std::string port_id = text(member(member(port, "id"), "value"));
    const std::string port_type = lldp::portIdType(text(member(member(port, "id"), "type")));
    const std::string port_desc = text(member(port, "descr"));
    std::string id = !chassis_id.empty() ? chassis_id : text(body->get("rid"));
    if (id.empty()) {
      out.error("lldpctl: " + ifname + ": neighbour without chassis ID or rid, skipped");
      continue;
    }
    if (int seen = ++ids[ifname + "\x1f" + id]; seen > 1) id += "#" + std::to_string(seen);
    const std::pair<std::string_view, const std::string*> leaves[] = {
        {"system-name", &system}, {"port-id", &port_id},       {"port-id-type", &port_type},
        {"chassis-id", &chassis_id}, {"port-description", &port_desc},
    };
    for (const auto& [leaf, value] : leaves) {
      if (!value->empty()) out.add(lldp::neighborPath(ifname, id, leaf), Value{*value}, ts);
    }
  }
  return Status::ok();
}

}  // namespace rdmagw::southbound::rdma
