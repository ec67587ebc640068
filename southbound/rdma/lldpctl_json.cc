#include "southbound/rdma/lldpctl_json.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/lldp.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::rdma {
namespace {

using text::JsonNode;

// json0 wraps every value in an array: its first element.
const JsonNode* first(const JsonNode* v) {
  while (v != nullptr && v->kind == JsonNode::Kind::kArray) v = v->firstChild();
  return v;
}

const JsonNode* member(const JsonNode* v, std::string_view key) {
  v = first(v);
  return v != nullptr && v->kind == JsonNode::Kind::kObject ? v->get(key) : nullptr;
}

// A value as text: "x", ["x"], {"value": "x"} or [{"value": "x"}].
std::string text(const JsonNode* v) {
  v = first(v);
  if (v == nullptr) return "";
  if (v->isScalar()) return std::string(v->text);
  return v->kind == JsonNode::Kind::kObject ? text(v->get("value")) : "";
}

// An interface entry of either shape as (netdev, body).
void interfaces(const JsonNode* list, std::vector<std::pair<std::string, const JsonNode*>>& out) {
  if (list == nullptr) return;
  if (list->kind == JsonNode::Kind::kArray) {
    for (const JsonNode& item : list->children()) interfaces(&item, out);
    return;
  }
  if (list->kind != JsonNode::Kind::kObject) return;
  if (const JsonNode* name = list->get("name"); name != nullptr && (list->get("chassis") || list->get("port"))) {
    out.emplace_back(text(name), list);  // json0: the name is a member
    return;
  }
  for (const JsonNode& body : list->children()) {
    if (body.kind == JsonNode::Kind::kObject) out.emplace_back(body.key, &body);  // json: keyed by name
  }
}

}  // namespace

Status parseLldpctlJson(std::string_view text_in, TimestampNs ts, PollBatch& out) {
  const size_t start = text_in.find('{');
  if (start == std::string_view::npos) return Status::corrupt("lldpctl: no JSON document in the output");
  text::JsonParse doc = text::parseJson(text_in.substr(start));
  if (!doc.complete) out.error("lldpctl: JSON damaged (" + doc.error + "); neighbours read before the damage are kept");
  const JsonNode* lldp = doc.root().get("lldp");
  if (lldp == nullptr) {
    return doc.complete ? Status::corrupt("lldpctl: no \"lldp\" member (not lldpctl -f json0/json output)")
                        : Status::corrupt("lldpctl: JSON damaged before any neighbour: " + doc.error);
  }
  std::vector<std::pair<std::string, const JsonNode*>> found;
  if (lldp->kind == JsonNode::Kind::kArray) {
    for (const JsonNode& l : lldp->children()) interfaces(member(&l, "interface"), found);
  } else {
    interfaces(lldp->get("interface"), found);
  }
  std::map<std::string, int> ids;
  for (const auto& [ifname, body] : found) {
    if (ifname.empty()) {
      out.error("lldpctl: an interface without a name, skipped");
      continue;
    }
    const JsonNode* chassis = first(body->get("chassis"));
    std::string system;
    if (chassis != nullptr && chassis->kind == JsonNode::Kind::kObject) {
      const JsonNode* only = chassis->firstChild();
      if (chassis->get("id") == nullptr && only != nullptr && only->nextSibling() == nullptr &&
          only->kind == JsonNode::Kind::kObject) {
        system = std::string(only->key);  // json: keyed by its system name
        chassis = only;
      } else {
        system = text(chassis->get("name"));
      }
    }
    const JsonNode* port = first(body->get("port"));
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
