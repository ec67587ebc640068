#include "southbound/rdma/lldp_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>

#include "models/log.h"

namespace rdmagw::southbound::rdma {
namespace {

bool onPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char* path = getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace

LldpctlCommand::LldpctlCommand(std::string command) : command_(std::move(command)) {}

void LldpctlCommand::noteOnce(const std::string& why) {
  if (noted_) return;
  noted_ = true;
  RDMAGW_LOG(kInfo, "rdma") << "no LLDP neighbours from this host: " << why;
}

std::optional<std::string> LldpctlCommand::read() {
  const std::string program = command_.substr(0, command_.find(' '));
  if (!onPath(program)) {
    noteOnce(program + " not found (install lldpd for links learned from the host side)");
    return std::nullopt;
  }
  FILE* p = popen((command_ + " 2>&1").c_str(), "r");
  if (p == nullptr) {
    noteOnce("cannot run " + command_);
    return std::nullopt;
  }
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  if (status != 0) {
    noteOnce(command_ + " failed (is lldpd running?): " + out.substr(0, out.find('\n')));
    return std::nullopt;
  }
  noted_ = false;
  return out;
}

std::optional<std::string> LldpText::read() {
  if (text_.find('{') == std::string::npos) return std::nullopt;
  return text_;
}

}  // namespace rdmagw::southbound::rdma
