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

SysfsReaderImpl::SysfsReaderImpl(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string SysfsReaderImpl::displayPath(const std::string& relpath) const {
  if (relpath.empty()) return root_;
  return root_ + "/" + relpath;
}

namespace {

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
  return readKernelFile(path, KernelFileKind::kSysfsAttribute, kMaxSysfsFileBytes);
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
                       : readOpenKernelFile(
                             fd, KernelFileKind::kSysfsAttribute, [&] { return path + "/" + f.name; },
                             kMaxSysfsFileBytes);
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
