#pragma once
// Typed leaf values. Counters are uint64 in the model (see counter_tracker.h);
// gauges may be signed or real; strings carry state such as "ACTIVE".

#include <cstdint>
#include <string>
#include <variant>

namespace rdmagw {

using Value = std::variant<uint64_t, int64_t, double, bool, std::string>;

// Nanoseconds since the Unix epoch, as gNMI timestamps are.
using TimestampNs = int64_t;

TimestampNs nowNs();
// Nanoseconds of the monotonic clock: for measuring delays inside the process.
int64_t steadyNowNs();

// Renders a value for logs and `rdmagw parse` output.
std::string valueToString(const Value& v);

// Numeric view of a value for exporters that only speak numbers.
// Strings are not numbers: returns false.
bool valueAsDouble(const Value& v, double* out);

}  // namespace rdmagw
