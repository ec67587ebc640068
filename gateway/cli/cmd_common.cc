#include <csignal>
#include <pthread.h>

#include "gateway/cli/commands.h"

namespace rdmagw::gateway {

void blockTerminationSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int waitForTerminationSignal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  int sig = 0;
  sigwait(&set, &sig);
  return sig;
}

bool flagValue(const Args& args, const std::string& name, std::string* out) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == name && i + 1 < args.size()) {
      *out = args[i + 1];
      return true;
    }
    if (args[i].rfind(name + "=", 0) == 0) {
      *out = args[i].substr(name.size() + 1);
      return true;
    }
  }
  return false;
}

bool hasFlag(const Args& args, const std::string& name) {
  for (const auto& a : args) {
    if (a == name) return true;
  }
  return false;
}

}  // namespace rdmagw::gateway
