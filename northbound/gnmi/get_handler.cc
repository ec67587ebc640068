#include "northbound/gnmi/get_handler.h"

#include <algorithm>
#include <map>

#include "northbound/gnmi/ietf_scalar.h"
#include "northbound/gnmi/json_tree.h"
#include "northbound/gnmi/path_pattern.h"
#include "northbound/gnmi/typed_value.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {
namespace {

grpc::Status invalid(const std::string& msg) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg);
}

// Leaves one request path selected on one target.
struct Selection {
  TimestampNs newest = 0;
  size_t leaves = 0;
  std::vector<std::pair<Path, Value>> proto_leaves;  // PROTO, or JSON leaf paths
  // JSON containers, keyed by the container instance's path string.
  std::map<std::string, std::pair<Path, JsonTree>> groups;
};

void collect(const Store& store, std::string_view target, const PathPattern& pattern,
             bool json, Selection* sel) {
  store.forEachIn(target, [&](const SeriesView& v) {
    Result<Path> path = Path::parse(v.path);
    if (!path.isOk()) return;
    std::optional<size_t> used = pattern.match(*path);
    if (!used) return;
    ++sel->leaves;
    sel->newest = std::max(sel->newest, v.timestamp_ns);
    if (!json || *used == path->elems().size()) {
      sel->proto_leaves.emplace_back(*path, v.value);
      return;
    }
    Path container = leadingElems(*path, *used);
    auto [it, fresh] = sel->groups.try_emplace(container.toString());
    if (fresh) it->second.first = std::move(container);
    it->second.second.add(path->elems(), *used, v.value);
  });
}

void render(const Selection& sel, std::string_view target, ::gnmi::Encoding encoding,
            bool config_only, ::gnmi::Notification* n) {
  n->set_timestamp(sel.newest);
  n->mutable_prefix()->set_target(std::string(target));
  if (config_only) return;  // the gateway holds no configuration leaves
  const bool ietf = encoding == ::gnmi::JSON_IETF;
  const YangTree& yang = YangTree::schema();
  for (const auto& [path, value] : sel.proto_leaves) {
    const YangNode* node = ietf ? yang.find(path) : nullptr;
    // JSON_IETF has no encoding for a leaf the modules do not define.
    if (ietf && (node == nullptr || !node->is_leaf)) continue;
    const YangLeafType* type = ietf ? &node->leaf : nullptr;
    ::gnmi::Update* u = n->add_update();
    if (!setTypedValue(value, encoding, u->mutable_val(), type)) {
      n->mutable_update()->RemoveLast();
      reportIetfMismatch(path.toString(), *type, value);
      continue;
    }
    toGnmiPath(path, u->mutable_path());
  }
  for (const auto& [key, group] : sel.groups) {
    const YangNode* node = ietf ? yang.find(group.first) : nullptr;
    if (ietf && (node == nullptr || node->is_leaf)) continue;  // not a container the modules define
    ::gnmi::Update* u = n->add_update();
    toGnmiPath(group.first, u->mutable_path());
    if (ietf) {
      u->mutable_val()->set_json_ietf_val(group.second.renderIetf(node, key));
    } else {
      u->mutable_val()->set_json_val(group.second.renderJson());
    }
  }
}

}  // namespace

grpc::Status answerGet(const Store& store, const ::gnmi::GetRequest& request,
                       ::gnmi::GetResponse* response) {
  if (!servedEncoding(request.encoding())) {
    const std::string name = ::gnmi::Encoding_IsValid(request.encoding())
                                 ? ::gnmi::Encoding_Name(request.encoding())
                                 : std::to_string(request.encoding());
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                        "encoding " + name + " is not served; use PROTO, JSON or JSON_IETF");
  }
  if (!::gnmi::GetRequest::DataType_IsValid(request.type())) {
    return invalid("unknown Get data type " + std::to_string(request.type()));
  }
  const bool config_only = request.type() == ::gnmi::GetRequest::CONFIG;
  const bool json = request.encoding() != ::gnmi::PROTO;
  std::vector<::gnmi::Path> paths(request.path().begin(), request.path().end());
  if (paths.empty()) paths.emplace_back();  // the prefix alone names what to get

  std::vector<PathPattern> patterns;
  for (size_t i = 0; i < paths.size(); ++i) {
    Result<PathPattern> p = PathPattern::fromRequest(request.prefix(), paths[i]);
    if (!p.isOk()) return invalid("path[" + std::to_string(i) + "]: " + p.status().message());
    patterns.push_back(*p);
  }
  std::vector<std::string> targets;
  for (const TargetStatus& t : store.targets()) targets.push_back(t.name);
  const PathPattern& first = patterns.front();
  if (!first.singleTarget().empty() &&
      std::find(targets.begin(), targets.end(), first.singleTarget()) == targets.end()) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND,
                        "target \"" + first.target() + "\" is not known to this gateway");
  }
  for (const PathPattern& pattern : patterns) {
    bool found = false;
    for (const std::string& target : targets) {
      if (!pattern.selectsTarget(target)) continue;
      Selection sel;
      collect(store, target, pattern, json, &sel);
      if (sel.leaves == 0) continue;
      found = true;
      render(sel, target, request.encoding(), config_only, response->add_notification());
    }
    if (!found) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND,
                          "path " + pattern.toString() + " matches no data" +
                              (first.target().empty() || first.target() == "*"
                                   ? std::string(" on any target")
                                   : " on target \"" + first.target() + "\""));
    }
  }
  return grpc::Status::OK;
}

}  // namespace rdmagw::northbound::gnmi
