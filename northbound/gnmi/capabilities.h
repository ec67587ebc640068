#pragma once
// What a Capabilities answer lists: the models whose paths the store's
// leaves follow (the schema's modules: the OpenConfig releases we validate
// against and our own modules under yang/, with their revisions), the
// encodings we serve, and the gNMI version of the wire we speak.

#include <span>
#include <string_view>

#include "gnmi.pb.h"

namespace rdmagw::northbound::gnmi {

inline constexpr std::string_view kGnmiVersion = "0.10.0";

struct ServedModel {
  std::string_view name;
  std::string_view organization;
  std::string_view version;  // OpenConfig: semantic version; ours: the YANG revision date
};

// The schema's modules, in its order. A test keeps the rdmagw-* rows in
// step with the revisions in yang/.
std::span<const ServedModel> servedModels();

void fillCapabilities(::gnmi::CapabilityResponse* out);

}  // namespace rdmagw::northbound::gnmi
