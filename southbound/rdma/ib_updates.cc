#include "southbound/rdma/ib_updates.h"

#include "models/path.h"
#include "southbound/rdma/counter_table.h"

namespace rdmagw::southbound::rdma {
namespace {

Path deviceBase(const std::string& device) {
  Path p;
  p.add("rdma").add("devices").add("device", {{"name", device}});
  return p;
}

Path portBase(const std::string& device, uint32_t port) {
  Path p = deviceBase(device);
  p.add("ports").add("port", {{"port-num", std::to_string(port)}}).add("state");
  return p;
}

// leaf may hold '/' ("counters/port-xmit-octets"): one element per part.
std::string withLeaf(Path p, const std::string& leaf) {
  size_t start = 0;
  while (start <= leaf.size()) {
    size_t slash = leaf.find('/', start);
    p.add(leaf.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return p.toString();
}

void addString(PollBatch& b, const std::string& path,
               const std::optional<Reading<std::string>>& r) {
  if (r) b.add(path, r->value, r->ts);
}

void addCounters(PollBatch& b, const std::string& dev, const IbPort& port,
                 const std::vector<IbCounter>& counters, const char* dir,
                 const CounterSpec* (*find)(std::string_view)) {
  for (const IbCounter& c : counters) {
    const CounterSpec* spec = find(c.name);
    // Unknown names still go out, hyphenated and assumed 64-bit: the store
    // keeps leaves it has no schema for and Prometheus skips them.
    std::string leaf = spec ? std::string(spec->leaf) : hyphenate(c.name);
    uint64_t mult = spec ? spec->multiplier : 1;
    CounterSource src = spec ? spec->source : CounterSource::monotonic64();
    // raw * 4 overflows only past 2^62 words (16 EiB): not a concern.
    b.add(portPath(dev, port.num, std::string(dir) + "/" + leaf), c.raw * mult, c.ts, src);
  }
}

}  // namespace

std::string devicePath(const std::string& device, const std::string& leaf) {
  Path p = deviceBase(device);
  p.add("state");
  return withLeaf(std::move(p), leaf);
}

std::string portPath(const std::string& device, uint32_t port, const std::string& leaf) {
  return withLeaf(portBase(device, port), leaf);
}

void appendIbUpdates(const std::vector<IbDevice>& devices, PollBatch& b) {
  for (const IbDevice& d : devices) {
    addString(b, devicePath(d.name, "fw-version"), d.fw_ver);
    addString(b, devicePath(d.name, "hca-type"), d.hca_type);
    addString(b, devicePath(d.name, "board-id"), d.board_id);
    addString(b, devicePath(d.name, "node-guid"), d.node_guid);
    for (const IbPort& p : d.ports) {
      auto addEnum = [&](const std::optional<Reading<IbEnum>>& r, const char* name_leaf,
                         const char* id_leaf) {
        if (!r) return;
        if (r->value.name) b.add(portPath(d.name, p.num, name_leaf), *r->value.name, r->ts);
        if (r->value.id) b.add(portPath(d.name, p.num, id_leaf), *r->value.id, r->ts);
      };
      addEnum(p.state, "state", "state-id");
      addEnum(p.phys_state, "phys-state", "phys-state-id");
      if (p.rate_bps) b.add(portPath(d.name, p.num, "rate"), p.rate_bps->value, p.rate_bps->ts);
      addString(b, portPath(d.name, p.num, "link-layer"), p.link_layer);
      addString(b, portPath(d.name, p.num, "netdev"), p.netdev);
      addCounters(b, d.name, p, p.counters, "counters", findPmaCounter);
      addCounters(b, d.name, p, p.hw_counters, "hw-counters", findHwCounter);
    }
  }
}

}  // namespace rdmagw::southbound::rdma
