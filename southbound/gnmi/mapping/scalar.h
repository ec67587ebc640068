#pragma once
// One received leaf value before it becomes a model Value: what the switch
// sent (TypedValue kind or JSON token) with its text kept, so a counter
// written as a string ("12") or as JSON digits converts without a double.

#include <cstdint>
#include <string>
#include <string_view>

#include "gnmi.pb.h"
#include "models/value.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::gnmi {

struct Scalar {
  enum class Kind : uint8_t { kUint, kInt, kDouble, kBool, kString, kNumberText };
  Kind kind = Kind::kString;
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
  bool b = false;
  std::string_view text;  // kString contents; kNumberText JSON digits
};

Scalar scalarFromJson(const text::JsonNode& node);

// The value as sent: numbers typed by their text (uint64, int64, double).
Value toValue(const Scalar& s);

// A counter: uint64 from uint, int >= 0, an integral double and digit-only
// strings ("12", NX-OS JSON); false for anything else (negative, fraction,
// bool, text, beyond 2^64-1).
bool toCounter(const Scalar& s, uint64_t& out);

// Short rendering for error lines.
std::string describe(const Scalar& s);

// Scalar TypedValue kinds; false (with *error) for json, any, proto_bytes,
// and leaflist elements that are not scalars. A leaflist becomes a string
// of its elements joined by ',' stored in `storage`.
bool scalarFromTyped(const ::gnmi::TypedValue& v, Scalar& out, std::string& storage, std::string* error);

}  // namespace rdmagw::southbound::gnmi
