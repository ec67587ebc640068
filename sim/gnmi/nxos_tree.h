#pragma once
// The counters a simulated NX-OS leaf serves over gNMI, as a flat list of
// containers (one per interface / queue) with uint64 fields, plus the path
// matching and Notification rendering the target needs. Pure functions: no
// gRPC, no clock.
//
// Paths served (kept in step with southbound/gnmi/mapping/mapping_table.cc;
// interface keys are NX-OS short names: Ethernet1/3 -> eth1/3):
//  origin "openconfig" (Ethernet ports, and ii ports when enabled):
//   /interfaces/interface[name=eth1/3]/state/counters/
//       {in,out}-octets, {in,out}-pkts, {in,out}-{unicast,multicast,broadcast}-pkts,
//       {in,out}-discards, {in,out}-errors, in-fcs-errors
//   /interfaces/interface[name=eth1/3]/state/
//       mtu; strings oper-status, admin-status, description
//   /interfaces/interface[name=eth1/3]/ethernet/state/counters/
//       in-mac-pause-frames, out-mac-pause-frames
//   /interfaces/interface[name=eth1/3]/ethernet/state/
//       strings port-speed, negotiated-port-speed (SPEED_100GB: Switch::speed_bps)
//   /qos/interfaces/interface[interface-id=eth1/3]/output/queues/
//       queue[name=c-out-8q-q-default|c-out-8q-q1..q7]/state/
//       transmit-pkts, transmit-octets, dropped-pkts      (unicast + multicast)
//  origin "device" (native; Ethernet ports, and ii ports in ipqos when enabled):
//   /System/ipqos-items/queuing-items/policy-items/out-items/intf-items/
//       If-list[name=eth1/3]/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q3]
//       fields txPackets, txBytes, dropPackets, dropBytes, randEcnMarkedPackets,
//       pfcTxPpp, pfcRxPpp   (PFC of CoS N counts in qos-group N's queue)
//   /System/intf-items/phys-items/PhysIf-list[id=eth1/3]/dbgDot3Stats-items
//       fields inPauseFrames, outPauseFrames
//  origin "openconfig", strings (host ports with an LLDP neighbour):
//   /lldp/interfaces/interface[name=eth1/3]/neighbors/neighbor[id=<chassis id>]/state/
//       system-name, port-id, port-id-type, chassis-id, port-description
// Values: PROTO encoding -> uint_val per leaf; JSON -> json_val per leaf
// (a bare number). With the native_json_blobs quirk a native container is one
// update at the container path whose json_val is {"txPackets":N,...} in
// either encoding; a subscription that names a field inside it still gets
// that field as a leaf.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gnmi.pb.h"
#include "models/value.h"
#include "sim/switch.h"

namespace rdmagw::sim::gnmi_tree {

enum class Origin { kOpenconfig, kDevice };

struct Elem {
  std::string name;
  std::map<std::string, std::string> keys;
};

struct Container {
  Origin origin = Origin::kOpenconfig;
  bool native = false;  // a blob candidate
  std::vector<Elem> path;
  std::vector<std::string> field_names;
  std::vector<uint64_t> values;  // parallel to field_names
  // String leaves (LLDP neighbour state): when set, parallel to field_names
  // and served as string_val (PROTO) or a JSON string; `values` is unused.
  std::vector<std::string> texts;
};

struct Snapshot {
  TimestampNs ts = 0;
  uint64_t version = 0;
  std::vector<Container> containers;  // same layout for every tick of a switch
};

struct TreeOptions {
  bool include_internal_ports = true;  // ii ports: OpenConfig interfaces and native ipqos
};

// "Ethernet1/3" -> "eth1/3"; other names unchanged.
std::string shortIfName(const std::string& name);
// Queue q's class-map name in the default 8q policy.
std::string queueClassName(int q);

std::shared_ptr<const Snapshot> build(const Switch& sw, TimestampNs ts, uint64_t version,
                                      const TreeOptions& options);

// One selected value: a field of a container, or the whole container as a
// JSON blob (field == kBlob).
struct Selection {
  static constexpr int kBlob = -1;
  size_t container;
  int field;
  bool operator<(const Selection& o) const {
    return container != o.container ? container < o.container : field < o.field;
  }
  bool operator==(const Selection&) const = default;
};

// Everything `path` (a subscription path, wildcards `*`, `...` and `*` keys
// allowed, module prefixes `openconfig-interfaces:` tolerated) covers in the
// snapshot. Unknown or not-yet-existing paths select nothing.
std::vector<Selection> select(const Snapshot& snap, const gnmi::Path& path, bool blobs);

struct RenderOptions {
  bool echo_origin = true;
  bool proto = true;  // PROTO: uint_val; JSON: json_val
};

// One Notification per container, in selection order (sorted).
std::vector<gnmi::Notification> render(const Snapshot& snap, const std::vector<Selection>& sel,
                                       const RenderOptions& options);

// A change-detection fingerprint of one selection's value(s).
uint64_t fingerprint(const Snapshot& snap, const Selection& s);

// "/interfaces/interface[name=eth1/1]/state" with origin "openconfig:" when set.
std::string toString(const gnmi::Path& path);
// Parses the form above (keys may hold '/' inside brackets). For tests.
gnmi::Path parsePath(const std::string& text);

// /interfaces/interface[name=eth1/<intf>]/state/counters[/<leaf>] as NX-OS
// sends it (short interface names; origin "openconfig" unless told not to,
// as a switch that does not echo the origin).
gnmi::Path counterPath(int intf, const std::string& leaf, bool origin = true);

}  // namespace rdmagw::sim::gnmi_tree
