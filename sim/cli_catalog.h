#pragma once
// The commands each simulated device answers, and where their output lives:
// <dir>/<device>/cli/<commandSlug(command)>, rewritten every tick. The
// device shell (sim/device_shell.h) and the tree writer both use this list,
// so a command is either rendered and answerable or neither.

#include <string>
#include <vector>

#include "sim/fabric.h"

namespace rdmagw::sim {

struct RenderedCommand {
  std::string command;  // canonical form: "show queuing interface | json"
  std::string output;
};

// Lowercase, every run of characters other than [a-z0-9] becomes one '_',
// no leading or trailing '_': "show queuing interface | json" ->
// "show_queuing_interface_json".
std::string commandSlug(const std::string& command);

// The canonical NX-OS commands a leaf answers, in order.
const std::vector<std::string>& nxosCommands();

std::vector<RenderedCommand> renderSwitch(const Fabric& fabric, const Switch& sw);
std::vector<RenderedCommand> renderEsxi(const Fabric& fabric, const EsxiHost& host);

// What the `os` marker file of a device directory holds.
inline constexpr const char* kOsNxos = "nxos";
inline constexpr const char* kOsEsxi = "esxi";

}  // namespace rdmagw::sim
