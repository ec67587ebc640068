#pragma once
// A simulated Linux RDMA host behind sshd, for the gateway's remote dump
// (southbound/rdma/remote_dump.h): rdmagw-sim-shell runs the dump's script
// with /bin/sh, D/NAME/bin first on PATH, where ethtool, dcb and mlnx_qos
// are symlinks back to the shell. They answer from the files the simulator
// renders for the local collector's text mode (D/NAME/ethtool/<netdev>.txt,
// .dcb-<object>.json, .mlnx_qos.txt), so a host read over SSH and one read
// locally see the same fabric. The script reads sysfs itself, under the
// root the target's `rdma.sysfs_root` names (D/NAME/sys).

#include <string>
#include <vector>

#include "models/status.h"
#include "sim/device_shell.h"

namespace rdmagw::sim {

// A host directory as the simulator writes it: sys/ and ethtool/, no os file.
bool isLinuxHostDir(const std::string& device_dir);

// The tools, args without argv[0]. What a host lacks (no file for that
// netdev) fails as the tool does there: dcb on a netdev without DCB, so the
// dump falls back on mlnx_qos; mlnx_qos where only dcb is rendered.
ShellResult runEthtool(const std::string& device_dir, const std::vector<std::string>& args);
ShellResult runDcb(const std::string& device_dir, const std::vector<std::string>& args);
ShellResult runMlnxQos(const std::string& device_dir, const std::vector<std::string>& args);

// Makes <device_dir>/bin/{ethtool,dcb,mlnx_qos} symlinks to the shell binary.
Status installLinuxHostShims(const std::string& device_dir, const std::string& shell_binary);

}  // namespace rdmagw::sim
