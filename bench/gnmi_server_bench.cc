// The gNMI northbound under load, with C++ gRPC clients in the same process
// (one thread per client: the benchmark's clients, not the server's design).
//   BM_GnmiSampleFanout/N   SAMPLE 1 s of the whole tree to N subscribers:
//                           notifications and updates delivered per second
//   BM_GnmiOnChangeLatency/N  store apply -> notification read by each of N
//                           ON_CHANGE subscribers (one reader thread for
//                           all, see AsyncSubscribers): median and p99; and
//                           send_p50/p99: apply -> written to the stream,
//                           the server's part without the clients' reads
//   BM_GnmiMemoryPerSubscriber  process RSS growth per ON_CHANGE subscriber
//                           of the whole tree (client and server together)
//   BM_GnmiGetWholeTree     Get "/" of every target: time and bytes
// The tree: bench::fillStore with kDemoLeaves leaves, about what
// `rdmagw demo` holds with its defaults.

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

#include "bench/bench_data.h"
#include "gnmi.grpc.pb.h"
#include "northbound/gnmi/gnmi_server.h"

namespace rdmagw::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kDemoLeaves = 2000;

struct Server {
  Store store;
  std::unique_ptr<northbound::GnmiServer> server;
  Server() {
    fillStore(store, kDemoLeaves);
    northbound::GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    c.max_subscriptions = 1000;
    c.max_subscriptions_per_client = 1000;
    server = std::make_unique<northbound::GnmiServer>(store, c);
    if (!server->start().isOk()) std::abort();
  }
};

// A subscriber on its own channel and thread; counts what it reads.
struct Client {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<gnmi::gNMI::Stub> stub;
  grpc::ClientContext ctx;
  std::thread thread;
  std::atomic<uint64_t> notifications{0}, updates{0};
  std::atomic<bool> synced{false};

  Client(const std::string& addr, const gnmi::SubscribeRequest& req,
         std::function<void(const gnmi::Notification&)> on_notification = nullptr) {
    grpc::ChannelArguments args;
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    channel = grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args);
    stub = gnmi::gNMI::NewStub(channel);
    thread = std::thread([this, req, on_notification] {
      auto stream = stub->Subscribe(&ctx);
      stream->Write(req);
      gnmi::SubscribeResponse r;
      while (stream->Read(&r)) {
        if (r.sync_response()) synced = true;
        if (!r.has_update()) continue;
        if (on_notification) on_notification(r.update());
        notifications.fetch_add(1, std::memory_order_relaxed);
        updates.fetch_add(r.update().update_size(), std::memory_order_relaxed);
      }
      stream->Finish();
    });
  }
  ~Client() {
    ctx.TryCancel();
    thread.join();
  }
};

