#pragma once
// A gNMI Get in a fleet (fleet_routes.h says where it goes): for a target
// another member owns, that member's answer as it gave it; for "*", this
// member's answer and every other live member's, merged (members in name
// order). A member that does not answer fails the whole Get (UNAVAILABLE
// naming it): a Get is complete or an error. NOT_FOUND from some members
// is an empty part; from all of them it is the answer.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "models/store.h"
#include "northbound/gnmi/fleet_routes.h"
#include "northbound/gnmi/member_channels.h"

namespace rdmagw::northbound::gnmi {

// Answers `request` into `response` over `routes` (plus the local store
// when `local`); `done` runs once with the final status, on any thread.
void fleetGet(const Store& store, const ::gnmi::GetRequest& request, ::gnmi::GetResponse* response,
              bool local, const std::vector<MemberRoute>& routes, MemberChannels& channels,
              const std::vector<std::pair<std::string, std::string>>& metadata,
              std::chrono::system_clock::time_point deadline, std::function<void(const grpc::Status&)> done);

}  // namespace rdmagw::northbound::gnmi
