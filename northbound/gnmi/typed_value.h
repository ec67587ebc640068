#pragma once
// Store leaf values as gNMI TypedValues, in the encodings we serve:
//   PROTO      uint_val, int_val, double_val, bool_val, string_val
//   JSON       json_val: the value as JSON text
//   JSON_IETF  json_ietf_val: RFC 7951 JSON by the leaf's YANG type
//              (ietf_scalar.h): "12345" for a 64-bit integer, 9216 for a
//              uint16, "openconfig-if-ethernet:SPEED_100GB" for an identity.

#include <string>

#include "gnmi.pb.h"
#include "models/value.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {

// True for the encodings this server answers in (PROTO, JSON, JSON_IETF).
bool servedEncoding(int encoding);

// Sets `out` to one leaf's value in `encoding` (a served one). JSON_IETF
// encodes by `ietf_type` (null: not in the schema, as the store holds it);
// false, `out` untouched, when the value does not fit that type: the caller
// leaves the leaf out and reports it (ietf_scalar.h).
bool setTypedValue(const Value& value, ::gnmi::Encoding encoding, ::gnmi::TypedValue* out,
                   const YangLeafType* ietf_type = nullptr);

// Appends `value` as a JSON scalar as the store holds it; `ietf` quotes
// 64-bit integers (for a leaf whose YANG type is not known).
void appendJsonScalar(const Value& value, bool ietf, std::string* out);

// Appends `text` as a JSON string literal, quotes included.
void appendJsonString(std::string_view text, std::string* out);

}  // namespace rdmagw::northbound::gnmi
