#pragma once
// Change notification for consumers that need pushes rather than snapshots
// (gNMI ON_CHANGE). Called on the writer's thread after the store released
// its locks: an implementation must only queue, never block.

#include <span>
#include <string>
#include <string_view>

#include "models/value.h"

namespace rdmagw {

struct Change {
  std::string path;
  Value value;
  TimestampNs timestamp_ns = 0;
  bool deleted = false;
};

class ChangeListener {
 public:
  virtual ~ChangeListener() = default;
  virtual void onChanges(std::string_view target, std::span<const Change> changes) = 0;
};

}  // namespace rdmagw
