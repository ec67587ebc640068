// What a simulated Linux host's iproute2 `dcb -j ets|buffer show` prints
// (sim/roce_qos.h). Member names and order are iproute2's dcb/dcb_ets.c and
// dcb/dcb_buffer.c; the values are the fabric's RoCE plan.

#include <string>

#include "sim/roce_qos.h"

namespace rdmagw::sim {
namespace {

template <typename T, typename F>
std::string array8(const std::array<T, kPriorities>& a, F item) {
  std::string out = "[";
  for (int i = 0; i < kPriorities; ++i) out += (i ? "," : "") + item(a[i]);
  return out + "]";
}

std::string num(int v) { return std::to_string(v); }

}  // namespace

HostEts hostEts(const PortCounters& port, const RoceQosPlan& plan) {
  HostEts e;
  for (int p = 0; p < kPriorities; ++p) e.prio_tc[p] = p;
  const int roce = plan.roce_priority, cnp = plan.cnp_priority, lossy = plan.lossy_priority;
  if (port.ets_fault == EtsFault::kStrictStarve) {
    // The RoCE class and every class above it strict: RoCE gets no share and
    // waits behind whatever the classes above send. The ETS classes below
    // keep 100 % between them (the CNPs' 10 % when theirs is one of them).
    for (int tc = roce; tc < kPriorities; ++tc) e.strict[tc] = true;
    if (!e.strict[cnp]) e.bw[cnp] = 10;
    if (!e.strict[lossy]) e.bw[lossy] = 100 - e.bw[cnp];
    return e;
  }
  e.bw[cnp] = 10;
  // The leaves give the RoCE queue this share of what the strict CNP queue
  // leaves: the host's ETS agrees with them.
  e.bw[roce] = port.ets_fault == EtsFault::kRoceZero ? 0 : int(kRoceQueuePercent);
  e.bw[lossy] = 100 - e.bw[cnp] - e.bw[roce];
  return e;
}

std::string dcbEtsJson(const PortCounters& port, const RoceQosPlan& plan) {
  const HostEts e = hostEts(port, plan);
  const std::array<int, kPriorities> zero{};
  auto tsa = [](bool strict) { return std::string(strict ? "\"strict\"" : "\"ets\""); };
  // The recommendation TLV (reco_*) is what the peer would advertise; mlx5
  // in IEEE mode reports it empty: all strict, all zero.
  std::array<bool, kPriorities> all_strict{};
  all_strict.fill(true);
  return "{\"willing\":false,\"ets_cap\":8,\"cbs\":false,\"tc_bw\":" + array8(e.bw, num) +
         ",\"pg_bw\":" + array8(zero, num) + ",\"tc_tsa\":" + array8(e.strict, tsa) +
         ",\"prio_tc\":" + array8(e.prio_tc, num) + ",\"reco_tc_bw\":" + array8(zero, num) +
         ",\"reco_tc_tsa\":" + array8(all_strict, tsa) + ",\"reco_prio_tc\":" + array8(zero, num) + "}\n";
}

std::string dcbBufferJson(const PortCounters& port, const RoceQosPlan& plan) {
  std::array<int, kPriorities> prio_buffer{};
  prio_buffer[plan.roce_priority] = 1;
  std::array<uint64_t, kPriorities> size{};
  size[0] = kLossyBufferBytes;
  size[1] = kPfcBufferBytes;
  auto u64 = [](uint64_t v) { return std::to_string(v); };
  return "{\"prio_buffer\":" + array8(prio_buffer, num) + ",\"buffer_size\":" + array8(size, u64) +
         ",\"total_size\":" + std::to_string(kTotalBufferBytes) + "}\n";
}

}  // namespace rdmagw::sim
