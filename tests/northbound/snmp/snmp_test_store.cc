#include "tests/northbound/snmp/snmp_test_store.h"

#include <gtest/gtest.h>

namespace rdmagw::testing {

void put(Store* store, const std::string& target, const std::string& path, Value v) {
  Update u{path, std::move(v), nowNs(), CounterSource::monotonic64()};
  Store::ApplyResult r = store->apply(target, std::span<const Update>(&u, 1));
  ASSERT_EQ(r.rejected, 0u) << path << ": " << r.first_error;
}

namespace {

void health(Store* store, const std::string& target, const std::string& kind, const std::string& transport) {
  TargetHealth h;
  h.kind = kind;
  h.transport = transport;
  h.up = true;
  h.last_attempt_ns = 1700000000'000000000;
  h.last_success_ns = 1700000000'000000000;
  h.poll_duration_ns = 250'000'000;
  h.polls = 10;
  h.poll_errors = 1;
  store->setHealth(target, h);
}

}  // namespace

void fillStore(Store* store) {
  const std::string eth11 = "/interfaces/interface[name=eth1/1]";
  put(store, kSwitch, kEth11InOctets, kEth11InOctetsValue);
  put(store, kSwitch, eth11 + "/state/counters/out-octets", uint64_t{1234});
  put(store, kSwitch, eth11 + "/state/counters/in-unicast-pkts", uint64_t{10});
  put(store, kSwitch, eth11 + "/state/counters/in-errors", uint64_t{3});
  put(store, kSwitch, eth11 + "/state/counters/in-pkts", uint64_t{11});
  put(store, kSwitch, eth11 + "/ethernet/state/counters/in-mac-pause-frames", uint64_t{77});
  put(store, kSwitch, eth11 + "/ethernet/state/counters/out-mac-pause-frames", uint64_t{78});
  put(store, kSwitch, eth11 + "/ethernet/pfc/state/counters/in-pfc-frames", uint64_t{500});
  put(store, kSwitch, eth11 + "/ethernet/pfc/state/counters/out-pfc-frames", uint64_t{600});
  put(store, kSwitch, eth11 + "/ethernet/pfc/state/admin-mode", std::string("on"));
  put(store, kSwitch, eth11 + "/state/description", std::string("host01:mlx5_0"));
  put(store, kSwitch, eth11 + "/state/oper-status", std::string("UP"));
  put(store, kSwitch, eth11 + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames", uint64_t{31});
  put(store, kSwitch, eth11 + "/ethernet/pfc/priorities/priority[id=3]/state/counters/out-pause-frames", uint64_t{32});
  put(store, kSwitch, eth11 + "/ethernet/pfc/priorities/priority[id=4]/state/counters/in-pause-frames", uint64_t{41});
  put(store, kSwitch, kEth12InOctets, uint64_t{999});
  put(store, kSwitch, "/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue[name=q3]/state/transmit-pkts",
      uint64_t{1000});
  put(store, kSwitch,
      "/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue[name=q3]/state/ecn-marked-pkts", uint64_t{12});
  health(store, kSwitch, "nexus", "ssh");

  const std::string port = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/";
  put(store, kHost, port + "hw-counters/np-cnp-sent", uint64_t{42});
  put(store, kHost, port + "counters/symbol-error", uint64_t{5});
  put(store, kHost, port + "rate", uint64_t{100'000'000'000});
  put(store, kHost, port + "state", std::string("ACTIVE"));
  put(store, kHost, "/rdma/devices/device[name=mlx5_0]/state/fw-version", std::string("28.39.1002"));
  put(store, kHost, "/interfaces/interface[name=ens6]/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-duration",
      uint64_t{1'500'000});
  health(store, kHost, "rdma-host", "sysfs");

  const std::string nic = "/hypervisor/nics/nic[name=vmnic0]";
  put(store, kEsxi, nic + "/state/link-state", std::string("Up"));
  put(store, kEsxi, nic + "/state/speed", uint64_t{25'000'000'000});
  put(store, kEsxi, nic + "/state/counters/bytes-received", uint64_t{100});
  put(store, kEsxi, nic + "/state/pause-counters/tx-pause-storm-warning-events", uint64_t{2});
  put(store, kEsxi, nic + "/priorities/priority[id=3]/state/counters/rx-pause", uint64_t{9});
  health(store, kEsxi, "esxi", "ssh");
}

}  // namespace rdmagw::testing
