#pragma once
// Names the calling thread as `top -H`, `perf` and /proc/<pid>/task/*/comm
// show it, so an operator can see which part of the gateway uses the CPU
// (poll workers, one gNMI control thread per switch, the SNMP refresher...).
// Linux keeps 15 bytes; longer names are cut.

#include <string_view>

namespace rdmagw {

void nameThisThread(std::string_view name);

}  // namespace rdmagw
