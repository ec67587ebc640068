#pragma once
// SysfsReader over the real filesystem below a root directory (like
// node_exporter's --path.sysfs). Errors name the full path and the errno.

#include <string>
#include <vector>

#include "southbound/kernel_text.h"
#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::rdma {

// A sysfs attribute is at most a page; a file longer than this (a file still
// growing, a symlink to /dev/zero) is an error of that file, not a value.
inline constexpr size_t kMaxSysfsFileBytes = kMaxKernelFileBytes;

class SysfsReaderImpl : public SysfsReader {
 public:
  explicit SysfsReaderImpl(std::string root);

  Result<std::string> readFile(const std::string& relpath) override;
  Result<std::vector<std::string>> listDir(const std::string& relpath) override;
  // One path walk for the directory, then each file opened relative to it:
  // with 640 hosts' trees the walk of ~10 components per file was a fifth of
  // the gateway's CPU (perf, in a 1M-series scale run).
  Result<std::vector<SysfsFile>> readDir(const std::string& relpath) override;
  std::string displayPath(const std::string& relpath) const override;

 private:
  std::string root_;
};

// The kernel-file reads are southbound's (kernel_text.h); readers here
// name them as their own.
using southbound::statusFromErrno;

}  // namespace rdmagw::southbound::rdma
