#pragma once
// lldpd's `lldpctl -f json0` (and `-f json`) on a Linux host, to the
// OpenConfig LLDP neighbour leaves (models/lldp.h): per local netdev, what
// the switch port at the other end advertises. The neighbour's id (the list
// key) is its chassis ID, as NX-OS keys its own neighbours.
//
// The two shapes (lldpctl(8), lldpd's src/client/json_writer.c):
//   json0, stable: every value is an array, names are members:
//     {"lldp": [{"interface": [{"name": "ens1f0np0", "via": "LLDP", "rid": "1",
//        "chassis": [{"id": [{"type": "mac", "value": "00:de:fb:01:00:00"}],
//                     "name": [{"value": "leaf01"}], ...}],
//        "port": [{"id": [{"type": "ifname", "value": "Ethernet1/1"}],
//                  "descr": [{"value": "host01"}]}]}]}]}
//   json: one interface is an object keyed by its name, several are an
//     array of such objects; the chassis is keyed by its system name when
//     it has one; single values are plain strings:
//     {"lldp": {"interface": {"ens1f0np0": {"via": "LLDP", "chassis":
//        {"leaf01": {"id": {"type": "mac", "value": "..."}}},
//        "port": {"id": {"type": "ifname", "value": "Ethernet1/1"}, "descr": "host01"}}}}}
// Both are read; the collectors run json0.

#include <string_view>

#include "models/status.h"
#include "models/update.h"

namespace rdmagw::southbound::rdma {

// Non-ok when the text is not lldpctl JSON at all; damaged JSON keeps the
// neighbours before the damage (an error line says so). No neighbour is ok.
Status parseLldpctlJson(std::string_view text, TimestampNs ts, PollBatch& out);

}  // namespace rdmagw::southbound::rdma
