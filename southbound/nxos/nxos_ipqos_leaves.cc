#include "southbound/nxos/nxos_ipqos_leaves.h"

#include "models/roce_leaves.h"
#include "southbound/nxos/nxos_ipqos.h"

namespace rdmagw::southbound::nxos {

Status parseNxosIpqosLeaves(std::string_view text, TimestampNs ts, PollBatch& out) {
  rdmagw::roce::SwitchQos qos;
  const Status st = parseNxosIpqos(text, qos);
  if (!st.isOk() && st.code() != Status::Code::kInvalidArgument) return st;
  if (!st.isOk()) out.error(st.message());
  rdmagw::roce::appendSwitchQosLeaves(qos, ts, out);
  return Status::ok();
}

}  // namespace rdmagw::southbound::nxos
