#pragma once
// Builds the RDMA host collector from its config (validated first).

#include "models/status.h"
#include "southbound/poll_source.h"
#include "southbound/rdma/rdma_config.h"

namespace rdmagw::southbound::rdma {

Result<southbound::PollSourcePtr> createRdmaSource(const RdmaConfig& config);

}  // namespace rdmagw::southbound::rdma
