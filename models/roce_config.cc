#include "models/roce_config.h"

namespace rdmagw::roce {

const char* trustName(Trust t) { return t == Trust::kDscp ? "dscp" : "pcp"; }

const char* tsaName(Tsa t) {
  switch (t) {
    case Tsa::kStrict: return "strict";
    case Tsa::kCbs: return "cbs";
    case Tsa::kEts: return "ets";
    case Tsa::kVendor: return "vendor";
  }
  return "?";
}

const PolicyClass* PolicyMap::find(const std::string& cls) const {
  for (const PolicyClass& c : classes) {
    if (c.name == cls) return &c;
  }
  return nullptr;
}

}  // namespace rdmagw::roce