gnmi::SubscribeRequest request(gnmi::SubscriptionMode mode, const std::string& path_leaf = "") {
  gnmi::SubscribeRequest req;
  gnmi::SubscriptionList* l = req.mutable_subscribe();
  l->mutable_prefix()->set_target("*");
  l->set_encoding(gnmi::PROTO);
  gnmi::Subscription* s = l->add_subscription();
  s->set_mode(mode);
  s->set_sample_interval(1'000'000'000);
  if (!path_leaf.empty()) s->mutable_path()->add_elem()->set_name(path_leaf);
  return req;
}

void waitSynced(std::vector<std::unique_ptr<Client>>& clients) {
  for (auto& c : clients) {
    while (!c->synced) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void BM_GnmiSampleFanout(benchmark::State& state) {
  Server s;
  const int n = int(state.range(0));
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < n; ++i) clients.push_back(std::make_unique<Client>(s.server->address(), request(gnmi::SAMPLE)));
  waitSynced(clients);
  uint64_t notes = 0, ups = 0;
  double secs = 0;
  for (auto _ : state) {
    uint64_t n0 = 0, u0 = 0, n1 = 0, u1 = 0;
    for (auto& c : clients) n0 += c->notifications, u0 += c->updates;
    const auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(5));
    for (auto& c : clients) n1 += c->notifications, u1 += c->updates;
    secs = std::chrono::duration<double>(Clock::now() - t0).count();
    notes = n1 - n0;
    ups = u1 - u0;
  }
  state.counters["notifications_per_s"] = double(notes) / secs;
  state.counters["updates_per_s"] = double(ups) / secs;
  state.counters["coalesced"] = double(s.server->stats().updates_coalesced.load());
}
BENCHMARK(BM_GnmiSampleFanout)->Arg(1)->Arg(10)->Arg(100)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

// N ON_CHANGE streams, each on its own channel (its own TCP connection, as
// N separate clients would be), all read by ONE thread through a completion
// queue. The subscribers' CPU would not be the gateway's in production; a
// thread per stream here made the clients' wake-ups, not the server, the
// figure on a 2-core machine.
struct AsyncSubscribers {
  struct Stream {
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<gnmi::gNMI::Stub> stub;
    grpc::ClientContext ctx;
    std::unique_ptr<grpc::ClientAsyncReaderWriter<gnmi::SubscribeRequest, gnmi::SubscribeResponse>> rw;
    gnmi::SubscribeResponse resp;
    bool synced = false;
  };
  grpc::CompletionQueue cq;
  std::vector<std::unique_ptr<Stream>> streams;
  std::thread reader;
  std::atomic<int> synced{0};

  // Tags: stream index * 4 + {0 start, 1 write, 2 read, 3 finish}.
  AsyncSubscribers(const std::string& addr, const gnmi::SubscribeRequest& req, int n,
                   std::function<void(const gnmi::Notification&, Clock::time_point)> on_notification) {
    for (int i = 0; i < n; ++i) {
      auto st = std::make_unique<Stream>();
      grpc::ChannelArguments args;
      args.SetInt("grpc.use_local_subchannel_pool", 1);
      st->channel = grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args);
      st->stub = gnmi::gNMI::NewStub(st->channel);
      st->rw = st->stub->AsyncSubscribe(&st->ctx, &cq, tag(i, 0));
      streams.push_back(std::move(st));
    }
    reader = std::thread([this, req, on_notification] {
      void* t = nullptr;
      bool ok = false;
      while (cq.Next(&t, &ok)) {
        const uintptr_t v = reinterpret_cast<uintptr_t>(t);
        Stream& st = *streams[v / 4];
        const int op = int(v % 4);
        if (!ok) continue;  // cancelled at shutdown
        if (op == 0) {
          st.rw->Write(req, tag(v / 4, 1));
          st.rw->Read(&st.resp, tag(v / 4, 2));
        } else if (op == 2) {
          if (st.resp.sync_response() && !st.synced) {
            st.synced = true;
            synced.fetch_add(1);
          }
          if (st.resp.has_update()) on_notification(st.resp.update(), Clock::now());
          st.rw->Read(&st.resp, tag(v / 4, 2));
        }
      }
    });
  }
  ~AsyncSubscribers() {
    for (auto& st : streams) st->ctx.TryCancel();
    // Let the cancelled reads drain before the queue shuts down.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cq.Shutdown();
    reader.join();
  }
  static void* tag(size_t i, int op) { return reinterpret_cast<void*>(uintptr_t(i * 4 + size_t(op))); }
  void waitSynced() {
    while (synced.load() < int(streams.size())) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};

void BM_GnmiOnChangeLatency(benchmark::State& state) {
  Server s;
  const std::string leaf = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent";
  constexpr int kRounds = 300;
  std::vector<Clock::time_point> sent(kRounds + 1);
  std::vector<double> lat_us;  // reader thread only until it is joined
  lat_us.reserve(size_t(kRounds) * size_t(state.range(0)));
  gnmi::SubscribeRequest req = request(gnmi::ON_CHANGE);
  req.mutable_subscribe()->mutable_prefix()->set_target("host0");
  gnmi::Path* p = req.mutable_subscribe()->mutable_subscription(0)->mutable_path();
  for (const char* e : {"rdma", "devices", "device", "ports", "port", "state", "hw-counters", "np-cnp-sent"}) {
    p->add_elem()->set_name(e);
  }
  (*p->mutable_elem(2)->mutable_key())["name"] = "mlx5_0";
  std::atomic<int> rounds_seen{0};
  {
    AsyncSubscribers subs(s.server->address(), req, int(state.range(0)),
                          [&](const gnmi::Notification& n, Clock::time_point now) {
                            for (const gnmi::Update& u : n.update()) {
                              const uint64_t round = u.val().uint_val() % 1'000'000;
                              if (round == 0 || round > kRounds) continue;
                              lat_us.push_back(std::chrono::duration<double, std::micro>(now - sent[round]).count());
                              rounds_seen.fetch_add(1, std::memory_order_release);
                            }
                          });
    subs.waitSynced();
    for (auto _ : state) {
      for (int r = 1; r <= kRounds; ++r) {
        std::vector<Update> b = {Update{leaf, uint64_t(1'000'000'000) + uint64_t(r), nowNs(), {}}};
        sent[r] = Clock::now();
        s.store.apply("host0", b);
        // One change in flight at a time: wait until every subscriber has it
        // (or 1 s), then a short gap, so a slow round cannot queue the next.
        const auto deadline = Clock::now() + std::chrono::seconds(1);
        while (rounds_seen.load(std::memory_order_acquire) < r * int(state.range(0)) && Clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
  }
  std::sort(lat_us.begin(), lat_us.end());
  if (lat_us.empty()) return;
  state.counters["received"] = double(lat_us.size());
  state.counters["median_us"] = lat_us[lat_us.size() / 2];
  state.counters["p99_us"] = lat_us[std::min(lat_us.size() - 1, lat_us.size() * 99 / 100)];
  // The gateway's own part: store apply -> notification written to the
  // stream (the server's change -> send histogram, interpolated in buckets).
  state.counters["send_p50_us"] = s.server->stats().change_send_lag.quantileSeconds(0.5) * 1e6;
  state.counters["send_p99_us"] = s.server->stats().change_send_lag.quantileSeconds(0.99) * 1e6;
}
BENCHMARK(BM_GnmiOnChangeLatency)->Arg(1)->Arg(10)->Arg(100)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

size_t rssBytes() {
  std::ifstream in("/proc/self/statm");
  size_t pages = 0, resident = 0;
  in >> pages >> resident;
  return resident * size_t(sysconf(_SC_PAGESIZE));
}

void BM_GnmiMemoryPerSubscriber(benchmark::State& state) {
  Server s;
  constexpr int kClients = 100;
  for (auto _ : state) {
    const size_t before = rssBytes();
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < kClients; ++i) {
      clients.push_back(std::make_unique<Client>(s.server->address(), request(gnmi::ON_CHANGE)));
    }
    waitSynced(clients);
    state.counters["rss_bytes_per_subscriber"] = double(rssBytes() - before) / kClients;
  }
}
BENCHMARK(BM_GnmiMemoryPerSubscriber)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GnmiGetWholeTree(benchmark::State& state) {
  Server s;
  auto stub = gnmi::gNMI::NewStub(grpc::CreateChannel(s.server->address(), grpc::InsecureChannelCredentials()));
  gnmi::GetRequest req;
  req.mutable_prefix()->set_target("*");
  req.set_encoding(static_cast<gnmi::Encoding>(state.range(0)));
  size_t bytes = 0, updates = 0;
  for (auto _ : state) {
    grpc::ClientContext ctx;
    gnmi::GetResponse resp;
    if (!stub->Get(&ctx, req, &resp).ok()) std::abort();
    bytes = resp.ByteSizeLong();
    updates = 0;
    for (const auto& n : resp.notification()) updates += n.update_size();
  }
  state.counters["bytes"] = double(bytes);
  state.counters["updates"] = double(updates);
  state.SetLabel(gnmi::Encoding_Name(req.encoding()));
}
BENCHMARK(BM_GnmiGetWholeTree)->Arg(gnmi::PROTO)->Arg(gnmi::JSON_IETF)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rdmagw::bench
