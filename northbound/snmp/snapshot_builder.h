#pragma once
// Builds a MibSnapshot from the store: one pass over each target's series,
// placing every leaf whose schema row has an OID (MibCatalog::placements),
// plus the columns the schema derives from keys rather than leaves (ifIndex,
// ifDescr, ifType, ifName, ifCounterDiscontinuityTime) and the default
// context's target table (the gateway metrics the schema places there).
// Cost: proportional to the series served; the store's shard lock is held
// only while one target is visited, never while answering.
//
// In a fleet, the default context also lists every target of the fleet
// with the member that owns it and that member's addresses (the schema's
// fleet-* columns), read from the FleetView the fleet layer writes: the
// builder never asks etcd. Outside a fleet (no view, or a view not
// enabled) that table is empty.
//
// Contexts: one per store target, named exactly as the target (the name in
// the gateway config). SNMPv3 managers pass it with -n; v2c communities are
// mapped to it by snmpd's `com2sec -Cn <target>`.

#include <cstdint>
#include <vector>

#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/snmp/if_index_registry.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/mib_snapshot.h"

namespace rdmagw::northbound::snmp {

class SnapshotBuilder {
 public:
  // `agent_start_ns`: the zero of ifCounterDiscontinuityTime (TimeStamp):
  // a discontinuity before it reads 0, as RFC 2863 says for one that
  // happened before the agent's last re-initialization. The subagent
  // cannot read snmpd's sysUpTime, so the value is offset from it by a
  // constant; managers compare it between polls, which that keeps exact.
  // `fleet` may be null (not in a fleet); it must outlive the builder.
  SnapshotBuilder(const Store& store, IfIndexRegistry& registry, TimestampNs agent_start_ns,
                  const FleetView* fleet = nullptr);

  // Never fails: a leaf that cannot be placed (a key that should be a
  // number and is not) is left out. Saves new ifIndex assignments.
  MibSnapshotPtr build();

 private:
  const Store& store_;
  IfIndexRegistry& registry_;
  const TimestampNs agent_start_ns_;
  const FleetView* const fleet_;
  FleetSnapshot fleet_copy_;           // copied only when the view's version moved
  uint64_t fleet_version_ = UINT64_MAX;  // of fleet_copy_; none yet
  std::vector<bool> interface_keyed_;  // per schema leaf: first key names an interface
  std::vector<Placement> interface_columns_;  // derived from an interface's key (ifIndex, ifName...)
  std::vector<Placement> target_columns_;     // derived from a target's health (its last error)
  std::vector<Placement> fleet_columns_;      // derived from the fleet's placement of its targets
};

}  // namespace rdmagw::northbound::snmp
