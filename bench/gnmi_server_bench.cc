// The gNMI northbound under load, with C++ gRPC clients in the same process
// (one thread per client: the benchmark's clients, not the server's design).
//   BM_GnmiSampleFanout/N   SAMPLE 1 s of the whole tree to N subscribers:
//                           notifications and updates delivered per second
//   BM_GnmiOnChangeLatency/N/C  store apply -> notification read by each of
//                           N ON_CHANGE subscribers on C connections (one
//                           reader thread for all, bench/async_subscribers.h):
//                           median and p99 (gnmi_ceiling_bench.cc gives the
//                           same figure for a server that does nothing); and
//                           send_p50/p99: apply -> written to the stream,
//                           the server's part without the clients' reads
//   BM_GnmiMemoryPerSubscriber  process RSS growth per ON_CHANGE subscriber
//                           of the whole tree (client and server together)
//   BM_GnmiGetWholeTree     Get "/" of every target: time and bytes
//   BM_GnmiStoreWriteNarrowSubscribers/N  a 5,000-leaf store write with N
//                           ON_CHANGE subscribers that want none of it
// The tree: bench::fillStore with kDemoLeaves leaves, about what
// `rdmagw-demo` holds with its defaults.

#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

#include "bench/async_subscribers.h"
#include "bench/bench_data.h"
#include "gnmi.grpc.pb.h"
#include "northbound/gnmi/gnmi_server.h"

