#include "northbound/gnmi/subscription_spec.h"

#include "northbound/gnmi/typed_value.h"

namespace rdmagw::northbound::gnmi {
namespace {

using std::chrono::nanoseconds;

grpc::Status invalid(const std::string& msg) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg);
}

}  // namespace

bool SubscriptionSpec::hasOnChange() const {
  if (list_mode != ::gnmi::SubscriptionList::STREAM) return false;
  for (const SubscriptionEntry& e : entries) {
    if (e.mode != SubscriptionEntry::Mode::kSample) return true;
  }
  return false;
}

std::string formatDuration(nanoseconds d) {
  const int64_t ns = d.count();
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  if (ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
  return std::to_string(ns) + "ns";
}

grpc::Status parseSubscriptionList(const ::gnmi::SubscriptionList& list, const SampleLimits& limits,
                                   SubscriptionSpec* out) {
  if (!servedEncoding(list.encoding())) {
    const std::string name = ::gnmi::Encoding_IsValid(list.encoding())
                                 ? ::gnmi::Encoding_Name(list.encoding())
                                 : std::to_string(list.encoding());
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                        "encoding " + name + " is not served; use PROTO, JSON or JSON_IETF");
  }
  if (!::gnmi::SubscriptionList::Mode_IsValid(list.mode())) {
    return invalid("unknown SubscriptionList mode " + std::to_string(list.mode()));
  }
  if (list.subscription_size() == 0) return invalid("the SubscriptionList has no subscription");
  SubscriptionSpec spec;
  spec.list_mode = list.mode();
  spec.encoding = list.encoding();
  spec.updates_only = list.updates_only();
  const std::string lowest = formatDuration(limits.lowest);
  for (int i = 0; i < list.subscription_size(); ++i) {
    const ::gnmi::Subscription& s = list.subscription(i);
    const std::string where = "subscription[" + std::to_string(i) + "]: ";
    Result<PathPattern> pattern = PathPattern::fromRequest(list.prefix(), s.path());
    if (!pattern.isOk()) return invalid(where + pattern.status().message());
    SubscriptionEntry e{*pattern};
    switch (s.mode()) {
      case ::gnmi::ON_CHANGE: e.mode = SubscriptionEntry::Mode::kOnChange; break;
      case ::gnmi::SAMPLE: e.mode = SubscriptionEntry::Mode::kSample; break;
      case ::gnmi::TARGET_DEFINED: e.mode = SubscriptionEntry::Mode::kTargetDefined; break;
      default: return invalid(where + "unknown subscription mode " + std::to_string(s.mode()));
    }
    const nanoseconds asked(static_cast<int64_t>(std::min<uint64_t>(s.sample_interval(), INT64_MAX)));
    const nanoseconds beat(static_cast<int64_t>(std::min<uint64_t>(s.heartbeat_interval(), INT64_MAX)));
    if (asked.count() > 0 && asked < limits.lowest) {
      return invalid(where + "sample_interval " + formatDuration(asked) +
                     " is below this server's lowest sample interval, " + lowest);
    }
    if (beat.count() > 0 && beat < limits.lowest) {
      return invalid(where + "heartbeat_interval " + formatDuration(beat) +
                     " is below this server's lowest sample interval, " + lowest);
    }
    if (e.mode == SubscriptionEntry::Mode::kTargetDefined && asked.count() == 0) {
      e.interval = std::max(limits.target_defined, limits.lowest);
    } else {
      e.interval = asked.count() == 0 ? limits.lowest : asked;
    }
    e.suppress_redundant = s.suppress_redundant() && e.mode == SubscriptionEntry::Mode::kSample;
    e.heartbeat = beat;
    spec.entries.push_back(std::move(e));
  }
  *out = std::move(spec);
  return grpc::Status::OK;
}

}  // namespace rdmagw::northbound::gnmi
