// The gNMI reader of the scale run (bench/scale_run.sh): K subscribers, each
// its own Subscribe stream (ON_CHANGE) to the gateway under test, for a
// while. Per update received after the sync it records now - the update's
// timestamp (the collection time the device stamped), so the figure is the
// end-to-end latency a subscriber sees: ingest lag + the server's dispatch.
// Prints count, p50, p99 and max.

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gnmi.grpc.pb.h"
#include "models/value.h"

namespace {

struct Options {
  std::string address = "127.0.0.1:9339";
  int subscribers = 10;
  int seconds = 60;
  std::string path = "/interfaces/interface/state/counters/in-octets";
  std::string target = "*";
  bool own_connections = false;  // --connections own: each stream its own HTTP/2 connection
};

gnmi::Path toPath(const std::string& text) {
  gnmi::Path p;
  size_t i = 1;
  while (i <= text.size()) {
    const size_t j = std::min(text.find('/', i), text.size());
    if (j > i) p.add_elem()->set_name(text.substr(i, j - i));  // keyless: every instance
    i = j + 1;
  }
  return p;
}

struct Result {
  std::vector<int64_t> lat_ns;
  uint64_t before_sync = 0;
  std::string error;
};

void subscribe(const Options& o, Result* r) {
  grpc::ChannelArguments args;
  if (o.own_connections) args.SetInt("grpc.use_local_subchannel_pool", 1);
  auto channel = grpc::CreateCustomChannel(o.address, grpc::InsecureChannelCredentials(), args);
  auto stub = gnmi::gNMI::NewStub(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(o.seconds));
  auto stream = stub->Subscribe(&ctx);
  gnmi::SubscribeRequest req;
  gnmi::SubscriptionList* list = req.mutable_subscribe();
  list->set_mode(gnmi::SubscriptionList::STREAM);
  list->set_encoding(gnmi::PROTO);
  list->mutable_prefix()->set_target(o.target);
  gnmi::Subscription* s = list->add_subscription();
  *s->mutable_path() = toPath(o.path);
  s->set_mode(gnmi::ON_CHANGE);
  if (!stream->Write(req)) {
    r->error = "write failed";
    return;
  }
  bool synced = false;
  gnmi::SubscribeResponse resp;
  while (stream->Read(&resp)) {
    if (resp.has_sync_response()) synced = true;
    if (!resp.has_update()) continue;
    const rdmagw::TimestampNs now = rdmagw::nowNs();
    const gnmi::Notification& n = resp.update();
    if (!synced) {
      r->before_sync += uint64_t(n.update_size());
      continue;
    }
    for (int k = 0; k < n.update_size(); ++k) r->lat_ns.push_back(now - n.timestamp());
  }
  grpc::Status st = stream->Finish();
  if (!st.ok() && st.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED) r->error = st.error_message();
}

double ms(int64_t ns) { return double(ns) / 1e6; }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--gnmi") o.address = v;
    else if (a == "--subscribers") o.subscribers = std::atoi(v.c_str());
    else if (a == "--seconds") o.seconds = std::atoi(v.c_str());
    else if (a == "--path") o.path = v;
    else if (a == "--target") o.target = v;
    else if (a == "--connections" && (v == "own" || v == "shared")) o.own_connections = v == "own";
    else {
      std::fprintf(stderr, "usage: rdmagw_scale_probe [--gnmi ADDR] [--subscribers K] [--seconds S] [--path P] [--target T]"
                           " [--connections shared|own]\n");
      return 2;
    }
  }
  std::vector<Result> results(size_t(o.subscribers));
  std::vector<std::thread> threads;
  for (Result& r : results) threads.emplace_back(subscribe, std::cref(o), &r);
  for (std::thread& t : threads) t.join();
  std::vector<int64_t> all;
  uint64_t initial = 0;
  int errors = 0;
  for (const Result& r : results) {
    all.insert(all.end(), r.lat_ns.begin(), r.lat_ns.end());
    initial += r.before_sync;
    if (!r.error.empty()) {
      ++errors;
      std::fprintf(stderr, "rdmagw_scale_probe: subscriber: %s\n", r.error.c_str());
    }
  }
  std::sort(all.begin(), all.end());
  const auto q = [&all](double f) { return all.empty() ? 0 : all[std::min(all.size() - 1, size_t(f * all.size()))]; };
  std::printf("onchange subscribers=%d seconds=%d initial_updates=%llu updates=%zu p50_ms=%.1f p99_ms=%.1f max_ms=%.1f errors=%d\n",
              o.subscribers, o.seconds, (unsigned long long)initial, all.size(), ms(q(0.5)), ms(q(0.99)),
              ms(all.empty() ? 0 : all.back()), errors);
  return errors == 0 ? 0 : 1;
}
