#pragma once
// A gNMI Get in a fleet (fleet_routes.h says where it goes): for a target
// another member owns, that member's answer as it gave it (UNAVAILABLE
// naming it when it does not answer); for "*", this member's answer and
// every other live member's, merged (members in name order). NOT_FOUND
// from some members is an empty part; from all of them it is the answer.
//
// "*" with members that do not answer (a dead member's lease lives on for
// up to the lease TTL): the live members' notifications, status OK, and
// for each silent member one more notification,
//   prefix.target "*", path /fleet/member[name=<member>]/error,
//   string_val "<gRPC code>: fleet member <m> (<address>) did not answer: ..."
// gNMI has no partial-result field, and every client shows notifications
// (gnmic and pygnmi print them; neither shows trailing metadata or an
// extension it has no proto for), so the gap is where a reader of the
// answer looks. With no data at all from anyone, the Get fails with
// UNAVAILABLE naming the silent members. A member that refuses the
// request (a bad path, a bad user) still fails the whole Get as it said.
//
// Each member is waited for until the client's deadline less a reserve
// (a tenth of it, at most 1 s, so the partial answer still reaches the
// client) and at most kMemberGetLimit.

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
#include "northbound/gnmi/server_stats.h"

namespace rdmagw::northbound::gnmi {

// The longest a Get waits for one member, whatever the client's deadline.
inline constexpr auto kMemberGetLimit = std::chrono::seconds(10);

// When to give up on the members of a Get whose client waits until
// `client_deadline` (max() when it set none).
std::chrono::system_clock::time_point memberDeadline(std::chrono::system_clock::time_point client_deadline,
                                                     std::chrono::system_clock::time_point now);

// The notification naming a member that did not answer a "*" Get.
::gnmi::Notification missingMemberNotification(const std::string& member, const std::string& detail);

// Answers `request` into `response` over `routes` (plus the local store
// when `local`); `done` runs once with the final status, on any thread.
// What each member returns is counted in `stats` (forwardingTo).
void fleetGet(const Store& store, const ::gnmi::GetRequest& request, ::gnmi::GetResponse* response, bool local,
              const std::vector<MemberRoute>& routes, MemberChannels& channels, ServerStats& stats,
              const std::vector<std::pair<std::string, std::string>>& metadata,
              std::chrono::system_clock::time_point deadline, std::function<void(const grpc::Status&)> done);

}  // namespace rdmagw::northbound::gnmi
