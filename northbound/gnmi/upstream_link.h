#pragma once
// One forwarded Subscribe: a client stream of this server to another
// member's gNMI server, carrying a subscriber's SubscriptionList (asked in
// PROTO: scalars, re-encoded here in the subscriber's encoding). What it
// receives goes through a LinkSink to the subscriber's session.
//
// Lifetime: the link keeps itself alive until gRPC is done with the call
// (OnDone); whoever holds it may cancel() at any time. A session detaches
// its sink before it is deleted, so a link outliving it delivers nowhere.

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "northbound/gnmi/leaf_cache.h"
#include "northbound/gnmi/server_stats.h"

namespace rdmagw::northbound::gnmi {

// Where a link's data goes. The callbacks run on gRPC threads, under the
// sink's lock (taken before any lock of the receiver).
struct LinkReceiver {
  std::function<void(uint64_t link, const std::vector<ChangedLeaf>& leaves)> leaves;
  std::function<void(uint64_t link)> synced;
  std::function<void(uint64_t link, const grpc::Status& status)> ended;
};

class LinkSink {
 public:
  explicit LinkSink(LinkReceiver receiver) : receiver_(std::move(receiver)), attached_(true) {}
  // Returns once no callback runs; none runs after.
  void detach() {
    std::lock_guard lock(mu_);
    attached_ = false;
  }
  template <class F>
  void with(F f) {
    std::lock_guard lock(mu_);
    if (attached_) f(receiver_);
  }

 private:
  std::mutex mu_;
  LinkReceiver receiver_;
  bool attached_;  // guarded by mu_
};

class UpstreamLink : public grpc::ClientBidiReactor<::gnmi::SubscribeRequest, ::gnmi::SubscribeResponse> {
 public:
  // Starts the call. `metadata` goes with it (the client's credentials,
  // the forwarding mark). `counts`: the destination member's forwarding
  // counters (the stream counts as open until OnDone).
  static std::shared_ptr<UpstreamLink> open(uint64_t id, const std::shared_ptr<grpc::Channel>& channel,
                                            ::gnmi::SubscribeRequest request,
                                            const std::vector<std::pair<std::string, std::string>>& metadata,
                                            std::shared_ptr<LinkSink> sink, std::shared_ptr<MemberForwardStats> counts);
  void cancel() { ctx_.TryCancel(); }

  void OnWriteDone(bool) override {}
  void OnReadDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  UpstreamLink(uint64_t id, std::shared_ptr<LinkSink> sink, std::shared_ptr<MemberForwardStats> counts)
      : id_(id), sink_(std::move(sink)), counts_(std::move(counts)) {}
  void handle(const ::gnmi::Notification& n);

  const uint64_t id_;
  const std::shared_ptr<LinkSink> sink_;
  const std::shared_ptr<MemberForwardStats> counts_;
  std::shared_ptr<UpstreamLink> self_;  // set until OnDone
  std::unique_ptr<::gnmi::gNMI::Stub> stub_;
  grpc::ClientContext ctx_;
  ::gnmi::SubscribeRequest request_;
  ::gnmi::SubscribeResponse response_;  // the one outstanding read
  LeafCache cache_{100'000};          // reads are serialized: one thread at a time
};

}  // namespace rdmagw::northbound::gnmi
