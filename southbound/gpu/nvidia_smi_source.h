#pragma once
// GPU samples from nvidia-smi's CSV query, for hosts where the gateway
// cannot load NVML itself: a remote host reached over SSH, or a container
// that has the tool but not the library. How the command runs is injected,
// so the same source works through a local runner or an SSH session.

#include <functional>
#include <string>
#include <vector>

#include "models/status.h"
#include "southbound/gpu/gpu_sample.h"

namespace rdmagw::southbound::gpu {

// Runs a shell command line and returns its standard output, or why it
// could not (not found, non-zero exit, timeout).
using CommandRunner = std::function<Result<std::string>(const std::string& command)>;

class NvidiaSmiSource {
 public:
  // `program`: "nvidia-smi", or a path when it is not on the PATH.
  explicit NvidiaSmiSource(CommandRunner runner, std::string program = "nvidia-smi");

  // The GPUs nvidia-smi printed. Fails with the runner's status (nvidia-smi
  // exits non-zero when it cannot reach the driver), or Corrupt when it
  // printed lines of which none could be read. Lines that could not be
  // read while others were are in lineErrors().
  Result<std::vector<GpuSample>> poll();

  // The exact command line poll() runs.
  const std::string& command() const { return command_; }
  // The unreadable lines of the last poll, "line <n>: <why>".
  const std::vector<std::string>& lineErrors() const { return line_errors_; }

 private:
  CommandRunner runner_;
  std::string command_;
  std::vector<std::string> line_errors_;
};

}  // namespace rdmagw::southbound::gpu
