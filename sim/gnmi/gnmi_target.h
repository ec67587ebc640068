#pragma once
// A simulated NX-OS gNMI target: one gRPC server per simulated Nexus leaf,
// listening on 127.0.0.1, serving the same counters as the leaf's SSH face
// (sim/nxos_render.cc) from a snapshot the runner publishes each tick.
//
// Served: Capabilities, Subscribe (STREAM SAMPLE/ON_CHANGE/TARGET_DEFINED,
// ONCE, POLL). Get and Set answer UNIMPLEMENTED. The paths and their value
// encodings are listed in sim/gnmi/nxos_tree.h.
//
// Threads: the gRPC callback API (no thread per stream) plus one scheduler
// thread per target that paces samples, keepalives and ON_CHANGE checks.
// Every public method is thread-safe.
//
// Longer than a header should be because what the target serves, and which
// real NX-OS behaviour each option copies, is documented beside the options.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "models/status.h"
#include "models/value.h"
#include "sim/gnmi/connection_ledger.h"
#include "sim/switch.h"

namespace rdmagw::sim {

// NX-OS behaviours a gNMI client must cope with; each can be turned off to
// get a by-the-spec target. Defaults model a 10.x N9K.
struct GnmiQuirks {
  bool echo_origin = true;         // returned paths carry origin ("openconfig", "device")
  std::chrono::milliseconds keepalive_interval{10000};  // empty SubscribeResponse; 0 = off
  bool native_json_blobs = true;   // native containers arrive as one json_val blob
  bool reject_prefix = true;       // SubscriptionList.prefix with elems/origin: INVALID_ARGUMENT
  bool never_sync = false;         // NX-OS 9.3(8): no sync_response, ever (gnmi-gateway #42)
};

enum class GnmiTls { kNone, kTls, kMutualTls };

// A CA's files (sim/gnmi/gnmi_tls.h makes one); `dir` holds them.
struct GnmiCa {
  std::string dir;
  std::string cert, key;
};

struct GnmiTargetOptions {
  std::string gnmi_version = "0.5.0";
  GnmiQuirks quirks;
  // SAMPLE intervals below this are raised to it; 0 asks for it. NX-OS: 1 s.
  // Tests may lower it (e.g. 100 ms).
  std::chrono::milliseconds min_sample_interval{1000};
  // TARGET_DEFINED subscriptions sample at max(sample_interval, this).
  std::chrono::milliseconds target_defined_interval{10000};
  GnmiTls tls = GnmiTls::kNone;
  // TLS: this CA signs the target's certificates (its files stay the
  // owner's, e.g. GnmiFleet's). Empty: the target makes a CA of its own.
  // Switches of one fabric share their operator's CA, so that one ca_file
  // lets a client trust them all.
  GnmiCa ca;
  // Non-empty: every RPC must carry `username`/`password` metadata equal to
  // these, else UNAUTHENTICATED. Changeable later with setCredentials().
  std::string username;
  std::string password;
  bool include_internal_ports = true;  // ii ports in the native ipqos list (as the CLI's PFC table)
  int port = 0;                        // 0: a free port, chosen at the first start()
  // stop(): open streams are finished with UNAVAILABLE at once; calls still
  // open after this grace are cancelled by gRPC.
  std::chrono::milliseconds shutdown_grace{500};
  size_t max_queued_responses = 4096;  // per stream; a full queue skips (coalesces) samples
  // true: a notification carries the time it was generated (a device sampling
  // on its own timer), not the time of the tick it reads. The scale run needs
  // it so that "timestamp -> visible in the gateway" measures the gateway,
  // not how old the simulator's last tick was.
  bool stamp_at_send = false;
  // Counts handshakes in progress (sim/gnmi/connection_ledger.h); share one
  // across a fleet to see how many the client runs at once. Null: the
  // target's own.
  std::shared_ptr<HandshakeMeter> handshake_meter;
  // Capabilities is answered this much later: NX-OS authenticates every RPC
  // against AAA (a TACACS+ round trip), so a handshake is not instant.
  std::chrono::milliseconds capabilities_delay{0};
};

// Files written by start() when tls != kNone (a temp dir, removed by the
// destructor; ca_cert/ca_key are options.ca's when given, outside it). The
// untrusted client pair is self-signed, not by the CA.
struct GnmiTlsFiles {
  std::string dir;
  std::string ca_cert, ca_key;
  std::string server_cert, server_key;  // SAN IP:127.0.0.1, DNS:localhost
  std::string client_cert, client_key;  // signed by the CA (mTLS)
  std::string untrusted_client_cert, untrusted_client_key;
};

class GnmiTarget {
 public:
  explicit GnmiTarget(std::string switch_name, GnmiTargetOptions options = {});
  ~GnmiTarget();  // stop()
  GnmiTarget(const GnmiTarget&) = delete;
  GnmiTarget& operator=(const GnmiTarget&) = delete;

  // Binds 127.0.0.1 (a free port the first time, the same port after a
  // stop()) and serves. TLS material is generated on the first TLS start.
  Status start();
  // Finishes open streams with UNAVAILABLE, shuts the server down within
  // shutdown_grace and returns; new connections are refused until start().
  // Idempotent.
  void stop();
  bool running() const;
  int port() const;  // 0 before the first start()
  std::string address() const;  // "127.0.0.1:<port>"
  const std::string& switchName() const;
  const GnmiTlsFiles& tlsFiles() const;  // empty paths when tls == kNone

  // The runner calls this once per tick with the leaf's counters.
  void publish(const Switch& sw, TimestampNs ts);
  uint64_t publishedVersion() const;  // 0 before the first publish

  // --- runtime knobs (apply to streams subscribed from now on, except
  // stall/reset/unimplemented/credentials, which apply at once) ---
  void setQuirks(const GnmiQuirks& quirks);
  void setMinSampleInterval(std::chrono::milliseconds min);
  void setCredentials(std::string username, std::string password);  // empty: none required

  // --- fault injection ---
  void setStall(bool stall);  // streams stay open and send nothing (not even keepalives)
  // Each stream is finished with UNAVAILABLE after it has queued n update
  // responses (0 = never).
  void setResetAfterUpdates(uint64_t n);
  void setSubscribeUnimplemented(bool on);     // Subscribe -> UNIMPLEMENTED
  void setCapabilitiesUnimplemented(bool on);  // Capabilities -> UNIMPLEMENTED
  // Finishes every open stream now with `code` (a grpc::StatusCode value,
  // default UNAVAILABLE = 14); the server keeps accepting new ones.
  void resetStreams(int grpc_code = 14);
  // For `d` from now every RPC is answered UNAVAILABLE: a rebooted device
  // back on the network whose gNMI agent is not serving yet. Each such
  // attempt is counted (connectionCounts().refused_starting). The first RPC
  // after this call is refused even when it comes later than `d`: a client
  // on a loaded machine may retry only after the window, and a test of its
  // backoff must still see the device refuse it.
  void setStartingFor(std::chrono::milliseconds d);

  // --- observations for tests ---
  int openStreams() const;
  uint64_t subscribeCalls() const;     // Subscribe RPCs accepted past auth/faults
  uint64_t coalescedSamples() const;   // samples skipped because a stream's queue was full
  // Notifications with data, and the gNMI updates in them, that gRPC finished
  // writing (a native JSON blob is one update).
  uint64_t notificationsSent() const;
  uint64_t updatesSent() const;
  // Every connection and RPC the target saw, across restarts.
  ConnectionCounts connectionCounts() const;

  class Impl;  // sim/gnmi/gnmi_target_impl.h

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmagw::sim
