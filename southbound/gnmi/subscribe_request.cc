#include "southbound/gnmi/subscribe_request.h"

#include <algorithm>
#include <chrono>

#include "models/path.h"

namespace rdmagw::southbound::gnmi {

const char* encodingName(::gnmi::Encoding e) {
  switch (e) {
    case ::gnmi::JSON: return "JSON";
    case ::gnmi::BYTES: return "BYTES";
    case ::gnmi::PROTO: return "PROTO";
    case ::gnmi::ASCII: return "ASCII";
    case ::gnmi::JSON_IETF: return "JSON_IETF";
    default: return "?";
  }
}

Result<::gnmi::Encoding> chooseEncoding(const ::gnmi::CapabilityResponse& caps, EncodingChoice choice) {
  const auto& offered = caps.supported_encodings();
  const auto has = [&](::gnmi::Encoding e) {
    return std::find(offered.begin(), offered.end(), e) != offered.end();
  };
  ::gnmi::Encoding want = ::gnmi::JSON;
  switch (choice) {
    case EncodingChoice::kAuto:
      if (offered.empty()) return ::gnmi::JSON;
      for (::gnmi::Encoding e : {::gnmi::PROTO, ::gnmi::JSON, ::gnmi::JSON_IETF}) {
        if (has(e)) return e;
      }
      return Status::invalidArgument("device offers none of PROTO, JSON, JSON_IETF");
    case EncodingChoice::kProto: want = ::gnmi::PROTO; break;
    case EncodingChoice::kJson: want = ::gnmi::JSON; break;
    case EncodingChoice::kJsonIetf: want = ::gnmi::JSON_IETF; break;
  }
  if (offered.empty() || has(want)) return want;
  return Status::invalidArgument(std::string("device does not offer encoding ") + encodingName(want));
}

Result<::gnmi::SubscribeRequest> buildSubscribeRequest(const std::vector<GnmiSubscription>& subs,
                                                       ::gnmi::Encoding encoding) {
  ::gnmi::SubscribeRequest req;
  ::gnmi::SubscriptionList* list = req.mutable_subscribe();
  list->set_mode(::gnmi::SubscriptionList::STREAM);
  list->set_encoding(encoding);
  for (const GnmiSubscription& s : subs) {
    Result<Path> parsed = Path::parse(s.path);
    if (!parsed.isOk()) return Status::invalidArgument("subscription " + s.path + ": " + parsed.status().message());
    ::gnmi::Subscription* sub = list->add_subscription();
    ::gnmi::Path* path = sub->mutable_path();
    if (!parsed->origin().empty()) path->set_origin(parsed->origin());
    for (const PathElem& e : parsed->elems()) {
      ::gnmi::PathElem* pe = path->add_elem();
      pe->set_name(e.name);
      for (const auto& [k, v] : e.keys) (*pe->mutable_key())[k] = v;
    }
    if (s.mode == SubscriptionMode::kOnChange) {
      sub->set_mode(::gnmi::ON_CHANGE);
    } else {
      sub->set_mode(::gnmi::SAMPLE);
      sub->set_sample_interval(static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(s.sample_interval).count()));
    }
  }
  return req;
}

}  // namespace rdmagw::southbound::gnmi
