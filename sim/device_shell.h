#pragma once
// The logic behind rdmagw-sim-shell, the forced command sshd runs for every
// simulated leaf and ESXi host (sim/shell_main.cc is only argv plumbing).
// Everything here is a pure function of the rendered files under
// <dir>/<device>/cli/, so tests call it without a process or an sshd.

#include <initializer_list>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::sim {

struct ShellResult {
  std::string out;
  std::string err;
  int exit_code = 0;
};

// An NX-OS command line resolved to one of nxosCommands(): spaces trimmed
// and collapsed, keywords matched case-insensitively by unique prefix of at
// least two letters ("sh int | json"), "queueing" accepted for "queuing".
struct NxosMatch {
  enum class Kind { kOk, kInvalid, kIncomplete } kind = Kind::kInvalid;
  std::string command;  // canonical, when kOk
  size_t marker = 0;    // column of the '^' in the line as typed, otherwise
};
NxosMatch matchNxos(const std::string& line);

// A leaf: prints the rendered output, or the caret line and
// "% Invalid command at '^' marker." (exit 1) as NX-OS does.
ShellResult runNxos(const std::string& device_dir, const std::string& line);
// `esxcli <args>` and `vsish <args>` on an ESXi host (args without argv[0]).
ShellResult runEsxcli(const std::string& device_dir, const std::vector<std::string>& args);
ShellResult runVsish(const std::string& device_dir, const std::vector<std::string>& args);

// Makes <device_dir>/bin/{esxcli,vsish} symlinks to the shell binary, so a
// /bin/sh started with that bin first on PATH runs compound commands
// (pipes, loops, $(...)) exactly as an ESXi busybox shell would.
Status installEsxiShims(const std::string& device_dir, const std::string& shell_binary);
// The same for any tool names (sim/linux_host_shell.h has a host's).
Status installShims(const std::string& device_dir, const std::string& shell_binary,
                    std::initializer_list<const char*> names);

// A rendered file whole; false when it cannot be opened.
bool readWholeFile(const std::string& path, std::string* out);

// Where rdmagw-sim-shell is: $RDMAGW_SIM_SHELL, else next to the running
// executable, else the path CMake built it at. Empty when none exists.
std::string defaultShellPath();

// The environment variable through which the shell tells its esxcli/vsish
// children which device directory they serve.
inline constexpr const char* kDeviceDirEnv = "RDMAGW_SIM_DEVICE_DIR";

}  // namespace rdmagw::sim
