#include "southbound/handshake_gate.h"

#include <algorithm>

namespace rdmagw::southbound {

HandshakeGate::Ticket::~Ticket() { gate_.leave(this); }

bool HandshakeGate::Ticket::granted() const {
  std::lock_guard lock(gate_.mu_);
  return state_ == State::kGranted;
}

HandshakeGate& HandshakeGate::gnmi() {
  static HandshakeGate gate(kDefaultGnmiLimit);
  return gate;
}

void setMaxConcurrentGnmiHandshakes(size_t limit) { HandshakeGate::gnmi().setLimit(limit); }

HandshakeGate::TicketPtr HandshakeGate::request(std::function<void()> on_grant) {
  TicketPtr t(new Ticket(*this, std::move(on_grant)));
  std::lock_guard lock(mu_);
  line_.push_back(t.get());
  grantLocked();
  return t;
}

HandshakeGate::TicketPtr HandshakeGate::acquire(std::chrono::steady_clock::time_point deadline) {
  TicketPtr t = request([this] { cv_.notify_all(); });
  std::unique_lock lock(mu_);
  if (!cv_.wait_until(lock, deadline, [&] { return t->state_ == Ticket::State::kGranted; })) {
    lock.unlock();
    return nullptr;  // the ticket's destructor leaves the line
  }
  return t;
}

// Callbacks run under mu_: a ticket's destructor takes mu_ too, so once it
// returns its owner can be gone without a callback still running for it.
void HandshakeGate::grantLocked() {
  while (in_flight_ < limit_ && !line_.empty()) {
    Ticket* t = line_.front();
    line_.pop_front();
    t->state_ = Ticket::State::kGranted;
    ++in_flight_;
    ++grants_;
    peak_ = std::max(peak_, in_flight_);
    if (t->on_grant_) t->on_grant_();
  }
}

void HandshakeGate::leave(Ticket* t) {
  std::lock_guard lock(mu_);
  if (t->state_ == Ticket::State::kWaiting) {
    line_.erase(std::remove(line_.begin(), line_.end(), t), line_.end());
  } else if (t->state_ == Ticket::State::kGranted) {
    --in_flight_;
    grantLocked();
  }
  t->state_ = Ticket::State::kReleased;
}

void HandshakeGate::setLimit(size_t limit) {
  std::lock_guard lock(mu_);
  limit_ = std::max<size_t>(1, limit);
  grantLocked();
}

size_t HandshakeGate::limit() const {
  std::lock_guard lock(mu_);
  return limit_;
}

size_t HandshakeGate::inFlight() const {
  std::lock_guard lock(mu_);
  return in_flight_;
}

size_t HandshakeGate::waiting() const {
  std::lock_guard lock(mu_);
  return line_.size();
}

size_t HandshakeGate::peak() const {
  std::lock_guard lock(mu_);
  return peak_;
}

uint64_t HandshakeGate::grants() const {
  std::lock_guard lock(mu_);
  return grants_;
}

}  // namespace rdmagw::southbound
