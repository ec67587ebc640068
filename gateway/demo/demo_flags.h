#pragma once
// rdmagw-demo's numeric and duration flags: a value out of range is said on
// stderr and the demo exits 2.

#include <chrono>

#include "gateway/cli/commands.h"

namespace rdmagw::gateway {

// True when the flag is absent (*out unchanged) or an integer in [min, max].
bool intFlag(const Args& args, const char* name, long long min, long long max, long long* out);
// True when the flag is absent or a duration of at least 100ms.
bool durationFlag(const Args& args, const char* name, std::chrono::milliseconds* out);

}  // namespace rdmagw::gateway
