#pragma once
// The two modes of the gNMI relay (relay_source.h) share one stream loop
// (relay_source.cc); what differs between them is a RelayMode. Inside the
// gNMI southbound only.

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>

#include "gnmi.pb.h"
#include "models/status.h"
#include "models/store.h"
#include "southbound/stream_source.h"

namespace rdmagw::southbound::gnmi {

// What differs between the two modes; the stream loop is the same.
class RelayMode {
 public:
  virtual ~RelayMode() = default;
  virtual const char* threadRole() const = 0;
  virtual const char* logTag() const = 0;
  virtual std::chrono::milliseconds backoffInitial() const = 0;
  virtual std::chrono::milliseconds backoffMax() const = 0;
  // A stream that ran longer than the longest backoff starts it over.
  virtual bool resetAfterLongStream() const = 0;
  virtual Result<std::shared_ptr<grpc::Channel>> channel() = 0;
  virtual Status prepare(grpc::ClientContext* ctx) = 0;
  // Fills the list; `store` is the copy (a mode that asks for less than
  // its last stream did drops what it no longer asks for).
  virtual void subscriptions(::gnmi::SubscriptionList* list, Store& store) = 0;
  // Asked about every second by a watcher while a stream runs: true ends
  // the stream and starts the next at once, its targets staying up.
  virtual bool wantsResubscribe() { return false; }
  virtual bool watches() const { return false; }
  // Nothing to ask for now: no stream is opened (checked every second).
  virtual bool idle() { return false; }
  virtual void received(const ::gnmi::SubscribeResponse&) {}
  // A target nothing arrived for in this long while its stream runs is
  // marked down (its owner went silent); 0: never.
  virtual int64_t silenceLimitNs() { return 0; }
  virtual std::string silentHealth(const std::string& target, TargetHealth* h) {
    return downHealth(target, grpc::Status::OK, h);
  }
  // At each stream start (force) and before each notification.
  virtual void refresh(bool force, Store& store, std::set<std::string>* up) = 0;
  // The health of a target going up; false: drop this notification.
  virtual bool health(const std::string& target, TargetHealth* h) = 0;
  virtual std::string downHealth(const std::string& target, const grpc::Status& st, TargetHealth* h) = 0;
  virtual std::string endedMessage(const grpc::Status& st) const = 0;
  virtual void stopped(Store& store) = 0;
};

// The stream loop around `mode`, writing into `store`.
StreamSourcePtr makeRelaySource(std::unique_ptr<RelayMode> mode, Store& store);

// "/a/b[k=v]/c" (models/path.h form) -> gNMI elements a, b (key k=v), c; a
// key left out is every instance.
void toGnmiPath(const std::string& text, ::gnmi::Path* out);

}  // namespace rdmagw::southbound::gnmi
