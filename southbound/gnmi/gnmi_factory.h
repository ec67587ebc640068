#pragma once
// Builds a target's streaming source: gNMI only (ssh_fallback null,
// transport `gnmi`) or gNMI with the SSH CLI source as fallback (transport
// `auto`). The config is validated first; errors are path-prefixed by field.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "models/store.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/poll_source.h"
#include "southbound/stream_source.h"

namespace rdmagw::southbound::gnmi {

// The source writes `store` (data and the target's health) until stop();
// `store` must outlive it. `labels` go into TargetHealth.labels.
Result<std::unique_ptr<southbound::StreamSource>> createGnmiSource(
    const std::string& target_name, const GnmiConfig& config, Store& store,
    southbound::PollSourcePtr ssh_fallback = nullptr,
    std::chrono::milliseconds ssh_interval = std::chrono::seconds(10),
    std::vector<std::pair<std::string, std::string>> labels = {},
    southbound::PollSourcePtr cli_supplement = nullptr);

}  // namespace rdmagw::southbound::gnmi
