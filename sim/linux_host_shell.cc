#include "sim/linux_host_shell.h"

#include <filesystem>

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

// A netdev name as the kernel allows it, so that no argument walks out of
// the ethtool directory.
bool netdevName(const std::string& n) {
  if (n.empty() || n.size() > 15 || n == "." || n == "..") return false;
  for (char c : n) {
    if (c == '/' || c == ' ' || c == '\0') return false;
  }
  return true;
}

ShellResult failure(std::string err, int code) {
  ShellResult r;
  r.err = std::move(err);
  r.exit_code = code;
  return r;
}

// The rendered file of `netdev`, or the tool's failure.
ShellResult netdevFile(const std::string& device_dir, const std::string& netdev, const std::string& suffix,
                       const std::string& missing, int code) {
  ShellResult r;
  if (!netdevName(netdev) || !readWholeFile((fs::path(device_dir) / "ethtool" / (netdev + suffix)).string(), &r.out)) {
    return failure(missing, code);
  }
  return r;
}

}  // namespace

bool isLinuxHostDir(const std::string& device_dir) {
  std::error_code ec;
  return fs::is_directory(fs::path(device_dir) / "sys", ec) && fs::is_directory(fs::path(device_dir) / "ethtool", ec) &&
         !fs::exists(fs::path(device_dir) / "os", ec);
}

ShellResult runEthtool(const std::string& device_dir, const std::vector<std::string>& args) {
  if (args.size() != 2 || args[0] != "-S") return failure("ethtool: only 'ethtool -S <netdev>' is simulated\n", 1);
  // ethtool's words and status for a netdev it cannot find.
  return netdevFile(device_dir, args[1], ".txt", "netlink error: no device matches name (offset 24)\n"
                    "netlink error: No such device\n", 1);
}

ShellResult runDcb(const std::string& device_dir, const std::vector<std::string>& args) {
  // dcb -j <pfc|app|ets|buffer> show dev <netdev>
  if (args.size() != 5 || args[0] != "-j" || args[2] != "show" || args[3] != "dev") {
    return failure("dcb: only 'dcb -j <object> show dev <netdev>' is simulated\n", 1);
  }
  const std::string& object = args[1];
  if (object != "pfc" && object != "app" && object != "ets" && object != "buffer") {
    return failure("Object \"" + object + "\" is unknown, try \"dcb help\".\n", 1);
  }
  // A netdev whose driver has no DCB netlink ops (or whose DCB only
  // mlnx_qos shows): dcb's error for an attribute it cannot get.
  return netdevFile(device_dir, args[4], ".dcb-" + object + ".json", "Attribute read: Operation not supported\n", 1);
}

ShellResult runMlnxQos(const std::string& device_dir, const std::vector<std::string>& args) {
  if (args.size() != 2 || args[0] != "-i") return failure("mlnx_qos: only 'mlnx_qos -i <netdev>' is simulated\n", 1);
  return netdevFile(device_dir, args[1], ".mlnx_qos.txt", "Interface " + args[1] + " is not supported\n", 1);
}

Status installLinuxHostShims(const std::string& device_dir, const std::string& shell_binary) {
  return installShims(device_dir, shell_binary, {"ethtool", "dcb", "mlnx_qos"});
}

}  // namespace rdmagw::sim
