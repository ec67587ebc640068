// The gateway's YAML configuration reader (gateway/config/config.h), whole
// configurations: whatever an operator types, the answer is a config or a
// Status listing the problems, never an exception or a crash.

#include <cstddef>
#include <cstdint>
#include <string>

#include "gateway/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rdmagw::Result<rdmagw::gateway::GatewayConfig> cfg = rdmagw::gateway::parseConfig(text, "fuzz.yaml");
  if (cfg.isOk()) {
    rdmagw::gateway::GatewayConfig config = *cfg;
    rdmagw::gateway::spreadFirstDials(config.targets);
  } else if (cfg.status().message().empty()) {
    __builtin_trap();  // a refusal must say why
  }
  return 0;
}
