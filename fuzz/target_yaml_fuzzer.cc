// One target entry of the YAML configuration (gateway/config/config.h,
// parseTargetConfig): the part operators edit most, read by the same code
// as inside a whole configuration, each kind and transport with its own
// blocks (ssh, gnmi, rdma, credentials, labels).

#include <cstddef>
#include <cstdint>
#include <string>

#include "gateway/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rdmagw::Result<rdmagw::gateway::TargetConfig> t = rdmagw::gateway::parseTargetConfig(text, "target.yaml");
  if (!t.isOk() && t.status().message().empty()) __builtin_trap();  // a refusal must say why
  return 0;
}
