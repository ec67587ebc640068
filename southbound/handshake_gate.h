#pragma once
// A first-come-first-served cap on connection handshakes in flight, shared
// by every target of a kind (all gNMI switches of the process): when a whole
// fabric restarts at once, the gateway brings its targets back a few at a
// time instead of opening hundreds of TLS handshakes and authentications at
// once (the switches, and the AAA server behind them, would see a storm).
//
// Unlike a blocking semaphore, a target joins the line with a Ticket and
// keeps doing its other work (polling its SSH fallback, publishing health)
// until its turn comes; `on_grant` tells it. Turns are given in the order
// tickets were requested, so the wait of the last of N targets is about
// N / limit handshakes, whatever the timing.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace rdmagw::southbound {

class HandshakeGate {
 public:
  class Ticket {
   public:
    ~Ticket();  // leaves the line, or frees the slot
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    bool granted() const;

   private:
    friend class HandshakeGate;
    enum class State { kWaiting, kGranted, kReleased };
    Ticket(HandshakeGate& gate, std::function<void()> on_grant) : gate_(gate), on_grant_(std::move(on_grant)) {}
    HandshakeGate& gate_;
    std::function<void()> on_grant_;
    State state_ = State::kWaiting;  // guarded by gate_.mu_
  };
  using TicketPtr = std::unique_ptr<Ticket>;

  explicit HandshakeGate(size_t limit) : limit_(limit == 0 ? 1 : limit) {}
  ~HandshakeGate() = default;
  HandshakeGate(const HandshakeGate&) = delete;
  HandshakeGate& operator=(const HandshakeGate&) = delete;

  // The gate every gNMI target uses unless given another.
  static HandshakeGate& gnmi();
  static constexpr size_t kDefaultGnmiLimit = 16;

  // Joins the line. `on_grant` runs once the slot is granted: before
  // request() returns when a slot is free, else on the thread that frees
  // one, under the gate's lock: it must only flag and notify.
  TicketPtr request(std::function<void()> on_grant = nullptr);
  // Blocks until granted or `deadline` (then returns null).
  TicketPtr acquire(std::chrono::steady_clock::time_point deadline);

  void setLimit(size_t limit);
  size_t limit() const;
  size_t inFlight() const;
  size_t waiting() const;
  size_t peak() const;        // highest inFlight() seen: tests check the cap held
  uint64_t grants() const;    // handshakes started through the gate, ever

 private:
  void leave(Ticket* t);
  void grantLocked();  // mu_ held

  mutable std::mutex mu_;
  std::condition_variable cv_;  // acquire()'s waiters
  size_t limit_;                // guarded by mu_
  size_t in_flight_ = 0;        // guarded by mu_
  size_t peak_ = 0;             // guarded by mu_
  uint64_t grants_ = 0;         // guarded by mu_
  std::deque<Ticket*> line_;    // guarded by mu_
};

// Caps concurrent gNMI handshakes (connect + TLS + Capabilities + the first
// Subscribe response) across all gNMI targets of the process.
void setMaxConcurrentGnmiHandshakes(size_t limit);

}  // namespace rdmagw::southbound
