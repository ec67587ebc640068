#include "southbound/rdma/local_tool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <thread>

extern char** environ;

namespace rdmagw::southbound::rdma {
namespace {

using Clock = std::chrono::steady_clock;

// Closes the fd when the run returns, whichever way.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

int exitStatusOf(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// The tool's exit status, or nothing when it is still running at the
// deadline (it closed stdout but did not exit).
std::optional<int> exitStatusBy(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return 0;  // not our child any more: nothing to wait for
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// The whole group: a shell script's children (sleep, a grandchild holding
// the pipe) go too, and the tool is reaped, never left a zombie.
void killAndReap(pid_t pid) {
  ::kill(-pid, SIGKILL);
  exitStatusOf(pid);
}

}  // namespace

Result<std::string> runLocalTool(std::vector<std::string> args, const std::string& what,
                                 const LocalToolLimits& limits) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::ioError(args[0] + ": pipe failed");
  Fd reader{fds[0]};
  Fd writer{fds[1]};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, writer.fd, 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(writer.fd);
  writer.fd = -1;
  if (rc != 0) return Status::notFound(args[0] + ": not installed");

  const Clock::time_point deadline = Clock::now() + limits.deadline;
  std::string out;
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      killAndReap(pid);
      return Status::unavailable(args[0] + ": no answer within " + std::to_string(limits.deadline.count()) +
                                 " ms; killed");
    }
    pollfd p{reader.fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, int(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // timed out: the deadline check above ends it
    const ssize_t n = ::read(reader.fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;  // EOF: the tool (and all it started) closed stdout
    out.append(buf, size_t(n));
    if (out.size() > limits.max_output) {
      killAndReap(pid);
      return Status::corrupt(args[0] + ": more than " + std::to_string(limits.max_output) +
                             " bytes of output; killed");
    }
  }
  const std::optional<int> exited = exitStatusBy(pid, deadline);
  if (!exited) {
    killAndReap(pid);
    return Status::unavailable(args[0] + ": closed its output but did not exit within " +
                               std::to_string(limits.deadline.count()) + " ms; killed");
  }
  const int status = *exited;
  if (WIFSIGNALED(status)) {
    return Status::unavailable(args[0] + ": killed by signal " + std::to_string(WTERMSIG(status)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return Status::notFound(what);
  return out;
}

}  // namespace rdmagw::southbound::rdma
