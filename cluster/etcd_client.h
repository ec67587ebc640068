#pragma once
// A small client of etcd's v3 gRPC API: the calls the fleet's membership
// needs (leases, put, range and watch of a prefix), nothing else.
//
// Endpoints are tried in turn: a call that fails for want of the server
// (UNAVAILABLE, DEADLINE_EXCEEDED) moves the client to the next endpoint and
// is tried there, each endpoint at most once per call. Every unary call has
// a deadline (call_timeout), so a frozen etcd costs a caller at most that.
// With a user, the client authenticates (Auth.Authenticate) and sends the
// token as metadata "token", as etcd expects; an expired token is renewed
// once per call. Thread-safe: the membership's lease and watch threads
// share one client.
//
// Longer than a header should be because each call's failover and retry rule
// is documented beside the call.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/secret.h"
#include "models/status.h"

namespace grpc {
class Channel;
class ClientContext;
}  // namespace grpc

namespace rdmagw::cluster {

struct EtcdTlsConfig {
  std::string ca_file;    // PEM; empty: the system's roots
  std::string cert_file;  // client certificate (PEM), with key_file
  std::string key_file;
  bool enabled = false;   // also implied by an https:// endpoint
};

struct EtcdClientConfig {
  // "host:port", "http://host:port" or "https://host:port".
  std::vector<std::string> endpoints;
  EtcdTlsConfig tls;
  std::string user;      // empty: no authentication
  common::Secret password;
  std::chrono::milliseconds call_timeout{2000};
};

struct EtcdKeyValue {
  std::string key;
  std::string value;
  int64_t create_revision = 0;
  int64_t mod_revision = 0;
  int64_t lease = 0;
};

struct EtcdRange {
  std::vector<EtcdKeyValue> kvs;
  int64_t revision = 0;  // the store's revision the range was read at
};

struct EtcdLease {
  int64_t id = 0;
  int64_t ttl_seconds = 0;  // as etcd granted it
};

struct EtcdEvent {
  enum class Type { kPut, kDelete };
  Type type = Type::kPut;
  EtcdKeyValue kv;  // a delete carries the key and the deletion's revision
};

// One response of a watch stream: events, or the watch's end.
struct EtcdWatchBatch {
  std::vector<EtcdEvent> events;
  int64_t revision = 0;          // header revision
  bool canceled = false;         // etcd ended the watch: list again
  int64_t compact_revision = 0;  // > 0: the start revision was compacted
  std::string cancel_reason;
};

// Request kinds, for the self-metrics (etcd traffic should grow with the
// members, never with the targets).
enum class EtcdRequestKind { kGrant, kKeepAlive, kRevoke, kPut, kRange, kWatch, kAuth, kDelete };
inline constexpr size_t kEtcdRequestKinds = 8;
const char* etcdRequestKindName(EtcdRequestKind kind);

class EtcdWatch;

class EtcdClient {
 public:
  // Checks the config and reads the TLS files; no connection yet.
  static Result<std::unique_ptr<EtcdClient>> create(EtcdClientConfig config);
  ~EtcdClient();
  EtcdClient(const EtcdClient&) = delete;
  EtcdClient& operator=(const EtcdClient&) = delete;

  Result<EtcdLease> grantLease(int64_t ttl_seconds);
  // One keep-alive round trip: the renewed TTL in seconds; 0 when etcd no
  // longer knows the lease (it expired or was revoked).
  Result<int64_t> keepAliveOnce(int64_t lease_id);
  Status revokeLease(int64_t lease_id);
  Status put(const std::string& key, const std::string& value, int64_t lease_id = 0);
  Status deleteKey(const std::string& key);
  Result<EtcdRange> rangePrefix(const std::string& prefix);
  // A watch of every key under `prefix`, from `start_revision` (inclusive).
  // The stream has no deadline; cancel() it from another thread.
  Result<std::unique_ptr<EtcdWatch>> watchPrefix(const std::string& prefix, int64_t start_revision);

  // Requests sent, by kind (monotonic; retries on another endpoint count).
  uint64_t requests(EtcdRequestKind kind) const;
  std::string currentEndpoint() const;

  // The first key after every key that starts with `prefix` (etcd's
  // range_end for a prefix); "\0" when there is none.
  static std::string prefixEnd(const std::string& prefix);

 private:
  friend class EtcdWatch;
  struct Endpoint;
  explicit EtcdClient(EtcdClientConfig config);
  Status init();
  std::shared_ptr<grpc::Channel> channel(size_t index);
  // Sets deadline (unless streaming) and the auth token on `ctx`.
  void prepare(grpc::ClientContext* ctx, bool unary) const;
  Status authenticate(size_t index);
  void count(EtcdRequestKind kind) { requests_[static_cast<size_t>(kind)].fetch_add(1); }
  // Runs `call` on each endpoint in turn from the current one until one
  // answers; see the class comment.
  template <typename Call>
  Status withFailover(EtcdRequestKind kind, const Call& call);

  EtcdClientConfig config_;
  bool tls_ = false;
  std::string ca_pem_, cert_pem_, key_pem_;
  std::vector<std::string> addresses_;  // without scheme
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<grpc::Channel>> channels_;
  size_t current_ = 0;
  std::string token_;
  std::array<std::atomic<uint64_t>, kEtcdRequestKinds> requests_{};
};

// A live watch stream. next() blocks until etcd sends a response; false
// when the stream ended (error, cancel(), or the server went away): the
// caller lists again and opens a new watch.
class EtcdWatch {
 public:
  ~EtcdWatch();
  bool next(EtcdWatchBatch* out);
  void cancel();  // from any thread; next() then returns false
  // Why the stream ended, once next() returned false.
  Status finish();

 private:
  friend class EtcdClient;
  struct Impl;
  explicit EtcdWatch(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmagw::cluster
