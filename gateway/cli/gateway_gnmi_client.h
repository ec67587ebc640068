#pragma once
// The gNMI client side shared by the commands that read a running gateway
// over its own gNMI server (`rdmagw fabric`, `rdmagw check roce`): the same
// connection options (those of a gNMI target in the config: TLS by default,
// no TLS or no verification said explicitly, secrets by reference) and one
// gNMI Get of a subtree on one target or on every target.

#include <chrono>
#include <string>
#include <vector>

#include "gateway/cli/command_spec.h"
#include "gateway/cli/missing_member.h"
#include "gnmi.pb.h"
#include "models/status.h"
#include "southbound/gnmi/gnmi_config.h"

namespace rdmagw::gateway {

struct GatewayGnmiClient {
  southbound::gnmi::GnmiConfig config;
  std::chrono::milliseconds timeout{10000};
};

// The usage lines of the connection options (--address .. --timeout), to
// paste into a command's help.
const std::string& gatewayGnmiOptionsUsage();

// `spec` with the connection options added to its flags.
CommandSpec withGatewayGnmiOptions(CommandSpec spec);

// The connection options of `args`; an invalid combination or value is an
// InvalidArgument whose message is the usage error to print.
Result<GatewayGnmiClient> gatewayGnmiClientFromArgs(const Args& args);

// One gNMI Get (PROTO, STATE) of the subtree whose elements are `elems`, on
// `target` ("*": every target). NotFound when the gateway answers that it
// holds nothing there; Unavailable for every other failure (the message
// names the address and the gRPC status).
Result<::gnmi::GetResponse> gatewayGet(const GatewayGnmiClient& client, const std::string& target,
                                       const std::vector<std::string>& elems);

// The silent members a Get response names, in its order.
std::vector<MissingMember> missingMembers(const ::gnmi::GetResponse& response);

// Whether `n` is such a notification (not data of a target).
bool isMissingMemberNotice(const ::gnmi::Notification& n);

// A leaf value as text: numbers in decimal, booleans as true/false.
std::string typedValueText(const ::gnmi::TypedValue& v);

}  // namespace rdmagw::gateway
