#pragma once
// The /fabric subtree of a running gateway as `rdmagw fabric` reads it (one
// gNMI Get), sorted by the shape of each leaf's path (yang/rdmagw-fabric.yang)
// into the tables the commands print: DCQCN per RDMA port, PFC per port and
// priority, the link and DCB consistency of each interface, and the RoCE
// check findings. Shared by the fabric-wide view and the one of a pod's path.

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gnmi.pb.h"

namespace rdmagw::gateway {

// Leaf name -> value text, for one DCQCN port, one PFC port/priority, ...
using Leaves = std::map<std::string, std::string>;

struct FabricView {
  std::map<std::tuple<std::string, std::string, std::string>, Leaves> dcqcn;  // target, device, port
  std::map<std::tuple<std::string, std::string, int>, Leaves> pfc;            // target, interface, priority
  std::map<std::pair<std::string, std::string>, Leaves> links;                // target, interface
  std::map<std::pair<std::string, std::string>, Leaves> dcb;                  // target, interface
  std::map<std::pair<std::string, std::string>, Leaves> findings;             // target, finding id
};

// Sorts one update of /fabric into the view; leaves of other shapes are not shown.
void addFabricUpdate(const std::string& target, const ::gnmi::Update& u, FabricView* view);

// A list key of a path element; empty when it has none of that name.
std::string elemKey(const ::gnmi::PathElem& e, const char* name);

std::string leafOr(const Leaves& l, const std::string& leaf, const std::string& absent = "-");
// A fraction as a percentage ("0.25" -> "25.0%"); other text unchanged.
std::string percent(const std::string& ratio);

// Something to look at: a broken DCQCN chain; a pause tree (root or
// victim), unbalanced pause or lossless drops on a priority.
bool dcqcnProblem(const Leaves& l);
bool pfcProblem(const Leaves& l);
// A priority whose only leaves are rates (a port counting pause on a
// priority nobody judges) says nothing a verdict row would.
bool hasPfcVerdict(const Leaves& l);

// A plain-text table: columns as wide as their widest cell, two spaces
// apart, under its title and followed by an empty line.
std::string formatTable(const std::string& title, const std::vector<std::vector<std::string>>& rows);
void printTable(const std::string& title, const std::vector<std::vector<std::string>>& rows);

}  // namespace rdmagw::gateway
