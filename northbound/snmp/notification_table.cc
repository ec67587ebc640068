#include "northbound/snmp/notification_table.h"

namespace rdmagw::northbound::snmp {
namespace {

// One row per notification; mibs/gen_rdmagw_mib.py parses these lines
// (keep each row's fields in this order and its description one string).
// Codes are those of the schema rows (models/schema_table.cc).
const NotificationDef kNotifications[] = {
    {"dcqcn-verdict", "rdmagwFabricDcqcnVerdictChange", 1, "rdmagwFabricDcqcnTable", 1, {2}, 2, 0b11, "The DCQCN chain verdict of an RDMA port changed, or a port first appeared with a broken chain (marks-no-cnp, cnp-not-handled, cnp-ignored). Idle and working are normal."},
    {"pause-storm", "rdmagwFabricPauseStormChange", 2, "rdmagwFabricPrioTable", 2, {}, 1, 0b1, "A port started (1) or stopped (0) storming its link peer with PFC pause on a priority."},
    {"lossless-drop", "rdmagwFabricLosslessDropChange", 3, "rdmagwFabricPrioTable", 3, {}, 1, 0b1, "A lossless (PFC) priority of a port started (1) or stopped (0) dropping packets: the fabric is not lossless while it is 1."},
    {"pause-tree-state", "rdmagwFabricPauseTreeStateChange", 4, "rdmagwFabricPrioTable", 4, {5, 6}, 1, 0b1, "The place of a port in a pause tree on a priority changed: clear (0), victim (1) or root (2, congestion starts here), with the tree's size and roots."},
    {"dcb-consistency", "rdmagwFabricDcbConsistencyChange", 5, "rdmagwFabricDcbTable", 1, {3}, 1, 0b1, "The DCB configuration of a port against the other end of its cable became inconsistent (1: PFC priorities or MTU differ, or a host NIC has DCQCN NP or RP off on a lossless priority; the mismatches say which) or consistent again (0)."},
};

}  // namespace

std::span<const NotificationDef> notificationTable() { return kNotifications; }

}  // namespace rdmagw::northbound::snmp
