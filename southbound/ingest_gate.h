#pragma once
// At most as many collector threads as the machine has cores write into the
// store at once. At 1M series every switch's SAMPLE lands together and ~80
// per-switch threads became runnable at the same instant: a store write is
// CPU and shard locks, so more writers than cores only queue for both, and
// each runnable ingest thread takes a share of the CPU from the threads that
// answer users (a scrape that needs ~60 ms of CPU waited 0.2-1.7 s). A
// writer past the limit sleeps until one finishes; nothing is dropped.
// Only the store writes are gated, never a device read or a network wait.

#include <cstddef>

namespace rdmagw::southbound {

class IngestGate {
 public:
  // Holds one of the gate's places for its lifetime.
  class Pass {
   public:
    Pass();
    ~Pass();
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;
  };
  // Runs `write` (a store write) holding a place.
  template <typename Write>
  static auto through(Write&& write) {
    const Pass pass;
    return write();
  }
  static size_t places();  // the machine's cores, at least 2
};

}  // namespace rdmagw::southbound
