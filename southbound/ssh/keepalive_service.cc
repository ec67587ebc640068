#include "southbound/ssh/keepalive_service.h"
#include "models/thread_role.h"

#include <algorithm>

namespace rdmagw::southbound::ssh {

KeepaliveService::KeepaliveService(std::chrono::milliseconds tick) : tick_(tick) {}

KeepaliveService::~KeepaliveService() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

KeepaliveService& KeepaliveService::process() {
  static KeepaliveService service;
  return service;
}

void KeepaliveService::add(std::weak_ptr<SshConnection> connection) {
  std::lock_guard lock(mu_);
  connections_.push_back(std::move(connection));
  if (!thread_.joinable()) thread_ = std::thread([this] {
    enterThreadRole("ssh-keepalive", ThreadRole::kIngest);
    loop();
  });
}

size_t KeepaliveService::size() const {
  std::lock_guard lock(mu_);
  return connections_.size();
}

void KeepaliveService::loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, tick_, [this] { return stopping_; });
    if (stopping_) break;
    // Probe outside the lock: a keepalive to a dead peer may take seconds
    // and must not hold up add() (target creation).
    std::erase_if(connections_, [](const auto& w) { return w.expired(); });
    std::vector<std::weak_ptr<SshConnection>> work = connections_;
    lock.unlock();
    for (const auto& w : work) {
      if (auto c = w.lock()) c->keepaliveIfIdle();
    }
    lock.lock();
  }
}

}  // namespace rdmagw::southbound::ssh
