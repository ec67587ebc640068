#include "southbound/kernel_text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmagw::southbound {
namespace {

const char* errnoName(int err) {
  switch (err) {
    case ENOENT:
      return "ENOENT";
    case EINVAL:
      return "EINVAL";
    case EISDIR:
      return "EISDIR";
    case ENOTDIR:
      return "ENOTDIR";
    case EACCES:
      return "EACCES";
    case EPERM:
      return "EPERM";
    case EIO:
      return "EIO";
    case ENODEV:
      return "ENODEV";
    case ENXIO:
      return "ENXIO";
    case EOPNOTSUPP:
      return "EOPNOTSUPP";
    case EAGAIN:
      return "EAGAIN";
    case EBUSY:
      return "EBUSY";
    default:
      return "errno";
  }
}

}  // namespace

Status statusFromErrno(int err, const std::string& path) {
  std::string msg = path + ": " + std::strerror(err) + " (" + errnoName(err) + ")";
  switch (err) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
      return Status::notFound(std::move(msg));
    case EINVAL:
      return Status::invalidArgument(std::move(msg));
    default:
      return Status::ioError(std::move(msg));
  }
}

namespace {

// What an open file is, for an error about a file that is no kernel text file.
std::string fileKind(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "unknown file type";
  if (S_ISREG(st.st_mode)) return "regular file";
  if (S_ISFIFO(st.st_mode)) return "FIFO";
  if (S_ISCHR(st.st_mode)) return "character device";
  if (S_ISBLK(st.st_mode)) return "block device";
  if (S_ISSOCK(st.st_mode)) return "socket";
  return "special file";
}

// The error's words for a file that is no file of the kind asked for.
const char* notA(KernelFileKind kind) {
  return kind == KernelFileKind::kSysfsAttribute ? "not a sysfs attribute" : "not a /proc text file";
}

}  // namespace

Result<std::string> readOpenKernelFile(int fd, KernelFileKind kind, FunctionRef<std::string()> where,
                                       size_t max_bytes) {
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;  // EINVAL from the driver arrives here, not at open()
      if (err == EAGAIN) {
        std::string msg = where() + ": " + fileKind(fd) + " with no data ready (EAGAIN): " + notA(kind);
        ::close(fd);
        return Status::ioError(std::move(msg));
      }
      ::close(fd);
      return statusFromErrno(err, where());
    }
    if (n == 0) {
      // Empty: a sysfs attribute may be (an unset GID slot); a FIFO with no
      // writer reads the same, and is named as what it is.
      if (out.empty()) {
        std::string file_kind = fileKind(fd);
        if (file_kind != "regular file") {
          ::close(fd);
          return Status::ioError(where() + ": " + file_kind + ": " + notA(kind));
        }
      }
      break;
    }
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > max_bytes) {
      std::string msg = where() + ": " + fileKind(fd) + " longer than " + std::to_string(max_bytes) +
                        " bytes: " + notA(kind) + ", not read";
      ::close(fd);
      return Status::ioError(std::move(msg));
    }
    if (kind == KernelFileKind::kSysfsAttribute && static_cast<size_t>(n) < sizeof(buf)) break;
  }
  ::close(fd);
  return out;
}

Result<std::string> readKernelFile(const std::string& path, KernelFileKind kind, size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return statusFromErrno(errno, path);
  return readOpenKernelFile(fd, kind, [&] { return path; }, max_bytes);
}

}  // namespace rdmagw::southbound
