#include "sim/child_setup.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace rdmagw::sim {

void prepareChildOutput(const std::string& log) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
  }
}

}  // namespace rdmagw::sim
