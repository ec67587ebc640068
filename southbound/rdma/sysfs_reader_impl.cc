#include "southbound/rdma/sysfs_reader_impl.h"

#include <dirent.h>
#include <fcntl.h>
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

// Whole sysfs attributes are at most a page; a few pages covers any we read.
constexpr size_t kMaxFileBytes = 64 * 1024;

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

// The whole content of an open file (closed here), at most kMaxFileBytes.
// Its path is `dir`, or `dir`/`name` when a name is given: built only for an
// error, so a directory's files cost no path string each.
Result<std::string> readOpen(int fd, const std::string& dir, std::string_view name = {}) {
  std::string out;
  char buf[4096];
  while (out.size() < kMaxFileBytes) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;  // EINVAL from the driver arrives here, not at open()
      ::close(fd);
      return statusFromErrno(err, name.empty() ? dir : dir + "/" + std::string(name));
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
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
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
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
    int fd = ::openat(dfd, f.name.c_str(), O_RDONLY | O_CLOEXEC);
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
