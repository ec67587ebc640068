#pragma once
// Answers a gNMI Get from the store.
//
//   - types ALL, STATE and OPERATIONAL return the leaves (every leaf the
//     gateway holds is operational state); CONFIG returns, for each path
//     that exists, a notification without updates: the gateway holds no
//     configuration data;
//   - one notification per matched target and request path, its prefix
//     carrying the target's name (never "*"), its timestamp the newest
//     collection time among its leaves;
//   - PROTO: one update per leaf; JSON / JSON_IETF: a path naming a leaf
//     gives that leaf, a path naming a container gives one update per
//     container instance with the subtree as one JSON object; JSON_IETF
//     follows RFC 7951 by the schema's YANG modules (json_tree.h), leaving
//     out what they do not define and values that do not fit their type;
// Errors: INVALID_ARGUMENT for a malformed path or unknown type,
// UNIMPLEMENTED for an encoding we do not serve, NOT_FOUND for a
// well-formed path (or named target) matching nothing.

#include <grpcpp/support/status.h>

#include "gnmi.pb.h"
#include "models/store.h"

namespace rdmagw::northbound::gnmi {

grpc::Status answerGet(const Store& store, const ::gnmi::GetRequest& request,
                       ::gnmi::GetResponse* response);

}  // namespace rdmagw::northbound::gnmi
