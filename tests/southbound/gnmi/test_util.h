#pragma once
// Shared helpers for the gNMI client tests: generous polling waits (never a
// wall-clock assertion), a fake SSH PollSource reading the fake device's
// counter, TLS material made with the openssl CLI.

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <optional>
#include <thread>

#include "models/store.h"
#include "tests/support/test_support.h"
#include "southbound/gnmi/gnmi_config.h"
#include "southbound/gnmi/mapping/notification_mapper.h"
#include "tests/southbound/gnmi/fake_target.h"
#include "southbound/poll_source.h"

namespace rdmagw::testing {

inline bool waitFor(const std::function<bool()>& pred, std::chrono::milliseconds limit = testing::kEventWait) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return pred();
}

// The model path the mapping gives a leaf of the fake's counter tree (the
// mapping owns naming, e.g. eth1/1 -> Ethernet1/1; the tests follow it).
inline std::string modelPath(int intf, const std::string& leaf) {
  ::gnmi::Notification n;
  auto* u = n.add_update();
  *u->mutable_path() = nxosCounterPath(intf, leaf);
  u->mutable_val()->set_uint_val(1);
  southbound::gnmi::MappedNotification m;
  southbound::gnmi::mapNotification(n, 1, m);
  return m.updates.empty() ? std::string("unmapped") : m.updates.front().path;
}
inline std::string octetsPath(int intf) { return modelPath(intf, "in-octets"); }

inline std::optional<uint64_t> storedU64(const Store& store, const std::string& target, const std::string& path) {
  auto s = store.get(target, path);
  if (!s) return std::nullopt;
  if (auto* v = std::get_if<uint64_t>(&s->value)) return *v;
  return std::nullopt;
}

// The SSH side of a fallback test: reads the same device counter the fake
// gNMI target serves, under the same model paths.
class FakeSshSource : public southbound::PollSource {
 public:
  FakeSshSource(std::atomic<uint64_t>& counter, int interfaces) : counter_(counter), interfaces_(interfaces) {}
  std::string_view transport() const override { return "ssh"; }
  Status poll(PollBatch& batch) override {
    ++polls;
    if (fail) return Status::unavailable("ssh down");
    const uint64_t v = counter_.fetch_add(10) + 10;
    for (int i = 1; i <= interfaces_; ++i) batch.add(octetsPath(i), v, nowNs());
    return Status::ok();
  }
  std::atomic<int> polls{0};
  std::atomic<bool> fail{false};

 private:
  std::atomic<uint64_t>& counter_;
  int interfaces_;
};

// A CA, a server cert for 127.0.0.1/localhost and a client cert, all signed
// by the CA, in `dir`. Returns false if openssl failed.
inline bool makeTlsFiles(const std::string& dir) {
  const std::string cmd =
      "set -e; cd '" + dir + "'; "
      "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=test-ca 2>/dev/null; "
      "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > san.ext; "
      "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null; "
      "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 "
      "-extfile san.ext 2>/dev/null; "
      "openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj /CN=client 2>/dev/null; "
      "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

inline southbound::gnmi::GnmiConfig fastConfig(const std::string& address) {
  southbound::gnmi::GnmiConfig c;
  c.address = address;
  c.tls = false;
  c.plaintext = true;
  c.keepalive_time = std::chrono::milliseconds(0);
  c.sample_interval = std::chrono::seconds(1);
  c.subscriptions = {
      {"openconfig:/interfaces/interface/state/counters", southbound::gnmi::SubscriptionMode::kSample, {}},
      {"openconfig:/interfaces/interface/state/oper-status", southbound::gnmi::SubscriptionMode::kOnChange, {}}};
  c.backoff_initial = std::chrono::milliseconds(20);
  c.backoff_max = std::chrono::milliseconds(200);
  c.dial_timeout = std::chrono::seconds(3);
  c.retry_gnmi_after = std::chrono::milliseconds(300);
  c.idle_timeout = std::chrono::seconds(5);
  c.stale_after = std::chrono::seconds(600);
  return c;
}

}  // namespace rdmagw::testing
