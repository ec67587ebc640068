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
//   BM_GnmiClientMemory/targets:N/interfaces:I
//                           N sources, each streamed one round of I x 10
//                           leaves a second (as a switch samples): the heap
//                           the gNMI side holds per streaming target at
//                           steady state, the store's own cost for the same
//                           series taken out. The in-process server's half of
//                           each stream is counted in it: an upper bound.

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
std::vector<::gnmi::SubscribeResponse> buildRound(uint64_t base, int interfaces = kInterfaces) {
  std::vector<::gnmi::SubscribeResponse> out;
  for (int i = 1; i <= interfaces; ++i) {
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

// A target that speaks PROTO only; the services below differ in how they stream.
class ProtoTarget : public ::gnmi::gNMI::Service {
 public:
  grpc::Status Capabilities(grpc::ServerContext*, const ::gnmi::CapabilityRequest*,
                            ::gnmi::CapabilityResponse* resp) override {
    resp->add_supported_encodings(::gnmi::PROTO);
    return grpc::Status::OK;
  }
};

// Streams the pre-built round, over and over, to every subscriber.
class FloodService final : public ProtoTarget {
 public:
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

// Both the arenas' chunks and the blocks malloc mapped apart (large buffers).
size_t heapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

std::string targetName(int t) { return "sw" + std::to_string(t); }

// A loopback gNMI server running `service`, and the sources subscribed to it
// (counters every 1 s, PROTO, no TLS), all writing one store.
class StreamRig {
 public:
  explicit StreamRig(grpc::Service& service) {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    b.RegisterService(&service);
    server_ = b.BuildAndStart();
  }
  ~StreamRig() {
    for (auto& s : sources_) s->stop();
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(100));
  }
  // Starts `targets` sources and returns once every one of their leaves is stored.
  void startSources(int targets, size_t leaves_per_target) {
    GnmiConfig c;
    c.address = "127.0.0.1:" + std::to_string(port_);
    c.plaintext = true;
    c.tls = false;
    c.keepalive_time = std::chrono::milliseconds(0);
    c.subscriptions = {{"openconfig:/interfaces/interface/state/counters",
                        southbound::gnmi::SubscriptionMode::kSample, std::chrono::seconds(1)}};
    for (int t = 0; t < targets; ++t) {
      FallbackOptions o;
      o.target = targetName(t);
      o.config = c;
      sources_.push_back(std::make_unique<FallbackSource>(store_, std::move(o)));
      sources_.back()->start();
    }
    const size_t want = size_t(targets) * leaves_per_target;
    while (store_.seriesCount() < want) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  uint64_t applied() const {
    uint64_t n = 0;
    for (auto& s : sources_) n += s->stats().applied;
    return n;
  }
  uint64_t coalescedOrDropped() const {
    uint64_t n = 0;
    for (auto& s : sources_) n += s->stats().coalesced + s->stats().dropped;
    return n;
  }
  const Store& store() const { return store_; }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  Store store_;
  std::vector<std::unique_ptr<FallbackSource>> sources_;
};

void BM_GnmiStream(benchmark::State& state) {
  const int targets = int(state.range(0));
  FloodService service;
  StreamRig rig(service);
  const size_t heap0 = heapInUse();
  rig.startSources(targets, size_t(kInterfaces) * kLeafCount);  // warm-up: every leaf exists
  const size_t heap_leaves = heapInUse();
  const uint64_t before = rig.applied();
  const uint64_t coalesced0 = rig.coalescedOrDropped();
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  state.SetItemsProcessed(int64_t(rig.applied() - before));
  state.counters["leaves"] = double(rig.store().seriesCount());
  state.counters["bytes_per_leaf"] = double(heap_leaves - heap0) / double(rig.store().seriesCount());
  state.counters["coalesced_or_dropped"] = double(rig.coalescedOrDropped() - coalesced0);
}
// Manual wall time: items/s is updates applied per wall second.
BENCHMARK(BM_GnmiStream)->Arg(1)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(4);

// One round a second, as a switch sampling at 1 s: the steady state whose
// memory a gateway holds (the flood above keeps every buffer full instead).
class PacedService final : public ProtoTarget {
 public:
  explicit PacedService(int interfaces) : interfaces_(interfaces) {}
  grpc::Status Subscribe(grpc::ServerContext* ctx,
                         grpc::ServerReaderWriter<::gnmi::SubscribeResponse, ::gnmi::SubscribeRequest>* s) override {
    ::gnmi::SubscribeRequest req;
    if (!s->Read(&req)) return grpc::Status::OK;
    for (uint64_t base = 1000; !ctx->IsCancelled(); base += 1000) {
      for (auto& r : buildRound(base, interfaces_)) {
        if (!s->Write(r)) return grpc::Status::OK;
      }
      for (int i = 0; i < 10 && !ctx->IsCancelled(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return grpc::Status::OK;
  }

 private:
  const int interfaces_;
};

// The store's own heap for what `targets` sources will hold: the same
// notifications mapped and applied directly, no gNMI in between.
size_t storeOnlyHeap(int targets, int interfaces) {
  const size_t before = heapInUse();
  size_t held = 0;
  {
    Store store;
    southbound::gnmi::MappedNotification mapped;
    const std::vector<::gnmi::SubscribeResponse> round = buildRound(1000, interfaces);
    for (int t = 0; t < targets; ++t) {
      for (const ::gnmi::SubscribeResponse& r : round) {
        mapped.clear();
        southbound::gnmi::mapNotification(r.update(), 1, mapped);
        store.apply(targetName(t), mapped.updates);
      }
    }
    held = heapInUse() - before;
  }
  return held;
}

void BM_GnmiClientMemory(benchmark::State& state) {
  const int targets = int(state.range(0));
  const int interfaces = int(state.range(1));
  const size_t store_only = storeOnlyHeap(targets, interfaces);
  PacedService service(interfaces);
  StreamRig rig(service);
  const size_t heap0 = heapInUse();
  const size_t leaves = size_t(interfaces) * kLeafCount;
  rig.startSources(targets, leaves);
  std::this_thread::sleep_for(std::chrono::seconds(3));  // three more rounds: buffers at their steady size
  const size_t held = heapInUse() - heap0;
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  state.counters["leaves_per_target"] = double(leaves);
  state.counters["store_bytes_per_series"] = double(store_only) / double(leaves * size_t(targets));
  state.counters["gnmi_bytes_per_target"] = (double(held) - double(store_only)) / double(targets);
  state.counters["coalesced_or_dropped"] = double(rig.coalescedOrDropped());
}
// A 64-port leaf's counters (640 leaves) and one as wide as a real leaf's full set (~5k).
BENCHMARK(BM_GnmiClientMemory)
    ->ArgNames({"targets", "interfaces"})
    ->Args({100, 64})
    ->Args({20, 512})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace rdmagw::bench
