#pragma once
// Runs yanglint (libyang2-tools) for the YANG tests and captures what it says.

#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::yangtest {

inline const std::string kYangDir = std::string(RDMAGW_SOURCE_DIR) + "/yang";

// The modules, in the order tests load them.
inline const char* const kModules[] = {"rdmagw-interfaces.yang", "rdmagw-rdma.yang",
                                       "rdmagw-hypervisor-nic.yang", "rdmagw-qos.yang",
                                       "rdmagw-fabric.yang", "rdmagw-lldp.yang"};

// yanglint reports errors on stderr: runCommand captures both streams.
using testsupport::CommandResult;
using testsupport::runCommand;

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
