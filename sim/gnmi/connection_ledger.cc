#include "sim/gnmi/connection_ledger.h"

#include <algorithm>

namespace rdmagw::sim {

// A connection whose Capabilities succeeded but that never subscribed (a
// `gnmic capabilities`) is forgotten after this long without an RPC.
constexpr auto kIdleConnectionExpiry = std::chrono::seconds(30);

void HandshakeMeter::begin() {
  std::lock_guard lock(mu_);
  ++in_flight_;
  peak_ = std::max(peak_, in_flight_);
}

void HandshakeMeter::end() {
  std::lock_guard lock(mu_);
  if (in_flight_ > 0) --in_flight_;
}

size_t HandshakeMeter::inFlight() const {
  std::lock_guard lock(mu_);
  return in_flight_;
}

size_t HandshakeMeter::peak() const {
  std::lock_guard lock(mu_);
  return peak_;
}

void HandshakeMeter::resetPeak() {
  std::lock_guard lock(mu_);
  peak_ = in_flight_;
}

ConnectionLedger::ConnectionLedger(std::shared_ptr<HandshakeMeter> meter)
    : meter_(meter ? std::move(meter) : std::make_shared<HandshakeMeter>()) {}

ConnectionLedger::~ConnectionLedger() {
  std::lock_guard lock(mu_);
  for (auto& entry : conns_) endHandshake(entry.second);
}

void ConnectionLedger::endHandshake(Conn& c) {
  if (!c.handshaking) return;
  c.handshaking = false;
  meter_->end();
}

void ConnectionLedger::sweep(Clock::time_point now) {
  for (auto it = conns_.begin(); it != conns_.end();) {
    if (it->second.live_rpcs == 0 && now - it->second.last > kIdleConnectionExpiry) {
      endHandshake(it->second);
      it = conns_.erase(it);
    } else {
      ++it;
    }
  }
}

void ConnectionLedger::rpcStarted(const std::string& peer, Rpc rpc) {
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(mu_);
  if (rpc == Rpc::kCapabilities) ++counts_.capabilities;
  if (rpc == Rpc::kSubscribe) ++counts_.subscribes;
  if (conns_.count(peer) == 0) sweep(now);
  auto [it, is_new] = conns_.try_emplace(peer);
  if (is_new) {
    ++counts_.connections;
    meter_->begin();
  }
  it->second.last = now;
  ++it->second.live_rpcs;
}

void ConnectionLedger::firstResponse(const std::string& peer) {
  std::lock_guard lock(mu_);
  auto it = conns_.find(peer);
  if (it == conns_.end() || !it->second.handshaking) return;
  endHandshake(it->second);
  ++counts_.handshakes;
}

void ConnectionLedger::statusSending(const std::string& peer, Rpc rpc, bool ok) {
  if (ok && rpc != Rpc::kSubscribe) return;
  std::lock_guard lock(mu_);
  auto it = conns_.find(peer);
  if (it != conns_.end()) endHandshake(it->second);
}

void ConnectionLedger::rpcFinished(const std::string& peer, Rpc rpc, bool ok) {
  std::lock_guard lock(mu_);
  auto it = conns_.find(peer);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  c.last = Clock::now();
  if (c.live_rpcs > 0) --c.live_rpcs;
  // A refused RPC or an ended stream: the client drops this connection
  // (a gateway dials afresh). A good Capabilities keeps it for the Subscribe.
  if (!ok || rpc == Rpc::kSubscribe) {
    endHandshake(c);
    if (c.live_rpcs == 0) conns_.erase(it);
  }
}

void ConnectionLedger::countRefusedStarting() {
  std::lock_guard lock(mu_);
  ++counts_.refused_starting;
}

ConnectionCounts ConnectionLedger::counts() const {
  std::lock_guard lock(mu_);
  return counts_;
}

}  // namespace rdmagw::sim
