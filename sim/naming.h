#pragma once
// Names and sysfs strings of simulated hosts and devices, kept apart from the
// traffic model so the tree writer and tests can use them alone.

#include <cstdint>
#include <string>

namespace rdmagw::sim {

// host01..hostNN: zero-padded to the digits of `count`, at least two.
std::string hostName(int index, int count);
std::string switchName(int index, int count);  // leaf01..
std::string esxiName(int index, int count);    // esx01..
std::string deviceName(int index);  // mlx5_<index>
std::string netdevName(int index);  // ens1f<index>np<index>
// The kernel's rate_show format: "100 Gb/sec (4X EDR)".
std::string rateString(double gbps);
// sysfs node_guid format: four groups of four hex digits.
std::string guidString(uint64_t guid);

}  // namespace rdmagw::sim
