#pragma once
// The gNMI side of one target: dial, Capabilities, encoding choice, then ONE
// Subscribe carrying every path, all of it (up to the first response) inside
// a slot of a process-wide handshake cap (southbound/handshake_gate.h). Responses are
// mapped on the gRPC thread (mapping/notification_mapper.h) and pushed into
// the target's bounded UpdateQueue; the store is written by the owner's
// thread, never here. The client is long-lived; open()/close() bracket one
// attempt, and the counters run across attempts.
//
// Credentials: username/password metadata from the config's references,
// read at every dial; never logged nor put into a status text.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "gnmi.grpc.pb.h"
#include "models/value.h"
#include "southbound/handshake_gate.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/gnmi/subscribe_reactor.h"
#include "southbound/gnmi/update_queue.h"

namespace rdmagw::southbound::gnmi {

struct StreamCounters {
  std::atomic<uint64_t> responses{0};      // every SubscribeResponse, keepalives included
  std::atomic<uint64_t> notifications{0};  // non-empty notifications
  std::atomic<uint64_t> updates{0};        // mapped updates handed to the queue
  std::atomic<uint64_t> deletes{0};
  std::atomic<uint64_t> keepalives{0};     // empty responses/notifications (NX-OS, Telegraf #15257)
  std::atomic<uint64_t> sync_responses{0};
  std::atomic<uint64_t> map_errors{0};
  std::atomic<uint64_t> dials{0};
};

class GnmiClient {
 public:
  // `wake` is called from gRPC threads whenever data was queued or the stream
  // ended; it must only notify.
  GnmiClient(std::string target, GnmiConfig config, UpdateQueue& queue, std::function<void()> wake);
  ~GnmiClient();
  GnmiClient(const GnmiClient&) = delete;
  GnmiClient& operator=(const GnmiClient&) = delete;

  // Blocking, bounded by dial_timeout. `slot` is a granted ticket of the
  // handshake gate (null: this dial is not capped): it is held until the
  // stream's first response, its end,
  // close(), or dial_timeout after the dial (releaseStaleHandshake()),
  // whichever comes first. OK means the Subscribe call is started, not that
  // data will come.
  grpc::Status open(HandshakeGate::TicketPtr slot);
  // Frees the handshake slot of a stream that has sent nothing for
  // dial_timeout: a silent device must not hold up the others.
  void releaseStaleHandshake();
  // True while a started stream has not ended.
  bool streaming() const;
  // True once the stream of the last open() ended; `status` gets why.
  bool ended(grpc::Status* status) const;
  // Responses seen since the last open().
  uint64_t responsesSinceOpen() const { return counters_.responses.load() - responses_at_open_; }
  TimestampNs lastReceiveNs() const { return last_rx_ns_.load(); }
  TimestampNs openedNs() const { return opened_ns_; }  // when the last open() began
  void cancel();  // ends the stream (stall); ended() reports CANCELLED
  void close();   // cancels and waits until gRPC is done with the call

  ::gnmi::Encoding encoding() const { return encoding_; }
  const StreamCounters& counters() const { return counters_; }
  std::string lastMapError() const;

 private:
  void onResponse(::gnmi::SubscribeResponse& response);
  void releaseHandshake();
  grpc::Status addCredentials(grpc::ClientContext& ctx) const;

  const std::string target_;
  const GnmiConfig config_;
  UpdateQueue& queue_;
  std::function<void()> wake_;

  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<::gnmi::gNMI::Stub> stub_;
  std::unique_ptr<SubscribeReactor> reactor_;
  ::gnmi::Encoding encoding_ = ::gnmi::JSON;
  uint64_t responses_at_open_ = 0;
  TimestampNs opened_ns_ = 0;

  std::mutex handshake_mu_;
  HandshakeGate::TicketPtr handshake_;          // guarded by handshake_mu_
  std::atomic<bool> handshake_pending_{false};  // handshake_ is set: spares the lock per response

  StreamCounters counters_;
  std::atomic<TimestampNs> last_rx_ns_{0};
  mutable std::mutex err_mu_;
  std::string last_map_error_;  // guarded by err_mu_
};

}  // namespace rdmagw::southbound::gnmi
