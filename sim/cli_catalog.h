#pragma once
// The commands each simulated device answers, and where their output lives:
// <dir>/<device>/cli/<commandSlug(command)>, rewritten every tick. The
// device shell (sim/device_shell.h) and the tree writer both use this list,
// so a command is either rendered and answerable or neither.

#include <string>
#include <vector>

#include "sim/cli_names.h"
#include "sim/fabric.h"

namespace rdmagw::sim {

struct RenderedCommand {
  std::string command;  // canonical form: "show queuing interface | json"
  std::string output;
};

std::vector<RenderedCommand> renderSwitch(const Fabric& fabric, const Switch& sw);
std::vector<RenderedCommand> renderEsxi(const Fabric& fabric, const EsxiHost& host);

}  // namespace rdmagw::sim
