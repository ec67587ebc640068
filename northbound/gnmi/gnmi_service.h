#pragma once
// The gNMI service on the gRPC callback API: Capabilities, Get and Set
// answer inline; Subscribe streams are SubscribeSession reactors fed by the
// SubscriptionHub. Every call first passes the username/password check
// (when users are configured); failures answer UNAUTHENTICATED with the
// same text whatever was wrong. A call from another member of the fleet
// (member_identity.h) passes without a user: the peer copy reads every
// target; a forwarded call that carries its client's username is checked
// for that user as well.
//
// In a fleet (`fleet` not null), Get and Subscribe for targets other
// members own are forwarded to them (fleet_routes.h, fleet_get.h,
// subscribe_session.h).

#include <memory>

#include "gnmi.grpc.pb.h"
#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/gnmi/member_channels.h"
#include "northbound/gnmi/member_identity.h"
#include "northbound/gnmi/server_stats.h"
#include "northbound/gnmi/subscription_hub.h"
#include "northbound/gnmi/user_auth.h"

namespace rdmagw::northbound::gnmi {

class GnmiService final : public ::gnmi::gNMI::CallbackService {
 public:
  // `auth` may be null: no username/password check.
  GnmiService(const Store& store, SubscriptionHub& hub, std::shared_ptr<const UserAuth> auth, ServerStats& stats,
              const FleetView* fleet = nullptr, std::shared_ptr<MemberChannels> member_channels = nullptr,
              std::shared_ptr<const MemberIdentity> member_identity = nullptr);

  grpc::ServerUnaryReactor* Capabilities(grpc::CallbackServerContext* ctx,
                                         const ::gnmi::CapabilityRequest* request,
                                         ::gnmi::CapabilityResponse* response) override;
  grpc::ServerUnaryReactor* Get(grpc::CallbackServerContext* ctx, const ::gnmi::GetRequest* request,
                                ::gnmi::GetResponse* response) override;
  grpc::ServerUnaryReactor* Set(grpc::CallbackServerContext* ctx, const ::gnmi::SetRequest* request,
                                ::gnmi::SetResponse* response) override;
  grpc::ServerBidiReactor<::gnmi::SubscribeRequest, ::gnmi::SubscribeResponse>* Subscribe(
      grpc::CallbackServerContext* ctx) override;

 private:
  // OK, or UNAUTHENTICATED; `client` gets who is calling (user, member or
  // peer host), `member` the fleet member the call proved to come from.
  grpc::Status authenticate(const grpc::CallbackServerContext& ctx, std::string* client,
                            std::string* member = nullptr) const;

  const Store& store_;
  SubscriptionHub& hub_;
  const std::shared_ptr<const UserAuth> auth_;
  ServerStats& stats_;
  const FleetView* const fleet_;
  const std::shared_ptr<MemberChannels> member_channels_;
  const std::shared_ptr<const MemberIdentity> member_identity_;
};

}  // namespace rdmagw::northbound::gnmi
