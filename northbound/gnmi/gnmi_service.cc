#include "northbound/gnmi/gnmi_service.h"

#include <algorithm>

#include "northbound/gnmi/capabilities.h"
#include "northbound/gnmi/fleet_get.h"
#include "northbound/gnmi/fleet_routes.h"
#include "northbound/gnmi/get_handler.h"
#include "northbound/gnmi/subscribe_session.h"

namespace rdmagw::northbound::gnmi {
namespace {

std::string metadataValue(const grpc::CallbackServerContext& ctx, const char* key) {
  const auto& md = ctx.client_metadata();
  auto it = md.find(key);
  return it == md.end() ? std::string() : std::string(it->second.data(), it->second.size());
}

// "ipv4:127.0.0.1:5432" -> "ipv4:127.0.0.1": limits count per host, not per connection.
std::string peerHost(const std::string& peer) {
  const size_t colon = peer.rfind(':');
  return colon == std::string::npos || colon < 5 ? peer : peer.substr(0, colon);
}

// What a forwarded call carries on: the client's username and password, so
// the owner checks them as its own users say.
std::vector<std::pair<std::string, std::string>> credentialsOf(const grpc::CallbackServerContext& ctx) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* key : {"username", "password"}) {
    const std::string v = metadataValue(ctx, key);
    if (!v.empty()) out.emplace_back(key, v);
  }
  return out;
}

}  // namespace

GnmiService::GnmiService(const Store& store, SubscriptionHub& hub, std::shared_ptr<const UserAuth> auth,
                         ServerStats& stats, const FleetView* fleet, std::shared_ptr<MemberChannels> member_channels,
                         std::shared_ptr<const MemberIdentity> member_identity)
    : store_(store),
      hub_(hub),
      auth_(std::move(auth)),
      stats_(stats),
      fleet_(fleet),
      member_channels_(std::move(member_channels)),
      member_identity_(std::move(member_identity)) {}

grpc::Status GnmiService::authenticate(const grpc::CallbackServerContext& ctx, std::string* client,
                                       std::string* member_out) const {
  const std::string user = metadataValue(ctx, "username");
  std::string member;
  // Only a call naming a member pays for the fleet's snapshot.
  if (member_identity_ && fleet_ != nullptr && !metadataValue(ctx, kMemberMetadata).empty()) {
    member = member_identity_->check(claimOf(ctx), fleet_->snapshot());
  }
  if (member_out != nullptr) *member_out = member;
  *client = !user.empty() ? "user " + user : !member.empty() ? "member " + member : peerHost(ctx.peer());
  if (!auth_) return grpc::Status::OK;
  // A member without a user is the peer copy: it reads every target. With
  // one, the user is checked as on a direct call.
  if (user.empty() && !member.empty()) return grpc::Status::OK;
  if (user.empty() || !auth_->check(user, metadataValue(ctx, "password"))) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "authentication failed");
  }
  return grpc::Status::OK;
}

grpc::ServerUnaryReactor* GnmiService::Capabilities(grpc::CallbackServerContext* ctx,
                                                    const ::gnmi::CapabilityRequest*,
                                                    ::gnmi::CapabilityResponse* response) {
  grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
  std::string client;
  grpc::Status st = authenticate(*ctx, &client);
  if (st.ok()) fillCapabilities(response);
  r->Finish(st);
  return r;
}

grpc::ServerUnaryReactor* GnmiService::Get(grpc::CallbackServerContext* ctx,
                                           const ::gnmi::GetRequest* request,
                                           ::gnmi::GetResponse* response) {
  grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
  std::string client;
  grpc::Status st = authenticate(*ctx, &client);
  stats_.get_requests.fetch_add(1);
  if (st.ok() && fleet_ != nullptr && member_channels_ && metadataValue(*ctx, kForwardedByMetadata).empty()) {
    const FleetSnapshot fleet = fleet_->snapshot();
    bool local = true;
    std::vector<MemberRoute> routes = routesFor(fleet, request->prefix().target(), &local);
    if (!routes.empty()) {
      std::vector<std::pair<std::string, std::string>> metadata = credentialsOf(*ctx);
      metadata.emplace_back(kForwardedByMetadata, fleet.self);
      stats_.forwarded_get_calls.fetch_add(routes.size());
      // The members are waited for within the client's deadline (fleet_get.h: memberDeadline).
      fleetGet(store_, *request, response, local, routes, *member_channels_, stats_, metadata, ctx->deadline(),
               [this, r, response](const grpc::Status& done) {
                 if (!done.ok()) {
                   response->Clear();
                   stats_.get_errors[std::min<int>(done.error_code(), 16)].fetch_add(1);
                 }
                 r->Finish(done);
               });
      return r;
    }
  }
  if (st.ok()) st = answerGet(store_, *request, response);
  if (!st.ok()) {
    response->Clear();
    stats_.get_errors[std::min<int>(st.error_code(), 16)].fetch_add(1);
  }
  r->Finish(st);
  return r;
}

grpc::ServerUnaryReactor* GnmiService::Set(grpc::CallbackServerContext* ctx,
                                           const ::gnmi::SetRequest*, ::gnmi::SetResponse*) {
  grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
  std::string client;
  grpc::Status st = authenticate(*ctx, &client);
  if (st.ok()) {
    st = grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                      "Set is not implemented: this gateway serves telemetry read-only");
  }
  r->Finish(st);
  return r;
}

grpc::ServerBidiReactor<::gnmi::SubscribeRequest, ::gnmi::SubscribeResponse>* GnmiService::Subscribe(
    grpc::CallbackServerContext* ctx) {
  StreamOrigin origin;
  std::string member;
  grpc::Status st = authenticate(*ctx, &origin.client, &member);
  const std::string forwarded_by = metadataValue(*ctx, kForwardedByMetadata);
  origin.forwarded = !forwarded_by.empty();
  // A member forwards for many clients: the limit per client counts each
  // of them (the metadata only narrows who is counted; max_subscriptions
  // still bounds the whole server).
  const std::string forwarded_for = metadataValue(*ctx, kForwardedForMetadata);
  if (origin.forwarded && !forwarded_for.empty() && fleet_ != nullptr &&
      callerIsMember(fleet_->snapshot(), forwarded_by, member)) {
    origin.client = forwarded_for + " via member " + forwarded_by;
  }
  origin.credentials = credentialsOf(*ctx);
  return new SubscribeSession(&hub_, ctx, std::move(origin), st);
}

}  // namespace rdmagw::northbound::gnmi
