#pragma once
// A gNMI GetRequest (PROTO encoding) for one path written as the store
// writes paths ("/fabric/interfaces/interface[name=*]/..."), for the tests
// that read derived leaves through the gNMI server's Get handler.

#include <string>

#include "gnmi.pb.h"
#include "models/path.h"

namespace rdmagw::testing {

inline gnmi::GetRequest getRequest(const std::string& target, const std::string& path) {
  gnmi::GetRequest req;
  req.mutable_prefix()->set_target(target);
  gnmi::Path* p = req.add_path();
  const Path parsed = *Path::parse(path);  // kept: the loop walks its elements
  for (const PathElem& e : parsed.elems()) {
    gnmi::PathElem* g = p->add_elem();
    g->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*g->mutable_key())[k] = v;
  }
  req.set_encoding(gnmi::PROTO);
  return req;
}

}  // namespace rdmagw::testing
