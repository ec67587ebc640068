#pragma once
// The gNMI northbound: a gRPC server answering Capabilities, Get, Set
// (UNIMPLEMENTED) and Subscribe from the store, with TLS / mutual TLS,
// username/password checks, fleet member identity (member_identity.h) and
// gRPC server reflection.
//
// Lifetime: the Store must outlive the server. stop() (or the destructor)
// ends every stream with UNAVAILABLE and returns once calls are done.

#include <memory>
#include <mutex>
#include <string>

#include "models/fleet_view.h"
#include "models/status.h"
#include "models/store.h"
#include "northbound/gnmi/gnmi_server_config.h"
#include "northbound/gnmi/server_stats.h"

namespace grpc {
class Server;
}

namespace rdmagw::northbound::gnmi {

class GnmiService;
class SubscriptionHub;

class GnmiServer {
 public:
  // `fleet` (may be null; must outlive the server): in a fleet, requests
  // for targets other members own are forwarded to them.
  GnmiServer(Store& store, GnmiServerConfig config, const FleetView* fleet = nullptr);
  ~GnmiServer();
  GnmiServer(const GnmiServer&) = delete;
  GnmiServer& operator=(const GnmiServer&) = delete;

  // Validates the config, reads the TLS and user files, binds and serves.
  // Errors name the file or address; nothing is left running then.
  Status start();
  void stop();
  // The bound port (the real one when the config asked for port 0); 0 when stopped.
  int port() const;
  // "host:port" as a client would dial it.
  std::string address() const;

  const gnmi::ServerStats& stats() const { return stats_; }
  size_t subscriberCount() const;
  size_t queuedLeaves() const;  // pending leaves over all subscribers

 private:
  Store& store_;
  const GnmiServerConfig config_;
  const FleetView* const fleet_;
  gnmi::ServerStats stats_;
  mutable std::mutex mu_;  // serializes start/stop; guards the members below
  std::unique_ptr<gnmi::SubscriptionHub> hub_;
  std::unique_ptr<gnmi::GnmiService> service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  uint64_t self_metrics_id_ = 0;  // our source in models/self_metrics.h while running
};

}  // namespace rdmagw::northbound::gnmi
