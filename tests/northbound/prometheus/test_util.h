#pragma once
// Shared helpers for the Prometheus northbound tests: a store filled the way
// collectors fill it, exposition lines. (Shell commands, temp directories and
// free ports: tests/support.)

#include <string>
#include <vector>

#include "models/store.h"

namespace rdmagw::testing {

inline constexpr const char* kCnpPath =
    "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent";
inline constexpr const char* kPfcPath =
    "/interfaces/interface[name=ens1f0]/ethernet/pfc/priorities/priority[id=3]/state/counters/"
    "in-pause-frames";
inline constexpr const char* kPfcDurationPath =
    "/interfaces/interface[name=ens1f0]/ethernet/pfc/priorities/priority[id=3]/state/counters/"
    "in-pause-duration";
inline constexpr const char* kFwPath = "/rdma/devices/device[name=mlx5_0]/state/fw-version";
inline constexpr const char* kRatePath = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/rate";
inline constexpr const char* kUnknownPath = "/vendor/widgets/widget[id=1]/state/sprockets";

// host01: up, kind rdma-host over sysfs, extra labels rack=r1; a CNP counter
// of 42, PFC frames 7 and 1.5 s of pause on priority 3, firmware string, a
// 100 Gb/s rate and one leaf the schema does not know. down1: down, no data.
void fillStore(Store* store);

// Applies one update; fails the test when the store rejects it.
void put(Store* store, const std::string& target, const std::string& path, Value v);

std::vector<std::string> splitLines(const std::string& text);

}  // namespace rdmagw::testing
