#pragma once
// The peer copy's subscription, from what the analytics say they need
// (analytics/mirror_needs.h): rows of the few peer ports and switches named,
// keyed to them, plus the rows every member copies from every peer target.
// Those are the LLDP neighbours (how a member learns which peer port a
// host's cable ends on when only the switch speaks LLDP), each RDMA port's
// netdev (which RDMA port a host's far end is) and rp-cnp-handled (the
// DCQCN chain sums it over every other port of the fabric): one or a few
// leaves per port, against the tens of inputs every port has.

#include <chrono>
#include <string>
#include <vector>

#include "analytics/mirror_needs.h"
#include "southbound/gnmi/relay_source.h"

namespace rdmagw::gateway {

// Input rows (analytics::inputRowPaths()) copied from every peer target.
const std::vector<std::string>& everywhereRows();

// The paths (models/path.h form, keys filled in) copying `port`'s inputs:
// its interface, queue, vmnic rows. Rows not under a port (a switch's QoS
// groups, a host's GPUs) are copied for every needed target, whole.
std::vector<std::string> portPaths(const std::string& port);
std::vector<std::string> rdmaPortPaths(const std::string& device, const std::string& port);
const std::vector<std::string>& targetLevelRows();

southbound::gnmi::PeerSubscription mirrorSubscription(const analytics::MirrorNeeds& needs,
                                                      std::chrono::milliseconds sample_interval);

}  // namespace rdmagw::gateway
