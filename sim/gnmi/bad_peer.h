#pragma once
// A gNMI peer that misbehaves on purpose, for the gateway's bad-peer tests:
// Capabilities answers normally (PROTO, JSON), then Subscribe does one of
//   kOversized: one small valid notification, then one notification of about
//               `oversized_bytes` (one string leaf that large), then keeps the
//               stream open and silent;
//   kFlood:     tiny notifications as fast as gRPC takes them, forever, each
//               with `flood_leaves` in-octets counters of distinct interfaces.
// A peer that never sends sync_response is GnmiTarget with quirks.never_sync.
// Sync gRPC API (a thread per open stream): a test opens a few at most.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "models/status.h"

namespace grpc {
class Server;
}

namespace rdmagw::sim {

enum class BadPeerMode { kOversized, kFlood };

struct BadPeerOptions {
  BadPeerMode mode = BadPeerMode::kFlood;
  size_t oversized_bytes = 100'000'000;
  int flood_leaves = 64;
};

class BadGnmiPeer {
 public:
  explicit BadGnmiPeer(BadPeerOptions options);
  ~BadGnmiPeer();  // stop()
  BadGnmiPeer(const BadGnmiPeer&) = delete;
  BadGnmiPeer& operator=(const BadGnmiPeer&) = delete;

  Status start();  // 127.0.0.1, a free port
  void stop();
  std::string address() const;

  // Observations.
  uint64_t subscribeCalls() const;
  uint64_t notificationsSent() const;  // those gRPC accepted (Write returned true)
  int openStreams() const;

  class Service;

 private:
  std::unique_ptr<Service> service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace rdmagw::sim
