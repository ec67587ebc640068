#pragma once
// What a fleet member must copy from the others for its own analytics to
// judge its ports as one gateway would, and nothing more: the far ends of
// its own ports' links (LLDP or static), the RDMA ports behind a far end
// that is a host netdev (its DCQCN counters), and, while a pause tree
// reaches a switch another member owns, every port of that switch (the
// tree's other branches; the ports they lead to are then far ends of the
// switch's paused ports and join at the next run). A member's copy so
// follows its share of the cabling, not the fabric: with no pause tree
// crossing members it holds one peer port per cable that leaves its share.
//
// The rows every member still copies from every peer target (lldp, the
// RDMA ports' netdevs and rp-cnp-handled, which the DCQCN chain sums over
// the whole fabric) are the caller's choice (gateway/fleet/mirror_paths.h).

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "models/value.h"

namespace rdmagw::analytics {

struct RunContext;

struct MirrorNeeds {
  std::map<std::string, std::set<std::string>> ports;  // peer target -> interface, netdev or vmnic names
  std::map<std::string, std::set<std::pair<std::string, std::string>>> rdma_ports;  // peer target -> (device, port)
  std::set<std::string> whole;  // peer switches a pause tree crosses into: every input row
  bool operator==(const MirrorNeeds&) const = default;
};

// From one run's inventory, links and windows (ctx.inv.local: this member's targets).
MirrorNeeds mirrorNeeds(const RunContext& ctx);

// The needs of the last runs, for the mirror's thread. What a run needed
// stays asked for `hold` after the last run that needed it: a pause tree
// that flickers at the edge of the window (a branch paused in one run and
// not the next) would otherwise restart the copy's stream at every run, and
// a row dropped and asked for again starts its window empty, so the
// branch's far ends would never have the two samples a verdict needs.
class MirrorNeedsBoard {
 public:
  explicit MirrorNeedsBoard(TimestampNs hold = 60'000'000'000) : hold_(hold) {}

  // `now`: the run's time.
  void publish(const MirrorNeeds& needs, TimestampNs now);
  // Analytics switched off: nothing is needed any more, at once.
  void clear();
  MirrorNeeds read() const;

 private:
  const TimestampNs hold_;
  mutable std::mutex mu_;
  // Every row asked for, with when a run last needed it; guarded by mu_.
  std::map<std::pair<std::string, std::string>, TimestampNs> ports_;
  std::map<std::pair<std::string, std::pair<std::string, std::string>>, TimestampNs> rdma_ports_;
  std::map<std::string, TimestampNs> whole_;
};

}  // namespace rdmagw::analytics
