#pragma once
// A SubscriptionList, checked once and turned into what a stream needs:
// patterns, modes and effective intervals. Rules:
//   - sample_interval 0 means our lowest; below our lowest is
//     INVALID_ARGUMENT naming the lowest (the same for heartbeat_interval);
//   - TARGET_DEFINED samples counters every sample_interval (0: the
//     configured target-defined interval) and sends other leaves on change;
//   - an encoding we do not serve is UNIMPLEMENTED; an empty list, an
//     unknown mode or a malformed path is INVALID_ARGUMENT.

#include <grpcpp/support/status.h>

#include <chrono>
#include <vector>

#include "gnmi.pb.h"
#include "northbound/gnmi/path_pattern.h"

namespace rdmagw::northbound::gnmi {

struct SubscriptionEntry {
  enum class Mode { kOnChange, kSample, kTargetDefined };
  PathPattern pattern;
  Mode mode = Mode::kSample;
  std::chrono::nanoseconds interval{0};   // SAMPLE and TARGET_DEFINED counters
  bool suppress_redundant = false;        // SAMPLE only
  std::chrono::nanoseconds heartbeat{0};  // 0: none
};

struct SubscriptionSpec {
  ::gnmi::SubscriptionList::Mode list_mode = ::gnmi::SubscriptionList::STREAM;
  ::gnmi::Encoding encoding = ::gnmi::JSON;
  bool updates_only = false;
  std::vector<SubscriptionEntry> entries;

  bool hasOnChange() const;  // any entry that listens to store changes
};

struct SampleLimits {
  std::chrono::nanoseconds lowest{std::chrono::seconds(1)};
  std::chrono::nanoseconds target_defined{std::chrono::seconds(10)};
};

grpc::Status parseSubscriptionList(const ::gnmi::SubscriptionList& list, const SampleLimits& limits,
                                   SubscriptionSpec* out);

// "1s", "250ms", "1500us": for messages that name an interval.
std::string formatDuration(std::chrono::nanoseconds d);

}  // namespace rdmagw::northbound::gnmi
