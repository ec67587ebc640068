#pragma once
// Synthetic series for the benchmarks: realistic paths (RDMA port counters
// and per-priority PFC counters) spread over many targets.

#include <string>
#include <vector>

#include "models/store.h"

namespace rdmagw::bench {

// Fills `store` with about `series` leaves: targets of 2 devices x 30 hw
// counters plus 2 netdevs x 8 priorities x 5 PFC counters each (~220/target).
inline void fillStore(Store& store, size_t series) {
  static const char* kHw[] = {"np-ecn-marked-roce-packets", "np-cnp-sent", "rp-cnp-handled", "rp-cnp-ignored",
                              "out-of-buffer", "out-of-sequence", "duplicate-request", "packet-seq-err",
                              "local-ack-timeout-err", "rx-write-requests", "rx-read-requests", "req-cqe-error"};
  static const char* kPfc[] = {"in-pause-frames", "out-pause-frames", "in-pause-duration", "out-pause-duration",
                               "in-pause-transitions"};
  size_t made = 0;
  for (int t = 0; made < series; ++t) {
    std::vector<Update> batch;
    const std::string target = "host" + std::to_string(t);
    for (int d = 0; d < 2 && made < series; ++d) {
      const std::string dev = "/rdma/devices/device[name=mlx5_" + std::to_string(d) + "]/ports/port[port-num=1]/state/hw-counters/";
      for (const char* c : kHw) {
        if (made++ >= series) break;
        batch.push_back(Update{dev + c, uint64_t(made * 7919), 1, {}});
      }
      for (int p = 0; p < 8 && made < series; ++p) {
        const std::string prio = "/interfaces/interface[name=ens1f" + std::to_string(d) +
                                 "np0]/ethernet/pfc/priorities/priority[id=" + std::to_string(p) + "]/state/counters/";
        for (const char* c : kPfc) {
          if (made++ >= series) break;
          batch.push_back(Update{prio + c, uint64_t(made * 104729), 1, {}});
        }
      }
    }
    store.apply(target, batch);
  }
}

}  // namespace rdmagw::bench
