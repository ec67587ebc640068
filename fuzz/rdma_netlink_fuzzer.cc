// RDMA netlink replies (southbound/k8s/rdma_netlink.h): whatever bytes come
// back from the kernel socket, the dump parsers answer counters or a Status
// saying why not, never a crash or a read past the reply.

#include <cstddef>
#include <cstdint>
#include <span>

#include "southbound/k8s/rdma_netlink.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace k8s = rdmagw::southbound::k8s;
  const std::span<const uint8_t> reply(data, size);
  rdmagw::Result<std::vector<k8s::QpCounter>> counters = k8s::parseQpCounterDump(reply);
  if (!counters.isOk() && counters.status().message().empty()) __builtin_trap();  // a refusal must say why
  rdmagw::Result<std::vector<k8s::RdmaPort>> ports = k8s::parsePortDump(reply);
  if (!ports.isOk() && ports.status().message().empty()) __builtin_trap();
  (void)k8s::parseAck(reply);
  return 0;
}
