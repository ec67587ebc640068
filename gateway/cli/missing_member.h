#pragma once
// A fleet member that did not answer a "*" Get. The member asked answers
// with what the live members hold plus, per silent member, one notification
// on target "*" at /fleet/member[name=M]/error whose value says why
// (northbound/gnmi/fleet_get.h); the commands that read a fleet say which
// members' targets their report lacks.

#include <string>

namespace rdmagw::gateway {

struct MissingMember {
  std::string member;
  std::string error;  // "UNAVAILABLE: ..." as the member asked wrote it
};

}  // namespace rdmagw::gateway
