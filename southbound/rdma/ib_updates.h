#pragma once
// Turns IbDevice structs into model updates under /rdma/devices/... The one
// place that knows the /rdma path layout, shared by the live collector and the
// `sysfs-dump` parser.

#include <string>
#include <vector>

#include "models/update.h"
#include "southbound/rdma/ib_class.h"

namespace rdmagw::southbound::rdma {

void appendIbUpdates(const std::vector<IbDevice>& devices, PollBatch& batch);

// Path strings of the two levels, exposed for tests.
std::string devicePath(const std::string& device, const std::string& leaf);
std::string portPath(const std::string& device, uint32_t port, const std::string& leaf);

}  // namespace rdmagw::southbound::rdma
