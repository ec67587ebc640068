#include "southbound/nxapi/nxapi_factory.h"

#include <mutex>
#include <set>
#include <string>

#include "models/log.h"
#include "southbound/nxapi/nxapi_source.h"

namespace rdmagw::southbound::nxapi {
namespace {

void warnInsecureOnce(const NxapiConfig& config) {
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mu);
  if (!warned.insert(config.endpoint()).second) return;
  RDMAGW_LOG(kWarn, "nxapi") << config.endpoint()
                             << ": TLS verification is OFF (insecure: true): anyone on the path can pose as the "
                                "switch and read its password; set ca_file or pinned_public_key instead";
}

}  // namespace

Result<southbound::PollSourcePtr> createNxapiSource(const NxapiConfig& config, std::vector<ssh::CliCommand> commands,
                                                    std::shared_ptr<NxapiHttp> http) {
  if (Status st = config.validate(); !st.isOk()) {
    return Status::invalidArgument("nxapi " + config.endpoint() + ": " + st.message());
  }
  if (config.insecure && config.pinned_public_key.empty()) warnInsecureOnce(config);
  return southbound::PollSourcePtr(
      std::make_unique<NxapiSource>(config, std::move(commands), NxapiSource::Clock::now, std::move(http)));
}

}  // namespace rdmagw::southbound::nxapi
