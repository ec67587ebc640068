// What a simulated Linux host's iproute2 `dcb -j ets|buffer show` prints
// (sim/roce_qos.h). Member names and order are iproute2's dcb/dcb_ets.c and
// dcb/dcb_buffer.c; the values are the fabric's RoCE plan. A host with
// NVIDIA's `mlnx_qos` instead prints the same plan in its text layout.

#include <cstdio>
#include <map>
#include <string>
#include <vector>

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

std::string mlnxQosText(const Device& dev, const RoceQosPlan& plan) {
  const PortCounters& port = dev.port;
  // The layout of a recorded ConnectX-7's `mlnx_qos -i ens4np0`
  // (tests/fixtures/roce-config/): labels, indents, the trailing blanks of
  // the PFC rows, "bw:" only on ETS classes.
  std::string out = "DCBX mode: OS controlled\n";
  out += std::string("Priority trust state: ") + (port.dscp_trust ? "dscp" : "pcp") + "\n";
  if (port.dscp_trust) {
    // The rules `dcb app` shows for this host (tree_writer.h dcbAppJson),
    // one line per priority. A real mlx5 lists all 64 DSCPs (the others at
    // the firmware default DSCP >> 3); both tools here say the plan's two.
    std::map<int, std::vector<uint32_t>> by_prio;
    by_prio[plan.roce_priority].push_back(kRoceDscp);
    by_prio[plan.cnp_priority].push_back(kCnpDscp);
    out += "dscp2prio mapping:\n";
    for (const auto& entry : by_prio) {
      out += "        prio:" + std::to_string(entry.first) + " dscp:";
      for (uint32_t d : entry.second) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%02u,", d);
        out += buf;
      }
      out += "\n";
    }
  }
  out += "default priority:\n";
  std::array<uint64_t, kPriorities> size{};
  size[0] = kLossyBufferBytes;
  size[1] = kPfcBufferBytes;
  out += "Receive buffer size (bytes): ";
  for (uint64_t b : size) out += std::to_string(b) + ",";
  out += "max_buffer_size=" + std::to_string(kTotalBufferBytes) + "\n";
  out += "Cable len: 7\n";
  out += "PFC configuration:\n";
  auto row = [](const char* label, auto value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "        %-9s", label);
    std::string r = buf;
    for (int p = 0; p < kPriorities; ++p) {
      std::snprintf(buf, sizeof buf, "%4d", value(p));
      r += buf;
    }
    return r;
  };
  out += row("priority", [](int p) { return p; }) + "\n";
  const int roce = plan.roce_priority;
  out += row("enabled", [&](int p) { return p == roce && port.pfc_roce ? 1 : 0; }) + "   \n";
  out += row("buffer", [&](int p) { return p == roce ? 1 : 0; }) + "   \n";
  const HostEts e = hostEts(port, plan);
  for (int tc = 0; tc < kPriorities; ++tc) {
    out += "tc: " + std::to_string(tc) + " ratelimit: unlimited, tsa: " +
           (e.strict[tc] ? std::string("strict") : "ets, bw: " + std::to_string(e.bw[tc]) + "%") + "\n";
    for (int p = 0; p < kPriorities; ++p) {
      if (e.prio_tc[p] == tc) out += "         priority:  " + std::to_string(p) + "\n";
    }
  }
  return out;
}

}  // namespace rdmagw::sim
