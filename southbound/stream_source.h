#pragma once
// A southbound source that is pushed to (gNMI subscriptions) rather than
// polled on a timer (poll_source.h). It owns its own threads and writes into
// the store it was created with, health included; the gateway only starts
// and stops it. start() before any data flows, stop() before the store dies.

#include <memory>

#include "models/status.h"

namespace rdmagw::southbound {

class StreamSource {
 public:
  virtual ~StreamSource() = default;
  // Starts connecting in the background; a failure to reach the device is
  // not an error here (it is retried and shown in the target's health).
  virtual Status start() = 0;
  // Stops and waits for every thread and RPC of the source; idempotent.
  virtual void stop() = 0;
};
using StreamSourcePtr = std::unique_ptr<StreamSource>;

}  // namespace rdmagw::southbound
