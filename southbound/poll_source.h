#pragma once
// A southbound source that is read on a timer (sysfs, SSH CLI). Streaming
// sources (gNMI) have their own interface. A source knows its device, never
// the store or any northbound: it fills a PollBatch and the scheduler writes it.

#include <memory>
#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound {

class PollSource {
 public:
  virtual ~PollSource() = default;
  // Transport name shown in health and metrics: "sysfs", "ssh", ...
  virtual std::string_view transport() const = 0;
  // Reads the device once. A failure of the whole poll (device unreachable,
  // root missing) returns a non-ok Status; a failure of one part (one file,
  // one device) goes into batch.errors and the rest of the batch stands.
  virtual Status poll(PollBatch& batch) = 0;
};
using PollSourcePtr = std::unique_ptr<PollSource>;

}  // namespace rdmagw::southbound
