#pragma once
// A fleet member's copy of the analytics inputs of the targets the other
// members collect, so its analytics judge a link whose far end, or a pause
// tree whose other branches, another member owns (analytics_engine.h: the
// peer store is read, never written, and verdicts go only onto this
// member's own ports).
//
// It subscribes through this member's OWN gNMI server, prefix.target "*"
// and one SAMPLE subscription per analytics input row: the server
// forwards to every other member and follows owner changes and member
// joins and deaths (northbound/gnmi/fleet_routes.h), so the mirror holds no
// routing of its own. Every notification for a target this member owns is
// dropped (its own store has it); the rest goes into the peer store with
// the owner's collection timestamps, the target's configured kind and
// `up` while the stream lives. Data flows one way: owner -> this member's
// analytics, never back.
//
// Cost: every member receives the analytics inputs of the whole fabric
// (PFC, ECN, CNP, queue and DCB leaves of every port), not its share.

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "models/fleet_view.h"
#include "models/store.h"
#include "northbound/gnmi/gnmi_server_config.h"

namespace grpc {
class ClientContext;
}
namespace gnmi {
class Notification;
}

namespace rdmagw::gateway {

struct FleetPeerMirrorOptions {
  std::string self;           // this member's name
  std::string gnmi_address;   // this member's gNMI server, as the others dial it
  northbound::GnmiServerConfig gnmi;  // its security: the mirror dials it as a member would
  std::vector<std::string> paths;     // rows to mirror (analytics::inputRowPaths())
  // How often the owners' latest values are sampled: the analytics period
  // (each run then sees each counter's latest collection), at least the
  // server's min_sample_interval.
  std::chrono::milliseconds sample_interval{10000};
  std::chrono::milliseconds backoff_initial{500};
  std::chrono::milliseconds backoff_max{10000};
};

class FleetPeerMirror {
 public:
  FleetPeerMirror(FleetPeerMirrorOptions options, const FleetView& view, Store& peers);
  ~FleetPeerMirror();  // stop()
  FleetPeerMirror(const FleetPeerMirror&) = delete;
  FleetPeerMirror& operator=(const FleetPeerMirror&) = delete;

  // The configured targets' kinds (the same files on every member), which
  // the analytics need (a switch is judged as one) and gNMI does not carry.
  void setKinds(std::map<std::string, std::string> kinds);

  void start();
  void stop();  // idempotent; the peer store is emptied

 private:
  void run();
  // One stream until it ends; returns why it ended.
  std::string streamOnce();
  void apply(const ::gnmi::Notification& n);
  // Every half second at most: which targets are this member's, and the
  // peer store forgets them (and targets no longer configured).
  void refreshOwnership(bool force);
  void markDown(const std::string& why);

  const FleetPeerMirrorOptions options_;
  const FleetView& view_;
  Store& peers_;

  // Mirror thread only.
  std::set<std::string> mine_;    // targets this member owns, per the last refresh
  std::set<std::string> known_;   // every configured target, per the last refresh
  std::set<std::string> up_;      // peer targets marked up in the peer store
  int64_t refreshed_ns_ = 0;

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::string> kinds_;  // guarded by mu_
  bool stopping_ = false;                     // guarded by mu_
  grpc::ClientContext* ctx_ = nullptr;        // guarded by mu_: the stream in progress
  std::thread thread_;
};

}  // namespace rdmagw::gateway
