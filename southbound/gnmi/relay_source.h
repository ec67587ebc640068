#pragma once
// Gateway chaining: a regional rdmagw subscribes to a site rdmagw's gNMI
// northbound (target `kind: rdmagw`, `transport: gnmi`) with prefix.target
// "*" and one ON_CHANGE subscription to "/", in PROTO. Every notification
// names its device in prefix.target; the relay writes it into the local
// store as that device's own target, with the collection timestamp the
// site gateway stamped, so each remote device stays a target downstream.
// Deletes remove leaves; a lost stream marks the relayed targets down and
// is retried with jittered exponential backoff.
//
// One thread per upstream gateway (blocking gRPC reads): a relay is one
// stream, not one per device.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "models/store.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/stream_source.h"

namespace rdmagw::southbound::gnmi {

// `name` is the upstream gateway's target name in the config; relayed
// targets carry the label via=<name> besides `labels`.
Result<StreamSourcePtr> createRelaySource(const std::string& name, const GnmiConfig& config, Store& store,
                                          std::vector<std::pair<std::string, std::string>> labels = {});

}  // namespace rdmagw::southbound::gnmi
