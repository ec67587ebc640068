#include "tests/analytics/small_fabric.h"

#include <gtest/gtest.h>

#include "models/path.h"

namespace rdmagw::testing {
using namespace rdmagw::analytics;  // the helpers speak the vocabulary of the code they test
namespace {

const char* const kHosts[] = {"host01", "host02"};
const char* const kNetdev = "ens1f0np0";
const char* const kSwitchPorts[] = {"Ethernet1/1", "Ethernet1/2", "Ethernet1/3"};

LinkEnd end(std::string target, LinkEnd::Kind kind, std::string name) {
  return LinkEnd{std::move(target), kind, std::move(name)};
}

}  // namespace

std::string SmallFabric::hw(const std::string& counter) {
  return "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/" + counter;
}

std::string SmallFabric::pfc(const std::string& iface, int prio, const std::string& counter) {
  return "/interfaces/interface[name=" + iface + "]/ethernet/pfc/priorities/priority[id=" + std::to_string(prio) +
         "]/state/counters/" + counter;
}

std::string SmallFabric::queue(const std::string& iface, int q, const std::string& counter) {
  return "/qos/interfaces/interface[interface-id=" + iface + "]/output/queues/queue[name=" + std::to_string(q) +
         "]/state/" + counter;
}

std::string SmallFabric::nicPfc(const std::string& nic, int prio, const std::string& counter) {
  return "/hypervisor/nics/nic[name=" + nic + "]/priorities/priority[id=" + std::to_string(prio) +
         "]/state/counters/" + counter;
}

std::string SmallFabric::portPfc(const std::string& iface, const std::string& counter) {
  return "/interfaces/interface[name=" + iface + "]/ethernet/pfc/state/counters/" + counter;
}

AnalyticsConfig SmallFabric::config(bool static_links) {
  AnalyticsConfig c;
  c.roles = fabricRoles();
  c.period = std::chrono::milliseconds(1000);
  c.window = std::chrono::milliseconds(4000);
  c.pause_storm_percent = 90;
  c.pause_storm_for = std::chrono::milliseconds(3000);
  c.links = {
      {end("leaf01", LinkEnd::Kind::kInterface, "Ethernet1/1"), end("host01", LinkEnd::Kind::kRdmaPort, "mlx5_0/1")},
      {end("leaf01", LinkEnd::Kind::kInterface, "Ethernet1/2"), end("host02", LinkEnd::Kind::kInterface, kNetdev)},
      {end("leaf01", LinkEnd::Kind::kInterface, "Ethernet1/3"), end("esx01", LinkEnd::Kind::kNic, "vmnic4")},
  };
  if (!static_links) c.links.clear();
  return c;
}

SmallFabric::SmallFabric(std::set<std::string> peer_targets, bool read_peers, bool static_links)
    : peer_targets_(std::move(peer_targets)),
      engine_(store_, config(static_links), read_peers ? &peers_ : nullptr, &board_) {
  for (const char* host : kHosts) {
    TargetHealth h;
    h.kind = "rdma-host";
    h.up = true;
    h.labels = {{"rack", "r1"}};
    storeOf(host).setHealth(host, h);
    for (const char* c : {"np-ecn-marked-roce-packets", "np-cnp-sent", "rp-cnp-handled", "rp-cnp-ignored"}) {
      counters_[host][hw(c)] = 0;
    }
    for (int p : {0, 3}) {
      for (const char* c : {"in-pause-frames", "out-pause-frames", "in-pause-duration", "out-pause-duration",
                            "in-discards"}) {
        counters_[host][pfc(kNetdev, p, c)] = 0;
      }
    }
    for (const char* c : {"pause-storm-warning-events", "pause-storm-error-events"}) {
      counters_[host][portPfc(kNetdev, c)] = 0;
    }
  }
  TargetHealth sw;
  sw.kind = "nexus";
  sw.up = true;
  storeOf("leaf01").setHealth("leaf01", sw);
  for (const char* port : kSwitchPorts) {
    // The leaf says which priorities are lossless on each port: 3 (bit 3).
    counters_["leaf01"][pfcState(port, "enabled-priorities")] = uint64_t{1} << 3;
    for (int p : {0, 3}) {
      for (const char* c : {"in-pause-frames", "out-pause-frames"}) counters_["leaf01"][pfc(port, p, c)] = 0;
      for (const char* c : {"ecn-marked-pkts", "dropped-pkts"}) counters_["leaf01"][queue(port, p, c)] = 0;
    }
  }
  TargetHealth esx;
  esx.kind = "esxi";
  esx.up = true;
  storeOf("esx01").setHealth("esx01", esx);
  for (int p : {0, 3}) {
    for (const char* c : {"rx-pause", "tx-pause", "rx-pause-duration"}) counters_["esx01"][nicPfc("vmnic4", p, c)] = 0;
  }
}

std::string SmallFabric::pfcState(const std::string& iface, const std::string& leaf) {
  return "/interfaces/interface[name=" + iface + "]/ethernet/pfc/state/" + leaf;
}

void SmallFabric::addTarget(const std::string& target, const std::string& kind) {
  TargetHealth h;
  h.kind = kind;
  h.up = true;
  storeOf(target).setHealth(target, h);
}

void SmallFabric::set(const std::string& target, const std::string& path, uint64_t value) {
  counters_[target][path] = value;
}

void SmallFabric::setText(const std::string& target, const std::string& path, const std::string& value) {
  texts_[target][path] = value;
}

void SmallFabric::unset(const std::string& target, const std::string& path) {
  counters_[target].erase(path);
  texts_[target].erase(path);
  Result<Path> p = Path::parse(path);
  ASSERT_TRUE(p.isOk()) << path;
  storeOf(target).remove(target, *p);
}

void SmallFabric::bump(const std::string& target, const std::string& path, uint64_t by) {
  auto t = counters_.find(target);
  ASSERT_NE(t, counters_.end()) << target;
  auto c = t->second.find(path);
  ASSERT_NE(c, t->second.end()) << target << " " << path;
  c->second += by;
}

void SmallFabric::tick(const std::function<void()>& bumps) {
  if (bumps) bumps();
  now_ += kTickNs;
  for (const auto& [target, leaves] : counters_) {
    if (silent_[target]) continue;
    std::vector<Update> batch;
    for (const auto& [path, value] : leaves) batch.push_back(Update{path, value, now_, {}});
    for (const auto& [path, value] : texts_[target]) batch.push_back(Update{path, value, now_, {}});
    if (target.starts_with("host")) {
      batch.push_back(Update{"/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/netdev",
                             std::string(kNetdev), now_, {}});
    }
    const Store::ApplyResult r = storeOf(target).apply(target, batch);
    ASSERT_EQ(r.rejected, 0u) << r.first_error;
  }
  const RunStats stats = engine_.runOnce(now_);
  ASSERT_EQ(stats.rejected, 0u) << "a derived leaf the schema refuses";
}

void SmallFabric::ticks(int n, const std::function<void()>& bumps) {
  for (int i = 0; i < n; ++i) tick(bumps);
}

std::map<std::string, std::string> SmallFabric::derived(const std::string& leaf) const {
  std::map<std::string, std::string> out;
  store_.forEach([&](const SeriesView& s) {
    if (!s.path.starts_with("/fabric/") || !s.path.ends_with("/" + leaf)) return;
    std::string key(s.target);
    for (const std::string& l : s.label_values) key += ":" + l;
    const auto* text = std::get_if<std::string>(&s.value);
    out[key] = text ? *text : valueToString(s.value);
  });
  return out;
}

}  // namespace rdmagw::testing
