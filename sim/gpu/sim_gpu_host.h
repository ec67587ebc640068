#pragma once
// The GPUs of a simulated RDMA host, for the demo: a PCI tree beside the
// host's own tree (<host_dir>/gpu/sys, /proc) with one GPU per RDMA device
// of the host under the same PCIe switch as that device's NIC (PIX, as on
// an 8-GPU/8-NIC training node), and an `nvidia-smi` stand-in
// (<host_dir>/gpu/nvidia-smi): a POSIX sh script that answers any
// `--query-gpu=<fields> --format=csv,noheader,nounits` from one key=value
// file per GPU (<host_dir>/gpu/smi/gpu<N>), fields it does not have as
// [N/A], as nvidia-smi does for a field a GPU lacks.

#include <string>

#include "models/status.h"
#include "sim/device.h"

namespace rdmagw::sim {

struct SimGpuHostOptions {
  // ACS P2P redirect on the switch port above this device's NIC (-1: none).
  int acs_redirect_device = -1;
};

class SimGpuHost {
 public:
  SimGpuHost(std::string host_dir, const Host& host, SimGpuHostOptions options = {});

  Status write() const;

  std::string sysRoot() const { return dir_ + "/sys"; }
  std::string procRoot() const { return dir_ + "/proc"; }
  std::string nvidiaSmi() const { return dir_ + "/nvidia-smi"; }
  // The UUID the stand-in gives GPU i of this host.
  std::string uuid(size_t i) const;

 private:
  std::string dir_;
  Host host_;
  SimGpuHostOptions options_;
};

}  // namespace rdmagw::sim
