#pragma once
// Builders for gnmi:: messages in tests: paths from the string form our
// Path parser reads, or element by element for DME shapes it cannot express.

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gnmi.pb.h"
#include "models/path.h"

namespace rdmagw::testing {

// "origin:/a/b[k=v]/c" -> gnmi::Path (origin kept).
inline ::gnmi::Path gpath(std::string_view text) {
  ::gnmi::Path out;
  Result<Path> p = Path::parse(text);
  if (!p.isOk()) return out;
  out.set_origin(p->origin());
  for (const PathElem& e : p->elems()) {
    ::gnmi::PathElem* pe = out.add_elem();
    pe->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*pe->mutable_key())[k] = v;
  }
  return out;
}

// Elements exactly as given (no parsing): {"sys", "intf", "phys-[eth1/1]"}.
inline ::gnmi::Path rawPath(std::string origin, std::vector<std::string> names) {
  ::gnmi::Path out;
  out.set_origin(std::move(origin));
  for (std::string& n : names) out.add_elem()->set_name(std::move(n));
  return out;
}

inline ::gnmi::TypedValue uintVal(uint64_t v) {
  ::gnmi::TypedValue t;
  t.set_uint_val(v);
  return t;
}
inline ::gnmi::TypedValue stringVal(std::string v) {
  ::gnmi::TypedValue t;
  t.set_string_val(std::move(v));
  return t;
}
inline ::gnmi::TypedValue jsonVal(std::string v) {
  ::gnmi::TypedValue t;
  t.set_json_val(std::move(v));
  return t;
}

inline void addUpdate(::gnmi::Notification& n, ::gnmi::Path p, ::gnmi::TypedValue v) {
  ::gnmi::Update* u = n.add_update();
  *u->mutable_path() = std::move(p);
  *u->mutable_val() = std::move(v);
}

inline std::string readFixture(std::string_view rel) {
  std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/" + std::string(rel), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace rdmagw::testing
