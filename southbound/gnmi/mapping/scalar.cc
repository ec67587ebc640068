#include "southbound/gnmi/mapping/scalar.h"

#include <charconv>
#include <cmath>

namespace rdmagw::southbound::gnmi {
namespace {

bool parseUint(std::string_view t, uint64_t& out) {
  if (t.empty() || t.size() > 20) return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && p == t.data() + t.size();
}

bool integralDouble(double d, uint64_t& out) {
  if (!std::isfinite(d) || d < 0 || d >= 18446744073709551616.0 || std::floor(d) != d) return false;
  out = static_cast<uint64_t>(d);
  return true;
}

std::string_view trimSpaces(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}

}  // namespace

Scalar scalarFromJson(const text::JsonNode& node) {
  using text::JsonNode;
  Scalar s;
  s.text = node.text;
  switch (node.kind) {
    case JsonNode::Kind::kNumber:
      s.kind = Scalar::Kind::kNumberText;
      break;
    case JsonNode::Kind::kBool:
      s.kind = Scalar::Kind::kBool;
      s.b = node.text == "true";
      break;
    default:
      s.kind = Scalar::Kind::kString;
  }
  return s;
}

Value toValue(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::kUint: return s.u;
    case Scalar::Kind::kInt: return s.i;
    case Scalar::Kind::kDouble: return s.d;
    case Scalar::Kind::kBool: return s.b;
    case Scalar::Kind::kString: return std::string(s.text);
    case Scalar::Kind::kNumberText: break;
  }
  std::string_view t = s.text;
  if (t.find_first_of(".eE") == std::string_view::npos) {
    if (t.front() == '-') {
      int64_t i;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), i);
      if (ec == std::errc() && p == t.data() + t.size()) return i;
    } else if (uint64_t u; parseUint(t, u)) {
      return u;
    }
  }
  double d = 0;
  std::from_chars(t.data(), t.data() + t.size(), d);  // JSON grammar already checked
  return d;
}

bool toCounter(const Scalar& s, uint64_t& out) {
  switch (s.kind) {
    case Scalar::Kind::kUint:
      out = s.u;
      return true;
    case Scalar::Kind::kInt:
      if (s.i < 0) return false;
      out = static_cast<uint64_t>(s.i);
      return true;
    case Scalar::Kind::kDouble:
      return integralDouble(s.d, out);
    case Scalar::Kind::kBool:
      return false;
    case Scalar::Kind::kString:
      return parseUint(trimSpaces(s.text), out);
    case Scalar::Kind::kNumberText: {
      if (parseUint(s.text, out)) return true;
      Value v = toValue(s);
      return std::holds_alternative<double>(v) && integralDouble(std::get<double>(v), out);
    }
  }
  return false;
}

std::string describe(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::kUint: return std::to_string(s.u);
    case Scalar::Kind::kInt: return std::to_string(s.i);
    case Scalar::Kind::kDouble: return std::to_string(s.d);
    case Scalar::Kind::kBool: return s.b ? "true" : "false";
    case Scalar::Kind::kNumberText: return std::string(s.text.substr(0, 40));
    case Scalar::Kind::kString: return "\"" + std::string(s.text.substr(0, 40)) + "\"";
  }
  return "";
}

namespace {

bool decimal(const ::gnmi::Decimal64& dec, Scalar& out, std::string* error) {
  if (dec.precision() > 18) {
    *error = "decimal precision " + std::to_string(dec.precision()) + " beyond 18";
    return false;
  }
  if (dec.precision() == 0) {
    out.kind = Scalar::Kind::kInt;
    out.i = dec.digits();
    return true;
  }
  out.kind = Scalar::Kind::kDouble;
  out.d = static_cast<double>(dec.digits()) / std::pow(10.0, dec.precision());
  return true;
}

}  // namespace

bool scalarFromTyped(const ::gnmi::TypedValue& v, Scalar& out, std::string& storage, std::string* error) {
  using TV = ::gnmi::TypedValue;
  out = Scalar{};
  switch (v.value_case()) {
    case TV::kStringVal: out.text = v.string_val(); return true;
    case TV::kAsciiVal: out.text = v.ascii_val(); return true;
    case TV::kBytesVal: out.text = v.bytes_val(); return true;
    case TV::kUintVal:
      out.kind = Scalar::Kind::kUint;
      out.u = v.uint_val();
      return true;
    case TV::kIntVal:
      out.kind = Scalar::Kind::kInt;
      out.i = v.int_val();
      return true;
    case TV::kBoolVal:
      out.kind = Scalar::Kind::kBool;
      out.b = v.bool_val();
      return true;
    case TV::kDoubleVal:
      out.kind = Scalar::Kind::kDouble;
      out.d = v.double_val();
      return true;
    case TV::kFloatVal:
      out.kind = Scalar::Kind::kDouble;
      out.d = v.float_val();
      return true;
    case TV::kDecimalVal:
      return decimal(v.decimal_val(), out, error);
    case TV::kLeaflistVal: {
      storage.clear();
      for (const TV& e : v.leaflist_val().element()) {
        Scalar s;
        std::string nested;
        if (e.value_case() == TV::kLeaflistVal || !scalarFromTyped(e, s, nested, error)) {
          if (error->empty()) *error = "nested leaf-list";
          return false;
        }
        if (!storage.empty()) storage.push_back(',');
        storage += s.kind == Scalar::Kind::kString ? std::string(s.text) : describe(s);
      }
      out.text = storage;
      return true;
    }
    case TV::kJsonVal:
    case TV::kJsonIetfVal:
      *error = "JSON value where a scalar was expected";
      return false;
    case TV::kAnyVal: *error = "unsupported value type any_val"; return false;
    case TV::kProtoBytes: *error = "unsupported value type proto_bytes"; return false;
    case TV::VALUE_NOT_SET: *error = "update without a value"; return false;
  }
  *error = "unknown value type";
  return false;
}

}  // namespace rdmagw::southbound::gnmi
