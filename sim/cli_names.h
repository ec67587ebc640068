#pragma once
// The names of what a simulated device answers: the commands and the file
// each one's output is kept in. Apart from the renderers (sim/cli_catalog.h)
// because the device shell needs only these, and is built with nothing
// else of the simulator (sim/CMakeLists.txt says why).

#include <string>
#include <vector>

namespace rdmagw::sim {

// Lowercase, every run of characters other than [a-z0-9] becomes one '_',
// no leading or trailing '_': "show queuing interface | json" ->
// "show_queuing_interface_json".
std::string commandSlug(const std::string& command);

// The canonical NX-OS commands a leaf answers, in order.
const std::vector<std::string>& nxosCommands();

// What the `os` marker file of a device directory holds.
inline constexpr const char* kOsNxos = "nxos";
inline constexpr const char* kOsEsxi = "esxi";

}  // namespace rdmagw::sim
