#pragma once
// What we ask the device for: the encoding chosen from its Capabilities and
// one SubscribeRequest carrying every path (NX-OS allows few concurrent
// calls), STREAM mode, no prefix (NX-OS rejects prefixes).

#include <vector>

#include "gnmi.pb.h"
#include "models/status.h"
#include "southbound/gnmi/gnmi_config.h"

namespace rdmagw::southbound::gnmi {

// auto: PROTO if offered, else JSON, else JSON_IETF; an empty list means the
// device did not say, and JSON is the gNMI default. A forced choice the
// device does not offer is an error (the caller treats it as fatal).
Result<::gnmi::Encoding> chooseEncoding(const ::gnmi::CapabilityResponse& caps, EncodingChoice choice);

// Paths must already have passed GnmiConfig::validate().
Result<::gnmi::SubscribeRequest> buildSubscribeRequest(const std::vector<GnmiSubscription>& subs,
                                                       ::gnmi::Encoding encoding);

const char* encodingName(::gnmi::Encoding e);

}  // namespace rdmagw::southbound::gnmi
