#include "northbound/admin/unix_listener.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmagw::northbound::admin {
namespace {

std::string errnoText(const std::string& what, int err) { return what + ": " + std::strerror(err); }

sockaddr_un addressOf(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());  // the caller checked the length
  return addr;
}

std::string parentOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// What is at `path` before we bind: nothing, a dead socket (removed here),
// or a reason not to touch it.
Status clearStale(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::ok();
    return Status::ioError(errnoText(path, errno));
  }
  if (!S_ISSOCK(st.st_mode)) return Status::unavailable(path + " exists and is not a socket; not replacing it");
  const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (probe < 0) return Status::ioError(errnoText("socket", errno));
  const sockaddr_un addr = addressOf(path);
  const int rc = ::connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  const int err = errno;
  ::close(probe);
  if (rc == 0) return Status::unavailable(path + " is served by a running process (another gateway?)");
  if (err != ECONNREFUSED) return Status::ioError(errnoText("probing " + path, err));
  // Nobody accepts on it: left by a gateway that did not stop cleanly.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Status::ioError(errnoText("removing stale " + path, errno));
  return Status::ok();
}

}  // namespace

Result<UnixListener> listenUnix(const std::string& path, mode_t mode) {
  if (path.empty() || path.size() >= sizeof(sockaddr_un::sun_path)) {
    return Status::invalidArgument("unix socket path of " + std::to_string(path.size()) + " bytes");
  }
  const std::string dir = parentOf(path);
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode)) {
    return Status::notFound("directory " + dir + " does not exist");
  }
  if (Status st = clearStale(path); !st.isOk()) return st;
  UnixListener l;
  l.fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (l.fd < 0) return Status::ioError(errnoText("socket", errno));
  const sockaddr_un addr = addressOf(path);
  if (::bind(l.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    const int err = errno;
    ::close(l.fd);
    return Status::unavailable(errnoText("bind " + path, err));
  }
  // bind() created the file with the umask's mode; nobody can connect before
  // listen(), so narrowing it here leaves no window.
  struct stat sst {};
  if (::chmod(path.c_str(), mode) != 0 || ::lstat(path.c_str(), &sst) != 0) {
    const int err = errno;
    ::close(l.fd);
    ::unlink(path.c_str());
    return Status::ioError(errnoText("chmod " + path, err));
  }
  l.dev = sst.st_dev;
  l.ino = sst.st_ino;
  if (::listen(l.fd, 16) != 0) {
    const int err = errno;
    ::close(l.fd);
    ::unlink(path.c_str());
    return Status::ioError(errnoText("listen " + path, err));
  }
  return l;
}

void closeUnix(UnixListener* listener, const std::string& path) {
  if (listener->fd < 0) return;
  ::close(listener->fd);
  listener->fd = -1;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && st.st_dev == listener->dev && st.st_ino == listener->ino) {
    ::unlink(path.c_str());
  }
}

}  // namespace rdmagw::northbound::admin
