#pragma once
// The simulated Nexus fabric of bench/nexus_transport_bench.cc, run in a
// forked child so that getrusage(RUSAGE_SELF) in the parent counts the
// gateway side only: the fabric (SimRunner), one NX-API server and one gNMI
// target per leaf, and sshd with the sim shell behind one key per leaf.
// The child must be forked before the parent starts any thread.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::bench {

struct NexusLeafEndpoints {
  std::string name;  // leaf01
  int nxapi_port = 0;
  std::string gnmi_address;  // 127.0.0.1:port
  std::string ssh_key_file;  // empty without sshd
};

struct NexusDeviceEndpoints {
  std::string nxapi_ca, gnmi_ca;
  int ssh_port = 0;
  std::string known_hosts;
  std::string ssh_skip;  // why SSH cannot run ("" when it can)
  std::vector<NexusLeafEndpoints> leaves;
};

// Totals over every simulated gNMI target, as the targets counted them.
struct GnmiSent {
  uint64_t notifications = 0;
  uint64_t updates = 0;
};

class NexusDeviceProcess {
 public:
  NexusDeviceProcess() = default;
  ~NexusDeviceProcess();  // stop()
  NexusDeviceProcess(const NexusDeviceProcess&) = delete;
  NexusDeviceProcess& operator=(const NexusDeviceProcess&) = delete;

  // Forks the device process and waits until every device answers.
  // The NX-API and gNMI password is `password`, user "admin".
  Status start(int switches, std::chrono::milliseconds tick, const std::string& password);
  void stop();  // asks the child to quit and reaps it; idempotent
  const NexusDeviceEndpoints& endpoints() const { return endpoints_; }
  Result<GnmiSent> gnmiSent();

 private:
  pid_t pid_ = -1;
  FILE* to_child_ = nullptr;
  FILE* from_child_ = nullptr;
  NexusDeviceEndpoints endpoints_;
};

}  // namespace rdmagw::bench