namespace rdmagw::bench {
namespace {

constexpr size_t kDemoLeaves = 2000;

struct Server {
  Store store;
  std::unique_ptr<northbound::gnmi::GnmiServer> server;
  Server() {
    fillStore(store, kDemoLeaves);
    northbound::gnmi::GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    c.max_subscriptions = 1000;
    c.max_subscriptions_per_client = 1000;
    server = std::make_unique<northbound::gnmi::GnmiServer>(store, c);
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
  std::atomic<bool> ended{false};  // the stream is over; `status` holds how it ended
  grpc::Status status;

  Client(const std::string& addr, const gnmi::SubscribeRequest& req,
         std::function<void(const gnmi::Notification&)> on_notification = nullptr) {
    grpc::ChannelArguments args;
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    channel = grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args);
    stub = gnmi::gNMI::NewStub(channel);
    // Under load a first connect to the running server was seen to fail at
    // once: "failed to connect to all addresses; ... ipv4:127.0.0.1:P: No
    // such file or directory". connect(2) never says ENOENT; most likely
    // gRPC 1.51 reads connect's errno after taking locks (fixed upstream,
    // grpc#35064) and the process's first contended absl::Mutex opens a
    // sysfs file this VM lacks (tsc_freq_khz). A fail-fast stream then ends
    // UNAVAILABLE before the server sees it; waiting for the channel retries.
    ctx.set_wait_for_ready(true);
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
      status = stream->Finish();
      ended = true;
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

// ON_CHANGE of one leaf: host0's mlx5_0 np-cnp-sent.
gnmi::SubscribeRequest cnpSentOnChange() {
  gnmi::SubscribeRequest req = request(gnmi::ON_CHANGE);
  req.mutable_subscribe()->mutable_prefix()->set_target("host0");
  gnmi::Path* p = req.mutable_subscribe()->mutable_subscription(0)->mutable_path();
  for (const char* e : {"rdma", "devices", "device", "ports", "port", "state", "hw-counters", "np-cnp-sent"}) {
    p->add_elem()->set_name(e);
  }
  (*p->mutable_elem(2)->mutable_key())["name"] = "mlx5_0";
  return req;
}

// Waits until every client has read its sync_response. An empty answer
// when they all have; otherwise why not: a stream that ended first (its
// status), or the deadline with what the server had accepted by then, so a
// benchmark reports a stall instead of waiting forever.
std::string waitSynced(std::vector<std::unique_ptr<Client>>& clients, const Server& s,
                       std::chrono::seconds timeout = std::chrono::seconds(30)) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    size_t synced = 0, read_any = 0;
    for (auto& c : clients) {
      read_any += c->notifications > 0;
      if (c->synced) {
        ++synced;
      } else if (c->ended) {
        return "a Subscribe stream ended before its sync_response: code " +
               std::to_string(int(c->status.error_code())) + " " + c->status.error_message();
      }
    }
    if (synced == clients.size()) return "";
    if (Clock::now() >= deadline) {
      const northbound::gnmi::ServerStats& st = s.server->stats();
      return "no sync_response after " + std::to_string(timeout.count()) + " s: " +
             std::to_string(synced) + " of " + std::to_string(clients.size()) +
             " subscribers synced, " + std::to_string(read_any) +
             " read a notification; the server holds " +
             std::to_string(s.server->subscriberCount()) + " streams, " +
             std::to_string(st.subscribers_stream.load()) + " with an accepted request, " +
             std::to_string(st.notifications_sent.load()) + " notifications sent";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void BM_GnmiSampleFanout(benchmark::State& state) {
  Server s;
  const int n = int(state.range(0));
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < n; ++i) clients.push_back(std::make_unique<Client>(s.server->address(), request(gnmi::SAMPLE)));
  if (const std::string err = waitSynced(clients, s); !err.empty()) {
    state.SkipWithError(err.c_str());
    return;
  }
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

void BM_GnmiOnChangeLatency(benchmark::State& state) {
  Server s;
  const std::string leaf = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters/np-cnp-sent";
  const int n = int(state.range(0));
  const gnmi::SubscribeRequest req = cnpSentOnChange();
  OnChangeProbe probe(n, 300);
  {
    AsyncSubscribers subs(s.server->address(), req, n, int(state.range(1)),
                          [&](const gnmi::Notification& note, Clock::time_point now) { probe.onNotification(note, now); });
    subs.waitSynced();
    for (auto _ : state) {
      probe.run([&](int r) {
        std::vector<Update> b = {Update{leaf, OnChangeProbe::kBase + uint64_t(r), nowNs(), {}}};
        s.store.apply("host0", b);
      });
    }
  }
  probe.report(state.counters);
  // The gateway's own part: store apply -> notification written to the
  // stream (the server's change -> send histogram, interpolated in buckets).
  state.counters["send_p50_us"] = s.server->stats().change_send_lag.quantileSeconds(0.5) * 1e6;
  state.counters["send_p99_us"] = s.server->stats().change_send_lag.quantileSeconds(0.99) * 1e6;
}
// Args: subscribers, channels (TCP connections) they are spread over.
BENCHMARK(BM_GnmiOnChangeLatency)
    ->Args({1, 1})->Args({10, 10})->Args({100, 100})->Args({100, 10})
    ->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// A store writer's cost with N ON_CHANGE subscribers that want one leaf of
// another target: what ingest pays for the gNMI server when the changes it
// writes concern nobody (the scale run: 10 subscribers, ~1 % of the leaves).
void BM_GnmiStoreWriteNarrowSubscribers(benchmark::State& state) {
  Server s;
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < int(state.range(0)); ++i) {
    clients.push_back(std::make_unique<Client>(s.server->address(), cnpSentOnChange()));
  }
  if (const std::string err = waitSynced(clients, s); !err.empty()) {
    state.SkipWithError(err.c_str());
    return;
  }
  constexpr int kPorts = 1000;  // x 5 counters: one big leaf's SAMPLE burst
  std::vector<Update> batch;
  for (int i = 0; i < kPorts; ++i) {
    const std::string port = "/interfaces/interface[name=Ethernet1/" + std::to_string(i) + "]/state/counters/";
    for (const char* c : {"in-octets", "out-octets", "in-pkts", "out-pkts", "in-errors"}) {
      batch.push_back(Update{port + c, uint64_t(0), 1, {}});
    }
  }
  uint64_t round = 0;
  auto writeRound = [&] {
    ++round;
    for (Update& u : batch) {
      u.value = uint64_t(round * 1000);
      u.timestamp_ns = TimestampNs(round);
    }
    s.store.apply("leaf0", batch);
  };
  // Untimed rounds first: the process's first thousands of writes pay for
  // growing the heap (page faults), which no later write does.
  while (round < 200) writeRound();
  for (auto _ : state) writeRound();
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(batch.size()));
  state.counters["changes_taken_per_round"] =
      double(s.server->stats().changes_taken.load()) / double(std::max<uint64_t>(round, 1));
}
BENCHMARK(BM_GnmiStoreWriteNarrowSubscribers)->Arg(0)->Arg(10)->Unit(benchmark::kMicrosecond);

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
    if (const std::string err = waitSynced(clients, s); !err.empty()) {
      state.SkipWithError(err.c_str());
      break;
    }
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
