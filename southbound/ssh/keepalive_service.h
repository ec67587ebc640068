#pragma once
// One process-wide thread that probes idle SSH sessions, instead of a thread
// per target (a fleet has thousands). Connections register a weak_ptr, so a
// target being deleted never waits for, nor dangles under, this thread.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "southbound/ssh/ssh_connection.h"

namespace rdmagw::southbound::ssh {

class KeepaliveService {
 public:
  explicit KeepaliveService(std::chrono::milliseconds tick = std::chrono::seconds(1));
  ~KeepaliveService();
  KeepaliveService(const KeepaliveService&) = delete;
  KeepaliveService& operator=(const KeepaliveService&) = delete;

  static KeepaliveService& process();

  // Starts the thread on first use.
  void add(std::weak_ptr<SshConnection> connection);
  size_t size() const;

 private:
  void loop();

  const std::chrono::milliseconds tick_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::weak_ptr<SshConnection>> connections_;  // guarded by mu_
  bool stopping_ = false;                                   // guarded by mu_
  std::thread thread_;                                      // started under mu_
};

}  // namespace rdmagw::southbound::ssh
