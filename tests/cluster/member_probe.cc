// One fleet member in a process of its own, so a test can freeze it
// (SIGSTOP: its keep-alives stop, as on a hung host) or kill -9 it, which a
// member inside the test process cannot show.
//   rdmagw-cluster-probe <etcd endpoint> <cluster> <member> <ttl seconds>
// Prints "members a,b,c" for each set delivered, "lease_lost" when the
// lease was lost; SIGTERM or SIGINT stops it cleanly (the lease revoked).

#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cluster/membership.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <etcd endpoint> <cluster> <member> <ttl seconds>\n", argv[0]);
    return 2;
  }
  // Blocked before any thread starts, so sigwait below gets them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  rdmagw::cluster::MembershipConfig config;
  config.endpoints = {argv[1]};
  config.cluster = argv[2];
  config.member = argv[3];
  config.lease_ttl = std::chrono::seconds(std::atoi(argv[4]));
  config.call_timeout = std::chrono::milliseconds(1000);
  rdmagw::cluster::MembershipCallbacks cb;
  cb.on_members = [](const std::vector<rdmagw::cluster::MemberInfo>& set) {
    std::string names;
    for (const auto& m : set) names += (names.empty() ? "" : ",") + m.name;
    std::printf("members %s\n", names.c_str());
    std::fflush(stdout);
  };
  cb.on_lease_lost = [] {
    std::printf("lease_lost\n");
    std::fflush(stdout);
  };
  auto membership = rdmagw::cluster::Membership::create(config, cb);
  if (!membership.isOk()) {
    std::fprintf(stderr, "%s\n", membership.status().message().c_str());
    return 1;
  }
  (*membership)->start();
  int sig = 0;
  sigwait(&stop_signals, &sig);
  (*membership)->stop();
  return 0;
}
