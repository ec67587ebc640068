// rdmagw-sim-shell: the forced command sshd runs for a simulated device.
//
//   rdmagw-sim-shell --dir D --device NAME     (command in $SSH_ORIGINAL_COMMAND)
//
// A leaf ("nxos" in D/NAME/os) answers the command from D/NAME/cli/. An ESXi
// host ("esxi") runs /bin/sh -c "$SSH_ORIGINAL_COMMAND" with D/NAME/bin
// first on PATH; the esxcli and vsish there are symlinks back to this
// binary, which then dispatches on argv[0]. A Linux RDMA host (sys/ and
// ethtool/, no os file) runs its command the same way, with ethtool, dcb
// and mlnx_qos as the shims (sim/linux_host_shell.h).

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "sim/device_shell.h"
#include "sim/linux_host_shell.h"

namespace {

using rdmagw::sim::ShellResult;

int emit(const ShellResult& r) {
  std::fwrite(r.out.data(), 1, r.out.size(), stdout);
  std::fwrite(r.err.data(), 1, r.err.size(), stderr);
  std::fflush(stdout);
  return r.exit_code;
}

std::string baseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The device directory an esxcli/vsish child serves: from the environment
// the shell set, else from a full argv[0] (<dir>/<esx>/bin/esxcli).
std::string childDeviceDir(const std::string& argv0) {
  if (const char* d = std::getenv(rdmagw::sim::kDeviceDirEnv); d != nullptr && *d != '\0') {
    return d;
  }
  const size_t bin = argv0.rfind("/bin/");
  return bin == std::string::npos ? "" : argv0.substr(0, bin);
}

int usage() {
  std::fprintf(stderr, "usage: rdmagw-sim-shell --dir DIR --device NAME"
                       "  (command in $SSH_ORIGINAL_COMMAND)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string self = argv[0];
  const std::string name = baseName(self);
  using Tool = ShellResult (*)(const std::string&, const std::vector<std::string>&);
  const Tool tool = name == "esxcli"     ? &rdmagw::sim::runEsxcli
                    : name == "vsish"    ? &rdmagw::sim::runVsish
                    : name == "ethtool"  ? &rdmagw::sim::runEthtool
                    : name == "dcb"      ? &rdmagw::sim::runDcb
                    : name == "mlnx_qos" ? &rdmagw::sim::runMlnxQos
                                         : nullptr;
  if (tool != nullptr) {
    const std::string dir = childDeviceDir(self);
    if (dir.empty()) {
      std::fprintf(stderr, "%s: not started by rdmagw-sim-shell (%s unset)\n", name.c_str(),
                   rdmagw::sim::kDeviceDirEnv);
      return 1;
    }
    return emit(tool(dir, std::vector<std::string>(argv + 1, argv + argc)));
  }

  std::string dir, device;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--device" && i + 1 < argc) {
      device = argv[++i];
    } else {
      return usage();
    }
  }
  if (dir.empty() || device.empty()) return usage();
  const std::string device_dir = dir + "/" + device;
  std::string os;
  std::ifstream(device_dir + "/os") >> os;
  const char* cmd = std::getenv("SSH_ORIGINAL_COMMAND");
  if (cmd == nullptr || *cmd == '\0') {
    std::fprintf(stderr, "rdmagw-sim-shell: %s: interactive sessions are not simulated;"
                         " give a command\n", device.c_str());
    return 1;
  }
  if (os == "nxos") return emit(rdmagw::sim::runNxos(device_dir, cmd));
  if (os == "esxi" || rdmagw::sim::isLinuxHostDir(device_dir)) {
    const std::string path = device_dir + "/bin:/usr/bin:/bin";
    ::setenv("PATH", path.c_str(), 1);
    ::setenv(rdmagw::sim::kDeviceDirEnv, device_dir.c_str(), 1);
    ::execl("/bin/sh", "sh", "-c", cmd, static_cast<char*>(nullptr));
    std::perror("rdmagw-sim-shell: /bin/sh");
    return 127;
  }
  std::fprintf(stderr, "rdmagw-sim-shell: %s is not a simulated switch, ESXi or Linux host\n",
               device_dir.c_str());
  return 1;
}
