#include "northbound/gnmi/upstream_link.h"

#include "models/path.h"

namespace rdmagw::northbound::gnmi {
namespace {

// The same conversion as the gateway-chaining relay: a member always
// answers PROTO with scalar values.
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

std::string pathText(const ::gnmi::Path& prefix, const ::gnmi::Path& path) {
  Path out;
  for (const ::gnmi::Path* part : {&prefix, &path}) {
    for (const ::gnmi::PathElem& e : part->elem()) {
      out.add(e.name(), std::map<std::string, std::string>(e.key().begin(), e.key().end()));
    }
  }
  return out.toString();
}

}  // namespace

std::shared_ptr<UpstreamLink> UpstreamLink::open(uint64_t id, const std::shared_ptr<grpc::Channel>& channel,
                                                 ::gnmi::SubscribeRequest request,
                                                 const std::vector<std::pair<std::string, std::string>>& metadata,
                                                 std::shared_ptr<LinkSink> sink,
                                                 std::shared_ptr<MemberForwardStats> counts) {
  std::shared_ptr<UpstreamLink> link(new UpstreamLink(id, std::move(sink), std::move(counts)));
  link->counts_->streams.fetch_add(1);
  link->self_ = link;
  link->stub_ = ::gnmi::gNMI::NewStub(channel);
  for (const auto& [k, v] : metadata) link->ctx_.AddMetadata(k, v);
  link->request_ = std::move(request);
  link->stub_->async()->Subscribe(&link->ctx_, link.get());
  // The request stays open (no half-close): the member streams until cancelled.
  link->StartWrite(&link->request_);
  link->StartRead(&link->response_);
  link->StartCall();
  return link;
}

void UpstreamLink::OnReadDone(bool ok) {
  if (!ok) return;  // the call is over: OnDone follows
  counts_->bytes.fetch_add(response_.ByteSizeLong());
  if (response_.has_update()) {
    counts_->notifications.fetch_add(1);
    handle(response_.update());
  } else if (response_.sync_response()) {
    sink_->with([this](LinkReceiver& r) { r.synced(id_); });
  }
  StartRead(&response_);
}

void UpstreamLink::handle(const ::gnmi::Notification& n) {
  const std::string& target = n.prefix().target();
  if (target.empty()) return;
  std::vector<ChangedLeaf> leaves;
  leaves.reserve(size_t(n.update_size() + n.delete__size()));
  for (const ::gnmi::Update& u : n.update()) {
    ChangedLeaf c;
    if (!toValue(u.val(), &c.value)) continue;
    c.path = pathText(n.prefix(), u.path());
    c.leaf = cache_.lookup(c.path);
    if (!c.leaf) continue;
    c.target = target;
    c.timestamp_ns = n.timestamp();  // the owner's collection time
    leaves.push_back(std::move(c));
  }
  for (const ::gnmi::Path& d : n.delete_()) {
    ChangedLeaf c;
    c.path = pathText(n.prefix(), d);
    c.leaf = cache_.lookup(c.path);
    if (!c.leaf) continue;
    c.target = target;
    c.timestamp_ns = n.timestamp();
    c.deleted = true;
    leaves.push_back(std::move(c));
  }
  if (leaves.empty()) return;
  sink_->with([&](LinkReceiver& r) { r.leaves(id_, leaves); });
}

void UpstreamLink::OnDone(const grpc::Status& status) {
  counts_->streams.fetch_sub(1);
  sink_->with([&](LinkReceiver& r) { r.ended(id_, status); });
  std::shared_ptr<UpstreamLink> keep = std::move(self_);  // may be the last reference: freed on return
}

}  // namespace rdmagw::northbound::gnmi
