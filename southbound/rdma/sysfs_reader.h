#pragma once
// Read-only view of a sysfs tree. Paths are relative to the sysfs root
// ("class/infiniband/mlx5_0/fw_ver"), so the same collection code runs on the
// live /sys, on a test tree in a temp dir and on a dump shipped from a remote
// host (memory_sysfs_reader.h).
//
// Error codes carry the errno class so callers can tell a vanished file
// (kNotFound, ENOENT) from a file the driver refuses to read (kInvalidArgument,
// EINVAL: empty GID slots, some ConnectX-7 functions) from other I/O errors.

#include <memory>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::rdma {

// One file of a directory read whole (SysfsReader::readDir).
struct SysfsFile {
  std::string name;
  Result<std::string> content;
};

class SysfsReader {
 public:
  virtual ~SysfsReader() = default;
  // Whole file content, unmodified (sysfs values end in '\n').
  virtual Result<std::string> readFile(const std::string& relpath) = 0;
  // Entry names of a directory, sorted; directories and files alike.
  virtual Result<std::vector<std::string>> listDir(const std::string& relpath) = 0;
  // Every entry of a directory, sorted by name, each with its content or why
  // it could not be read (a subdirectory reads as EISDIR). A counters
  // directory is read this way: the default lists and then reads each file;
  // SysfsReaderImpl opens the directory once and each file relative to it.
  virtual Result<std::vector<SysfsFile>> readDir(const std::string& relpath);
  // The path as the host sees it, for error lines ("/sys/class/infiniband/...").
  virtual std::string displayPath(const std::string& relpath) const = 0;
};
using SysfsReaderPtr = std::unique_ptr<SysfsReader>;

}  // namespace rdmagw::southbound::rdma
