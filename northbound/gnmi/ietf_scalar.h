#pragma once
// One store value as an RFC 7951 (JSON_IETF) scalar, by its leaf's YANG type:
//   int8..int32, uint8..uint32   JSON number (§6.1)
//   int64, uint64, decimal64     JSON string (§6.1: beyond 2^53 a number loses digits)
//   boolean                      true / false (§6.3)
//   string, enumeration          JSON string (§6.3, §6.4)
//   identityref                  "module:IDENTITY" (§6.8), the schema's module
//                                replacing any prefix the value came with
//   unknown type                 as the store holds it (64-bit integers quoted)
// The store value is converted when nothing is lost: digits in a text for an
// integer leaf, an integral double, "true"/"false" or 0/1 for a boolean, any
// number for a string. A value that does not fit (a text where uint16 is
// expected, 70000 for a uint16, -1 for a uint32, a fraction for an integer)
// is a mismatch: nothing is written, the caller leaves that leaf out of the
// answer and reports it (reportIetfMismatch). A validating client would
// otherwise reject the whole document for one leaf; JSON and PROTO still
// carry the value as the store holds it.

#include <cstdint>
#include <string>
#include <string_view>

#include "models/value.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {

// Appends `value` encoded for `type`; false (nothing appended) on a mismatch.
bool appendIetfScalar(const Value& value, const YangLeafType& type, std::string* out);

// Counts a value that did not fit its type and logs it, once per `where`
// (the leaf's path) for the first few distinct leaves, so a device that keeps
// sending text for a number cannot flood the log. A leaf is left out; a list
// key (`key`) is written as text, as leaving it out would orphan its entry.
void reportIetfMismatch(std::string_view where, const YangLeafType& type, const Value& value, bool key = false);

// Values that did not fit their YANG type in JSON_IETF answers since the
// process started.
uint64_t ietfMismatchCount();

}  // namespace rdmagw::northbound::gnmi
