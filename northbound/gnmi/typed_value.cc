#include "northbound/gnmi/typed_value.h"

#include <cmath>
#include <cstdio>

#include "northbound/gnmi/ietf_scalar.h"

namespace rdmagw::northbound::gnmi {

bool servedEncoding(int encoding) {
  return encoding == ::gnmi::PROTO || encoding == ::gnmi::JSON || encoding == ::gnmi::JSON_IETF;
}

void appendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (unsigned char c : text) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(char(c));
        }
    }
  }
  out->push_back('"');
}

void appendJsonScalar(const Value& value, bool ietf, std::string* out) {
  if (auto u = std::get_if<uint64_t>(&value)) {
    if (ietf) out->push_back('"');
    *out += std::to_string(*u);
    if (ietf) out->push_back('"');
  } else if (auto i = std::get_if<int64_t>(&value)) {
    if (ietf) out->push_back('"');
    *out += std::to_string(*i);
    if (ietf) out->push_back('"');
  } else if (auto d = std::get_if<double>(&value)) {
    if (!std::isfinite(*d)) {
      // JSON has no NaN or infinity; a string keeps the document valid.
      appendJsonString(std::isnan(*d) ? "NaN" : (*d > 0 ? "INF" : "-INF"), out);
      return;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    *out += buf;
  } else if (auto b = std::get_if<bool>(&value)) {
    *out += *b ? "true" : "false";
  } else {
    appendJsonString(std::get<std::string>(value), out);
  }
}

bool setTypedValue(const Value& value, ::gnmi::Encoding encoding, ::gnmi::TypedValue* out,
                   const YangLeafType* ietf_type) {
  if (encoding == ::gnmi::JSON) {
    std::string text;
    appendJsonScalar(value, false, &text);
    out->set_json_val(std::move(text));
    return true;
  }
  if (encoding == ::gnmi::JSON_IETF) {
    std::string text;
    if (ietf_type == nullptr) {
      appendJsonScalar(value, true, &text);
    } else if (!appendIetfScalar(value, *ietf_type, &text)) {
      return false;
    }
    out->set_json_ietf_val(std::move(text));
    return true;
  }
  if (auto u = std::get_if<uint64_t>(&value)) {
    out->set_uint_val(*u);
  } else if (auto i = std::get_if<int64_t>(&value)) {
    out->set_int_val(*i);
  } else if (auto d = std::get_if<double>(&value)) {
    out->set_double_val(*d);
  } else if (auto b = std::get_if<bool>(&value)) {
    out->set_bool_val(*b);
  } else {
    out->set_string_val(std::get<std::string>(value));
  }
  return true;
}

}  // namespace rdmagw::northbound::gnmi
