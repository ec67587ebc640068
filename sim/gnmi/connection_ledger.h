#pragma once
// What a simulated gNMI device saw of its clients: connections, RPCs, and
// handshakes in progress, so tests and benchmarks can check how hard a
// gateway hits a fabric that restarts (sim side only: the gateway knows
// nothing of it).
//
// A "connection" is a client address:port that made an RPC; its handshake
// runs from its first RPC (the TCP connect and TLS are done by then, which
// the gRPC server does not show) until the first response of a Subscribe on
// it, or until an RPC of it fails or its stream ends. HandshakeMeter counts
// those in progress across every target sharing it (a fleet), with the peak.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace rdmagw::sim {

class HandshakeMeter {
 public:
  void begin();
  void end();
  size_t inFlight() const;
  size_t peak() const;
  void resetPeak();  // the peak restarts from what is in flight now

 private:
  mutable std::mutex mu_;
  size_t in_flight_ = 0;  // guarded by mu_
  size_t peak_ = 0;       // guarded by mu_
};

struct ConnectionCounts {
  uint64_t connections = 0;   // distinct client connections that made an RPC
  uint64_t capabilities = 0;  // Capabilities RPCs, answered or refused
  uint64_t subscribes = 0;    // Subscribe RPCs, answered or refused
  uint64_t refused_starting = 0;  // RPCs refused because the device was still starting
  uint64_t handshakes = 0;    // connections that got a first Subscribe response
};

class ConnectionLedger {
 public:
  // `meter` may be shared by many ledgers; null: a private one.
  explicit ConnectionLedger(std::shared_ptr<HandshakeMeter> meter);
  ~ConnectionLedger();

  enum class Rpc { kCapabilities, kSubscribe, kOther };
  void rpcStarted(const std::string& peer, Rpc rpc);
  void firstResponse(const std::string& peer);
  // Before the status goes out (so before the client can dial again): a
  // refused RPC or an ended stream ends the connection's handshake.
  void statusSending(const std::string& peer, Rpc rpc, bool ok);
  // The call is gone (finished or cancelled).
  void rpcFinished(const std::string& peer, Rpc rpc, bool ok);
  void countRefusedStarting();

  ConnectionCounts counts() const;
  HandshakeMeter& meter() { return *meter_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Conn {
    Clock::time_point last;
    bool handshaking = true;
    int live_rpcs = 0;
  };
  void endHandshake(Conn& c);  // mu_ held
  void sweep(Clock::time_point now);  // mu_ held

  std::shared_ptr<HandshakeMeter> meter_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Conn> conns_;  // guarded by mu_
  ConnectionCounts counts_;                      // guarded by mu_
};

}  // namespace rdmagw::sim
