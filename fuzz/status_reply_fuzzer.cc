// `rdmagw status`'s reading of the admin socket's reply (gateway/
// status_table.h): whatever comes back on the socket, the answer is a
// table or a Status saying why not, never an exception or a crash.

#include <cstddef>
#include <cstdint>
#include <string>

#include "gateway/cli/status_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rdmagw::Result<rdmagw::gateway::StatusView> v = rdmagw::gateway::viewStatus(text);
  if (v.isOk()) {
    if (v->table.empty() || (v->exit_code != 0 && v->exit_code != 1)) __builtin_trap();
  } else if (v.status().message().empty()) {
    __builtin_trap();  // a refusal must say why
  }
  return 0;
}
