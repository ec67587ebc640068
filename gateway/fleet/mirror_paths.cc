#include "gateway/fleet/mirror_paths.h"

#include <algorithm>
#include <set>

#include "analytics/fabric_reader.h"
#include "models/path.h"

namespace rdmagw::gateway {
namespace {

// A list a port is the key of, and how many elements below it to keep:
// one subscription per subtree, not one per row.
struct PortFamily {
  std::vector<std::string> list;  // the elements down to the port's list
  std::string key;
};

const std::vector<PortFamily>& portFamilies() {
  static const std::vector<PortFamily> families = {
      {{"interfaces", "interface"}, "name"},
      {{"qos", "interfaces", "interface"}, "interface-id"},
      {{"hypervisor", "nics", "nic"}, "name"},
  };
  return families;
}

const std::vector<std::string> kRdmaPortList = {"rdma", "devices", "device", "ports", "port"};

std::vector<std::string> elems(const std::string& row) {
  std::vector<std::string> out;
  size_t at = 1;
  while (at <= row.size()) {
    size_t end = row.find('/', at);
    if (end == std::string::npos) end = row.size();
    if (end > at) out.push_back(row.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

bool startsWith(const std::vector<std::string>& e, const std::vector<std::string>& head) {
  return e.size() >= head.size() && std::equal(head.begin(), head.end(), e.begin());
}

// The subtrees (element names below the port's list element, two deep) of
// the input rows under `list`.
std::vector<std::vector<std::string>> subtreesUnder(const std::vector<std::string>& list) {
  std::set<std::vector<std::string>> out;
  for (const std::string& row : analytics::inputRowPaths()) {
    const std::vector<std::string> e = elems(row);
    if (!startsWith(e, list) || e.size() <= list.size()) continue;
    const size_t keep = std::min(e.size(), list.size() + 2);
    out.insert(std::vector<std::string>(e.begin() + long(list.size()), e.begin() + long(keep)));
  }
  return {out.begin(), out.end()};
}

std::string keyed(const std::vector<std::string>& list,
                  const std::map<size_t, std::map<std::string, std::string>>& keys,
                  const std::vector<std::string>& below) {
  Path p;
  for (size_t i = 0; i < list.size(); ++i) {
    auto k = keys.find(i);
    p.add(list[i], k == keys.end() ? std::map<std::string, std::string>{} : k->second);
  }
  for (const std::string& b : below) p.add(b);
  return p.toString();
}

bool underPort(const std::vector<std::string>& e) {
  if (startsWith(e, kRdmaPortList)) return true;
  for (const PortFamily& f : portFamilies()) {
    if (startsWith(e, f.list)) return true;
  }
  return false;
}

}  // namespace

const std::vector<std::string>& everywhereRows() {
  static const std::vector<std::string> rows = [] {
    std::vector<std::string> out;
    for (const std::string& row : analytics::inputRowPaths()) {
      if (row.rfind("/lldp/", 0) == 0 || row == "/rdma/devices/device/ports/port/state/netdev" ||
          row == "/rdma/devices/device/ports/port/state/hw-counters/rp-cnp-handled") {
        out.push_back(row);
      }
    }
    return out;
  }();
  return rows;
}

const std::vector<std::string>& targetLevelRows() {
  static const std::vector<std::string> rows = [] {
    std::vector<std::string> out;
    for (const std::string& row : analytics::inputRowPaths()) {
      if (row.rfind("/lldp/", 0) != 0 && !underPort(elems(row))) out.push_back(row);
    }
    return out;
  }();
  return rows;
}

std::vector<std::string> portPaths(const std::string& port) {
  static const std::vector<std::vector<std::vector<std::string>>> subtrees = [] {
    std::vector<std::vector<std::vector<std::string>>> out;
    for (const PortFamily& f : portFamilies()) out.push_back(subtreesUnder(f.list));
    return out;
  }();
  std::vector<std::string> out;
  for (size_t i = 0; i < portFamilies().size(); ++i) {
    const PortFamily& f = portFamilies()[i];
    for (const std::vector<std::string>& below : subtrees[i]) {
      out.push_back(keyed(f.list, {{f.list.size() - 1, {{f.key, port}}}}, below));
    }
  }
  return out;
}

std::vector<std::string> rdmaPortPaths(const std::string& device, const std::string& port) {
  static const std::vector<std::vector<std::string>> subtrees = subtreesUnder(kRdmaPortList);
  std::vector<std::string> out;
  for (const std::vector<std::string>& below : subtrees) {
    out.push_back(keyed(kRdmaPortList, {{2, {{"name", device}}}, {4, {{"port-num", port}}}}, below));
  }
  return out;
}

southbound::gnmi::PeerSubscription mirrorSubscription(const analytics::MirrorNeeds& needs,
                                                      std::chrono::milliseconds sample_interval) {
  southbound::gnmi::PeerSubscription out;
  out.sample_interval = sample_interval;
  out.everywhere = everywhereRows();
  auto add = [&out](const std::string& target, std::vector<std::string> paths) {
    std::vector<std::string>& to = out.per_target[target];
    to.insert(to.end(), std::make_move_iterator(paths.begin()), std::make_move_iterator(paths.end()));
  };
  for (const std::string& target : needs.whole) add(target, analytics::inputRowPaths());
  std::set<std::string> named;
  for (const auto& entry : needs.ports) named.insert(entry.first);
  for (const auto& entry : needs.rdma_ports) named.insert(entry.first);
  for (const std::string& target : named) {
    if (needs.whole.count(target)) continue;
    add(target, targetLevelRows());
    if (auto ports = needs.ports.find(target); ports != needs.ports.end()) {
      for (const std::string& port : ports->second) add(target, portPaths(port));
    }
    if (auto rdma = needs.rdma_ports.find(target); rdma != needs.rdma_ports.end()) {
      for (const auto& [device, port] : rdma->second) add(target, rdmaPortPaths(device, port));
    }
  }
  return out;
}

}  // namespace rdmagw::gateway
