#pragma once
// A store with known leaves on three targets, shared by the gNMI server's
// tests: every expectation is written against these values.

#include <cstdint>
#include <string>
#include <vector>

#include "models/store.h"

namespace rdmagw::testing {
using namespace rdmagw::northbound::gnmi;  // the helpers speak the vocabulary of the code they test

inline constexpr TimestampNs kTs1 = 1'700'000'000'000'000'000;
inline constexpr TimestampNs kTs2 = 1'700'000'000'500'000'000;
inline constexpr uint64_t kBig = (uint64_t{1} << 60) + 7;  // needs 64 bits: JSON_IETF quotes it

inline const std::string kHostIfIn = "/interfaces/interface[name=eth0]/state/counters/in-octets";
inline const std::string kHostIfOut = "/interfaces/interface[name=eth0]/state/counters/out-octets";
inline const std::string kHostFw = "/rdma/devices/device[name=mlx5_0]/state/fw-version";
inline const std::string kHostPortState = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/state";
inline const std::string kHostPortRate = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/rate";
inline const std::string kHostXmit =
    "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/counters/port-xmit-octets";
inline const std::string kLeafIn1 = "/interfaces/interface[name=eth1/1]/state/counters/in-octets";
inline const std::string kLeafIn2 = "/interfaces/interface[name=eth1/2]/state/counters/in-octets";
inline const std::string kLeafQueue =
    "/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue[name=3]/state/transmit-pkts";

inline Update leaf(std::string path, Value v, TimestampNs ts) { return Update{std::move(path), std::move(v), ts, {}}; }

// host01, host02 (RDMA hosts) and leaf01 (a switch).
inline void fillTestStore(Store& store) {
  for (const char* host : {"host01", "host02"}) {
    const uint64_t base = std::string(host) == "host01" ? 100 : 1000;
    std::vector<Update> b = {
        leaf(kHostIfIn, base, kTs1),
        leaf(kHostIfOut, base * 2, kTs1),
        leaf(kHostFw, std::string("28.39.1002"), kTs1),
        leaf(kHostPortState, std::string("ACTIVE"), kTs1),
        leaf(kHostPortRate, 1.0e11, kTs1),
        leaf(kHostXmit, kBig, kTs1),
    };
    store.apply(host, b);
  }
  std::vector<Update> sw = {
      leaf(kLeafIn1, uint64_t{11}, kTs2),
      leaf(kLeafIn2, uint64_t{12}, kTs2),
      leaf(kLeafQueue, uint64_t{13}, kTs2),
  };
  store.apply("leaf01", sw);
}

}  // namespace rdmagw::testing
