// The gNMI ceiling: change -> notification latency of a gNMI server that
// does nothing but write. Its Subscribe reactors (gRPC callback API, as
// rdmagw's) answer the SubscriptionList with a sync_response, and on each
// round the benchmark thread itself calls StartWrite on every stream with
// one prebuilt one-update notification: no store, no hub, no queue, no path
// matching. What remains is gRPC's per-stream cost (serialize, HTTP/2 frame,
// sendmsg per connection, the reader's wake-up) on this machine.
// rdmagw_bench's BM_GnmiOnChangeLatency measures rdmagw's server with the
// same clients (bench/async_subscribers.h) and arguments; the difference is
// what the gateway adds.
//
//   BM_NullGnmiOnChangeLatency/N/C  N subscribers on C connections:
//                                   median and p99 from trigger to read
// Run: ./build-rel/bench/rdmagw_gnmi_ceiling_bench

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <mutex>
#include <set>

#include "bench/async_subscribers.h"
#include "gnmi.grpc.pb.h"

namespace rdmagw::bench {
namespace {

class NullSubscribe;

// The open streams; the benchmark thread writes to all of them.
struct Streams {
  std::mutex mu;
  std::set<NullSubscribe*> open;
};

class NullSubscribe : public grpc::ServerBidiReactor<gnmi::SubscribeRequest, gnmi::SubscribeResponse> {
 public:
  explicit NullSubscribe(Streams& streams) : streams_(streams) {
    sync_.set_sync_response(true);
    StartRead(&req_);
  }

  // One write outstanding per stream (gRPC's rule): a round that finds the
  // previous write still in flight is counted and skipped, never queued;
  // the probe waits for every stream between rounds, so it should not happen.
  void send(const gnmi::SubscribeResponse* r) {
    if (!claimWrite()) {
      ++skipped_;
      return;
    }
    StartWrite(r);
  }
  static inline std::atomic<uint64_t> skipped_{0};

  void OnReadDone(bool ok) override {
    if (!ok || registered_) {
      Finish(grpc::Status::OK);
      return;
    }
    registered_ = true;
    if (claimWrite()) StartWrite(&sync_);
    // Keep a read pending: the client's cancel arrives as a failed read,
    // and Finish is called there.
    StartRead(&req_);
    std::lock_guard<std::mutex> l(streams_.mu);
    streams_.open.insert(this);
  }
  void OnWriteDone(bool) override {
    std::lock_guard<std::mutex> l(mu_);
    writing_ = false;
  }
  void OnDone() override {
    {
      std::lock_guard<std::mutex> l(streams_.mu);
      streams_.open.erase(this);
    }
    delete this;
  }

 private:
  // Not held across StartWrite: gRPC may run OnWriteDone before it returns.
  bool claimWrite() {
    std::lock_guard<std::mutex> l(mu_);
    if (writing_) return false;
    writing_ = true;
    return true;
  }

  Streams& streams_;
  gnmi::SubscribeRequest req_;
  gnmi::SubscribeResponse sync_;
  std::mutex mu_;
  bool writing_ = false;
  bool registered_ = false;  // only the first SubscribeRequest matters here
};

class NullGnmi : public gnmi::gNMI::CallbackService {
 public:
  explicit NullGnmi(Streams& streams) : streams_(streams) {}
  grpc::ServerBidiReactor<gnmi::SubscribeRequest, gnmi::SubscribeResponse>* Subscribe(
      grpc::CallbackServerContext*) override {
    return new NullSubscribe(streams_);
  }

 private:
  Streams& streams_;
};

void BM_NullGnmiOnChangeLatency(benchmark::State& state) {
  Streams streams;
  NullGnmi service(streams);
  int port = 0;
  grpc::ServerBuilder b;
  b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  b.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = b.BuildAndStart();
  if (!server || port == 0) {
    state.SkipWithError("server did not start");
    return;
  }
  const int n = int(state.range(0));
  gnmi::SubscribeRequest req;
  req.mutable_subscribe()->add_subscription()->set_mode(gnmi::ON_CHANGE);
  OnChangeProbe probe(n, 300);
  std::vector<gnmi::SubscribeResponse> notes(301);
  for (int r = 1; r <= 300; ++r) {
    gnmi::Notification* note = notes[size_t(r)].mutable_update();
    note->set_timestamp(int64_t(r));
    note->mutable_prefix()->set_target("host0");
    gnmi::Update* u = note->add_update();
    for (const char* e : {"rdma", "devices", "device", "ports", "port", "state", "hw-counters", "np-cnp-sent"}) {
      u->mutable_path()->add_elem()->set_name(e);
    }
    u->mutable_val()->set_uint_val(OnChangeProbe::kBase + uint64_t(r));
  }
  NullSubscribe::skipped_ = 0;
  {
    AsyncSubscribers subs("127.0.0.1:" + std::to_string(port), req, n, int(state.range(1)),
                          [&](const gnmi::Notification& note, Clock::time_point now) { probe.onNotification(note, now); });
    subs.waitSynced();
    for (auto _ : state) {
      probe.run([&](int r) {
        std::lock_guard<std::mutex> l(streams.mu);
        for (NullSubscribe* s : streams.open) s->send(&notes[size_t(r)]);
      });
    }
  }
  probe.report(state.counters);
  state.counters["skipped"] = double(NullSubscribe::skipped_.load());
  server->Shutdown();
}
// Args: subscribers, channels (TCP connections) they are spread over; the
// same as BM_GnmiOnChangeLatency's.
BENCHMARK(BM_NullGnmiOnChangeLatency)
    ->Args({1, 1})->Args({10, 10})->Args({100, 100})->Args({100, 10})
    ->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rdmagw::bench
