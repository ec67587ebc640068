// The host-side RoCE configuration readers (southbound/rdma, esxi): iproute2
// `dcb` text and JSON, `mlnx_qos -i` text and `esxcli network nic dcb
// status get`. Whatever the bytes, each returns a status and leaves every
// value of the port in range, and the path derived from it stays in range.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/roce_path.h"
#include "southbound/esxi/esxi_dcb_config.h"
#include "southbound/rdma/dcb_show.h"
#include "southbound/rdma/mlnx_qos_text.h"

using namespace rdmagw;

namespace {

void checkPort(const roce::HostPort& p) {
  for (const auto& [dscp, prio] : p.dscp_priority) {
    if (dscp > 63 || prio > 7) __builtin_trap();
  }
  for (int i = 0; i < roce::kPriorities; ++i) {
    if (p.priority_tc[i] && *p.priority_tc[i] > 7) __builtin_trap();
    if (p.priority_buffer[i] && *p.priority_buffer[i] > 7) __builtin_trap();
    if (p.tc[i].bandwidth_percent && *p.tc[i].bandwidth_percent > 100) __builtin_trap();
  }
  for (uint32_t dscp : {0u, 26u, 40u, 48u}) {
    const roce::RoceHop hop = roce::hostHop(p, dscp);
    if (hop.priority && *hop.priority > 7) __builtin_trap();
    if (hop.lossless && !hop.priority) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto run = [&](Status (*parse)(std::string_view, roce::HostPort&)) {
    roce::HostPort p;
    const Status s = parse(text, p);
    if (s.isOk() != s.message().empty()) __builtin_trap();
    checkPort(p);
  };
  run(southbound::rdma::parseDcbText);
  run(southbound::rdma::parseMlnxQos);
  run(southbound::esxi::parseEsxiDcbConfig);
  for (std::string_view object : {"ets", "pfc", "buffer", "app"}) {
    roce::HostPort p;
    const Status s = southbound::rdma::parseDcbJson(object, text, p);
    if (s.isOk() != s.message().empty()) __builtin_trap();
    checkPort(p);
  }
  return 0;
}
