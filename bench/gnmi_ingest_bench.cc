// gNMI ingest: how many updates per second the client takes from the wire
// into the store, per core and across a fleet, and what a subscribed leaf
// costs in memory.
//
//   BM_GnmiDecodeMapApply   one thread: protobuf decode of prefix-form
//                           notifications + mapping + bounded queue + store
//                           apply. items/s = updates/s per core.
//   BM_GnmiStream/targets:N a local gRPC server streams pre-built
//                           notifications as fast as it can to N client
//                           sources (one Subscribe each); items/s = updates
//                           applied to the store per wall second (server and
//                           client share the machine's cores).
//                           bytes_per_leaf = heap growth / leaves held.

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>
#include <malloc.h>

#include <atomic>
#include <thread>

#include "gnmi.grpc.pb.h"
#include "southbound/gnmi/fallback_source.h"
#include "southbound/gnmi/mapping/notification_mapper.h"
#include "southbound/gnmi/update_queue.h"

namespace rdmagw::bench {
namespace {

using southbound::gnmi::FallbackOptions;
using southbound::gnmi::FallbackSource;
using southbound::gnmi::GnmiConfig;

constexpr int kInterfaces = 64;
const char* kLeaves[] = {"in-octets", "out-octets", "in-pkts", "out-pkts", "in-unicast-pkts",
                         "out-unicast-pkts", "in-discards", "out-discards", "in-errors", "out-errors"};
constexpr int kLeafCount = sizeof(kLeaves) / sizeof(kLeaves[0]);

// One notification per interface, NX-OS style but with a prefix (the form
// other targets use; the mapper joins prefix and path).
std::vector<::gnmi::SubscribeResponse> buildRound(uint64_t base) {
  std::vector<::gnmi::SubscribeResponse> out;
  for (int i = 1; i <= kInterfaces; ++i) {
    ::gnmi::SubscribeResponse r;
    ::gnmi::Notification* n = r.mutable_update();
    n->set_timestamp(1700000000000000000LL + int64_t(base));
    ::gnmi::Path* p = n->mutable_prefix();
    p->set_origin("openconfig");
    p->add_elem()->set_name("interfaces");
    auto* e = p->add_elem();
    e->set_name("interface");
    (*e->mutable_key())["name"] = "eth1/" + std::to_string(i);
    p->add_elem()->set_name("state");
    p->add_elem()->set_name("counters");
    for (int l = 0; l < kLeafCount; ++l) {
      ::gnmi::Update* u = n->add_update();
      u->mutable_path()->add_elem()->set_name(kLeaves[l]);
      u->mutable_val()->set_uint_val(base + uint64_t(i * 100 + l));
    }
    out.push_back(std::move(r));
  }
  return out;
}

void BM_GnmiDecodeMapApply(benchmark::State& state) {
  std::vector<std::string> wire;
  for (const auto& r : buildRound(1000)) wire.push_back(r.SerializeAsString());
  Store store;
  southbound::gnmi::UpdateQueue queue(1 << 16);
  southbound::gnmi::QueuedBatch batch;
  southbound::gnmi::MappedNotification mapped;
  ::gnmi::SubscribeResponse resp;
  int64_t updates = 0;
  for (auto _ : state) {
    for (const std::string& bytes : wire) {
      resp.ParseFromString(bytes);
      mapped.clear();
      southbound::gnmi::mapNotification(resp.update(), 1, mapped);
      updates += int64_t(mapped.updates.size());
      queue.push(mapped.updates, mapped.deletes);
    }
    queue.drain(batch);
    benchmark::DoNotOptimize(store.apply("sw", batch.updates));
  }
  state.SetItemsProcessed(updates);
  state.counters["series"] = double(store.seriesCount());
}
BENCHMARK(BM_GnmiDecodeMapApply)->Unit(benchmark::kMicrosecond);

// Streams the pre-built round, over and over, to every subscriber.
class FloodService final : public ::gnmi::gNMI::Service {
 public:
  grpc::Status Capabilities(grpc::ServerContext*, const ::gnmi::CapabilityRequest*,
                            ::gnmi::CapabilityResponse* resp) override {
    resp->add_supported_encodings(::gnmi::PROTO);
    return grpc::Status::OK;
  }
  grpc::Status Subscribe(grpc::ServerContext* ctx,
                         grpc::ServerReaderWriter<::gnmi::SubscribeResponse, ::gnmi::SubscribeRequest>* s) override {
    ::gnmi::SubscribeRequest req;
    if (!s->Read(&req)) return grpc::Status::OK;
    uint64_t base = 0;
    while (!ctx->IsCancelled()) {
      base += 1000;
      for (auto& r : buildRound(base)) {
        if (!s->Write(r)) return grpc::Status::OK;
      }
    }
    return grpc::Status::OK;
  }
};

size_t heapInUse() { return mallinfo2().uordblks; }

void BM_GnmiStream(benchmark::State& state) {
  const int targets = int(state.range(0));
  FloodService service;
  grpc::ServerBuilder b;
  int port = 0;
  b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  b.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = b.BuildAndStart();

  Store store;
  GnmiConfig c;
  c.address = "127.0.0.1:" + std::to_string(port);
  c.plaintext = true;
  c.tls = false;
  c.keepalive_time = std::chrono::milliseconds(0);
  c.subscriptions = {{"openconfig:/interfaces/interface/state/counters",
                      southbound::gnmi::SubscriptionMode::kSample, std::chrono::seconds(1)}};
  const size_t heap0 = heapInUse();
  std::vector<std::unique_ptr<FallbackSource>> sources;
  for (int t = 0; t < targets; ++t) {
    FallbackOptions o;
    o.target = "sw" + std::to_string(t);
    o.config = c;
    sources.push_back(std::make_unique<FallbackSource>(store, std::move(o)));
    sources.back()->start();
  }
  const auto appliedNow = [&] {
    uint64_t n = 0;
    for (auto& s : sources) n += s->stats().applied;
    return n;
  };
  // Warm up until every target's leaves exist.
  const size_t want = size_t(targets) * kInterfaces * kLeafCount;
  while (store.seriesCount() < want) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const size_t heap_leaves = heapInUse();
  uint64_t before = appliedNow();
  uint64_t coalesced0 = 0;
  for (auto& s : sources) coalesced0 += s->stats().coalesced + s->stats().dropped;
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const uint64_t applied = appliedNow() - before;
  uint64_t coalesced = 0;
  for (auto& s : sources) coalesced += s->stats().coalesced + s->stats().dropped;
  state.SetItemsProcessed(int64_t(applied));
  state.counters["leaves"] = double(store.seriesCount());
  state.counters["bytes_per_leaf"] = double(heap_leaves - heap0) / double(store.seriesCount());
  state.counters["coalesced_or_dropped"] = double(coalesced - coalesced0);
  for (auto& s : sources) s->stop();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(100));
}
// Manual wall time: items/s is updates applied per wall second.
BENCHMARK(BM_GnmiStream)->Arg(1)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(4);

}  // namespace
}  // namespace rdmagw::bench
