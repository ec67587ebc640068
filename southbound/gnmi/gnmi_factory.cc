#include "southbound/gnmi/gnmi_factory.h"

#include "southbound/gnmi/fallback_source.h"

namespace rdmagw::southbound::gnmi {

Result<std::unique_ptr<southbound::StreamSource>> createGnmiSource(
    const std::string& target_name, const GnmiConfig& config, Store& store,
    southbound::PollSourcePtr ssh_fallback, std::chrono::milliseconds ssh_interval,
    std::vector<std::pair<std::string, std::string>> labels, southbound::PollSourcePtr cli_supplement) {
  if (target_name.empty()) return Status::invalidArgument("target name: required");
  if (Status s = config.validate(); !s.isOk()) return s;
  if (ssh_fallback != nullptr && ssh_interval.count() <= 0) {
    return Status::invalidArgument("ssh_interval: must be positive");
  }
  FallbackOptions opts;
  opts.target = target_name;
  opts.config = config;
  opts.ssh = std::move(ssh_fallback);
  opts.ssh_interval = ssh_interval;
  opts.labels = std::move(labels);
  opts.cli_supplement = std::move(cli_supplement);
  std::unique_ptr<southbound::StreamSource> source = std::make_unique<FallbackSource>(store, std::move(opts));
  return source;
}

}  // namespace rdmagw::southbound::gnmi
