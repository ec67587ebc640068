#pragma once
// gNMI subscribers for latency benchmarks, and the round-by-round probe
// that times one change from its trigger to every subscriber's read.
// Shared by gnmi_server_bench.cc (rdmagw's server) and
// gnmi_ceiling_bench.cc (a server that does nothing), so both are timed by
// the same clients.

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gnmi.grpc.pb.h"

namespace rdmagw::bench {

using Clock = std::chrono::steady_clock;

// N Subscribe streams spread over `channels` channels (each channel is its
// own TCP connection: channels == N is N separate clients; fewer is clients
// multiplexing streams on one HTTP/2 connection), all read by ONE thread
// through a completion queue. The subscribers' CPU would not be the
// gateway's in production; a thread per stream made the clients' wake-ups,
// not the server, the figure on a 2-core machine.
struct AsyncSubscribers {
  struct Stream {
    std::unique_ptr<gnmi::gNMI::Stub> stub;
    grpc::ClientContext ctx;
    std::unique_ptr<grpc::ClientAsyncReaderWriter<gnmi::SubscribeRequest, gnmi::SubscribeResponse>> rw;
    gnmi::SubscribeResponse resp;
    bool synced = false;
  };
  grpc::CompletionQueue cq;
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<Stream>> streams;
  std::thread reader;
  std::atomic<int> synced{0};

  // Tags: stream index * 4 + {0 start, 1 write, 2 read}.
  AsyncSubscribers(const std::string& addr, const gnmi::SubscribeRequest& req, int n, int channel_count,
                   std::function<void(const gnmi::Notification&, Clock::time_point)> on_notification) {
    for (int c = 0; c < std::max(1, channel_count); ++c) {
      grpc::ChannelArguments args;
      args.SetInt("grpc.use_local_subchannel_pool", 1);
      channels.push_back(grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args));
    }
    for (int i = 0; i < n; ++i) {
      auto st = std::make_unique<Stream>();
      st->stub = gnmi::gNMI::NewStub(channels[size_t(i) % channels.size()]);
      st->ctx.set_wait_for_ready(true);  // a failed first connect is retried, not the stream's end
      st->rw = st->stub->AsyncSubscribe(&st->ctx, &cq, tag(size_t(i), 0));
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

// Times `rounds` changes, one in flight at a time: trigger(r) makes the
// server send a notification whose first update carries uint_val
// base + r; each subscriber's read of it is one latency sample.
class OnChangeProbe {
 public:
  static constexpr uint64_t kBase = 1'000'000'000;

  OnChangeProbe(int subscribers, int rounds) : subscribers_(subscribers), rounds_(rounds), sent_(size_t(rounds) + 1) {
    lat_us_.reserve(size_t(rounds) * size_t(subscribers));
  }

  // The subscribers' callback (their one reader thread).
  void onNotification(const gnmi::Notification& n, Clock::time_point now) {
    for (const gnmi::Update& u : n.update()) {
      const uint64_t round = u.val().uint_val() % 1'000'000;
      if (round == 0 || round > uint64_t(rounds_)) continue;
      lat_us_.push_back(std::chrono::duration<double, std::micro>(now - sent_[round]).count());
      seen_.fetch_add(1, std::memory_order_release);
    }
  }

  // Each round waits until every subscriber has it (or 1 s), then a short
  // gap, so a slow round cannot queue the next.
  void run(const std::function<void(int round)>& trigger) {
    for (int r = 1; r <= rounds_; ++r) {
      sent_[size_t(r)] = Clock::now();
      trigger(r);
      const auto deadline = Clock::now() + std::chrono::seconds(1);
      while (seen_.load(std::memory_order_acquire) < r * subscribers_ && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  // After the subscribers are gone (their reader thread joined).
  template <typename Counters>
  void report(Counters& counters) {
    std::sort(lat_us_.begin(), lat_us_.end());
    if (lat_us_.empty()) return;
    counters["received"] = double(lat_us_.size());
    counters["median_us"] = lat_us_[lat_us_.size() / 2];
    counters["p99_us"] = lat_us_[std::min(lat_us_.size() - 1, lat_us_.size() * 99 / 100)];
  }

 private:
  const int subscribers_;
  const int rounds_;
  std::vector<Clock::time_point> sent_;
  std::vector<double> lat_us_;  // the reader thread's until it is joined
  std::atomic<int> seen_{0};
};

}  // namespace rdmagw::bench
