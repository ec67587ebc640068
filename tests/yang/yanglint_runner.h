#pragma once
// Runs yanglint (libyang2-tools) for the YANG tests and captures what it says.

#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <string>

namespace rdmagw::yangtest {

inline const std::string kYangDir = std::string(RDMAGW_SOURCE_DIR) + "/yang";

// The modules, in the order tests load them.
inline const char* const kModules[] = {"rdmagw-interfaces.yang", "rdmagw-rdma.yang",
                                       "rdmagw-hypervisor-nic.yang", "rdmagw-qos.yang"};

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together: yanglint reports errors on stderr
};

inline CommandResult runCommand(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// yanglint with only our directory on the search path (-D: not the cwd), so
// a stray module elsewhere cannot satisfy an import.
inline std::string yanglint(const std::string& args) {
  return "yanglint -D -p '" + kYangDir + "' " + args;
}

inline std::string allModules() {
  std::string out;
  for (const char* m : kModules) out += "'" + kYangDir + "/" + m + "' ";
  return out;
}

}  // namespace rdmagw::yangtest
