#pragma once
// `esxcli network nic list`: a table whose columns are found from the header
// and the dashes line under it (one run of dashes per column), never from
// fixed offsets, so wider names, new columns and reordered columns parse.
// The last column (Description) runs to the end of the line and may hold
// spaces. Rows whose cells do not line up with the dashes are skipped with an
// error line rather than read shifted.
//
// -> /hypervisor/nics/nic[name=vmnicN]/state/{driver,link-state,speed,
//    admin-status,mtu} (speed in bits per second: the Mbps column x 1e6;
//    Admin Status and MTU only where the table has those columns).

#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "models/update.h"
#include "models/value.h"

namespace rdmagw::southbound::esxi {

Status parseEsxiNicList(std::string_view text, TimestampNs ts, PollBatch& out);

// The NIC names of the table, in table order, for discovery (which vmnics to
// ask `nic stats get` and vsish about). Empty when the text is no such table.
std::vector<std::string> nicNames(std::string_view nic_list_text);

}  // namespace rdmagw::southbound::esxi
