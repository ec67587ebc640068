#pragma once
// A TCP relay on loopback that a test can cut, like a network cable: a
// client talks to the relay's port and the relay forwards to the real
// server. block() stops moving bytes both ways but keeps every connection
// open, so both ends see silence, not a reset: a partition, which a stopped
// server (connection refused) or a frozen one (the same for every client)
// cannot show. One thread; for tests and demos, not for load.

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "models/status.h"

namespace rdmagw::sim {

class TcpRelay {
 public:
  explicit TcpRelay(int upstream_port);  // 127.0.0.1:upstream_port
  ~TcpRelay();                           // stop()
  TcpRelay(const TcpRelay&) = delete;
  TcpRelay& operator=(const TcpRelay&) = delete;

  Status start();  // listens on 127.0.0.1, a free port
  void stop();     // closes every connection
  void block();    // the partition begins
  void unblock();  // and heals; bytes held meanwhile flow on

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  void run();
  void wake();

  int upstream_port_;
  int port_ = 0;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  std::atomic<bool> blocked_{false};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace rdmagw::sim
