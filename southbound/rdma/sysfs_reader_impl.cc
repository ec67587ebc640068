#include "southbound/rdma/sysfs_reader_impl.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

namespace rdmagw::southbound::rdma {
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

SysfsReaderImpl::SysfsReaderImpl(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string SysfsReaderImpl::displayPath(const std::string& relpath) const {
  if (relpath.empty()) return root_;
  return root_ + "/" + relpath;
}

namespace {

// What an open file is, for an error about a file that is no sysfs attribute.
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

// The whole content of an open file (closed here), at most kMaxSysfsFileBytes.
// Its path is `dir`, or `dir`/`name` when a name is given: built only for an
// error, so a directory's files cost no path string each. Files are opened
// O_NONBLOCK, so a FIFO or a device planted in the tree answers EAGAIN or
// EOF instead of holding the poll; one that never ends (/dev/zero, a file
// still growing) is cut at the cap and reported, never returned truncated.
Result<std::string> readOpen(int fd, const std::string& dir, std::string_view name = {}) {
  const auto where = [&] { return name.empty() ? dir : dir + "/" + std::string(name); };
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;  // EINVAL from the driver arrives here, not at open()
      if (err == EAGAIN) {
        std::string msg = where() + ": " + fileKind(fd) + " with no data ready (EAGAIN): not a sysfs attribute";
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
        std::string kind = fileKind(fd);
        if (kind != "regular file") {
          ::close(fd);
          return Status::ioError(where() + ": " + kind + ": not a sysfs attribute");
        }
      }
      break;
    }
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > kMaxSysfsFileBytes) {
      std::string msg = where() + ": " + fileKind(fd) + " longer than " + std::to_string(kMaxSysfsFileBytes) +
                        " bytes: not a sysfs attribute (at most a page), not read";
      ::close(fd);
      return Status::ioError(std::move(msg));
    }
    // A sysfs attribute comes whole from its first read and a regular file
    // reads short only at its end: no second read() to learn of EOF (one
    // syscall of four per counter, and syscalls are what a poll costs).
    if (static_cast<size_t>(n) < sizeof(buf)) break;
  }
  ::close(fd);
  return out;
}

// An open directory's entry names, sorted, without "." and "..".
std::vector<std::string> sortedNames(DIR* dir) {
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.emplace_back(e->d_name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

Result<std::string> SysfsReaderImpl::readFile(const std::string& relpath) {
  const std::string path = displayPath(relpath);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return statusFromErrno(errno, path);
  return readOpen(fd, path);
}

Result<std::vector<SysfsFile>> SysfsReaderImpl::readDir(const std::string& relpath) {
  const std::string path = displayPath(relpath);
  int dfd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return statusFromErrno(errno, path);
  DIR* dir = ::fdopendir(dfd);  // owns dfd from here
  if (dir == nullptr) {
    int err = errno;
    ::close(dfd);
    return statusFromErrno(err, path);
  }
  std::vector<SysfsFile> files;
  for (std::string& name : sortedNames(dir)) files.push_back(SysfsFile{std::move(name), std::string()});
  for (SysfsFile& f : files) {
    int fd = ::openat(dfd, f.name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    f.content = fd < 0 ? Result<std::string>(statusFromErrno(errno, path + "/" + f.name))
                       : readOpen(fd, path, f.name);
  }
  ::closedir(dir);
  return files;
}

Result<std::vector<std::string>> SysfsReaderImpl::listDir(const std::string& relpath) {
  const std::string path = displayPath(relpath);
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return statusFromErrno(errno, path);
  std::vector<std::string> names = sortedNames(dir);
  ::closedir(dir);
  return names;
}

}  // namespace rdmagw::southbound::rdma
