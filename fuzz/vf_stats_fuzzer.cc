// A PF's RTM_NEWLINK as southbound/k8s/vf_stats.h parses it: whatever bytes
// come back on the netlink socket, the answer is the VFs or a Status saying
// why not, never a crash or a read past the buffer (ASan holds it to that:
// the bytes are copied to a buffer of exactly their size).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "southbound/k8s/vf_stats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  rdmagw::Result<rdmagw::southbound::k8s::LinkVfStats> r =
      rdmagw::southbound::k8s::parseLinkVfStats(std::span<const uint8_t>(bytes.data(), bytes.size()));
  if (!r.isOk() && r.status().message().empty()) __builtin_trap();  // a refusal must say why
  if (r.isOk()) {
    for (const auto& vf : r->vfs) {
      // Counters exist only inside an IFLA_VF_STATS.
      if (!vf.has_stats && (vf.rx_packets || vf.tx_packets || vf.rx_bytes || vf.tx_bytes)) __builtin_trap();
    }
  }
  return 0;
}
