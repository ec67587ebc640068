#pragma once
// Store leaf values as gNMI TypedValues, in the encodings we serve:
//   PROTO      uint_val, int_val, double_val, bool_val, string_val
//   JSON       json_val: the value as JSON text
//   JSON_IETF  json_ietf_val: RFC 7951 JSON, where 64-bit integers are
//              strings ("12345") because JSON numbers lose them past 2^53.

#include <string>

#include "gnmi.pb.h"
#include "models/value.h"

namespace rdmagw::northbound::gnmi_server {

// True for the encodings this server answers in (PROTO, JSON, JSON_IETF).
bool servedEncoding(int encoding);

// Sets `out` to one leaf's value in `encoding` (a served one).
void setTypedValue(const Value& value, gnmi::Encoding encoding, gnmi::TypedValue* out);

// Appends `value` as a JSON scalar; `ietf` quotes 64-bit integers.
void appendJsonScalar(const Value& value, bool ietf, std::string* out);

// Appends `text` as a JSON string literal, quotes included.
void appendJsonString(std::string_view text, std::string* out);

}  // namespace rdmagw::northbound::gnmi_server
