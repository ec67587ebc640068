#pragma once
// A real etcd (Debian's etcd-server) on loopback in a temp dir, for the
// fleet's tests, demo and benchmarks: one member, free client and peer
// ports, its log in the dir. Besides start and stop it can freeze etcd
// (SIGSTOP/SIGCONT: a server that accepts connections and never answers,
// the "etcd unreachable" case) and kill it (SIGKILL). Data and ports are
// kept across stop/kill and start, so a restarted etcd has its keys and
// leases again, as an operator's restarted etcd would. etcd is killed when
// the thread that started it exits (PR_SET_PDEATHSIG), so a crashed test
// leaves none behind: start it from a thread that outlives its use.

#include <sys/types.h>

#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::sim {

struct EtcdOptions {
  std::string etcd_path = "/usr/bin/etcd";
  // TLS on the client port (all three, PEM files): etcd then asks clients
  // for a certificate signed by trusted_ca_file.
  std::string server_cert_file;
  std::string server_key_file;
  std::string trusted_ca_file;
  std::vector<std::string> extra_args;
};

class EtcdLauncher {
 public:
  explicit EtcdLauncher(EtcdOptions options = {});
  ~EtcdLauncher();  // kills etcd (even a paused one) and removes the dir
  EtcdLauncher(const EtcdLauncher&) = delete;
  EtcdLauncher& operator=(const EtcdLauncher&) = delete;

  // First call: temp dir and free ports. Returns once etcd serves clients.
  Status start();
  void stop();    // SIGTERM (SIGKILL if it hangs) and reap; keeps the dir
  void kill();    // SIGKILL and reap; keeps the dir
  void pause();   // SIGSTOP
  void resume();  // SIGCONT

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  int clientPort() const { return client_port_; }
  // "http://127.0.0.1:P" (https with TLS): what a client's endpoints list.
  std::string endpoint() const;
  const std::string& dir() const { return dir_; }
  std::string logText() const;

 private:
  Status spawn();
  void reap(int signal);

  EtcdOptions options_;
  std::string dir_;
  int client_port_ = 0;
  int peer_port_ = 0;
  pid_t pid_ = -1;
  bool paused_ = false;
};

}  // namespace rdmagw::sim
