#pragma once
// Reads a small kernel text file (/proc/<pid>/cgroup, sysfs attributes) the
// way the southbound reads sysfs: without blocking and with a size cap, so a
// FIFO or an endless file planted under a configured root costs one error,
// never a hung poll. /proc files report size 0, so the file is read to EOF.

#include <cstddef>
#include <string>

#include "models/status.h"

namespace rdmagw::southbound::k8s {

inline constexpr size_t kProcTextMaxBytes = 64 * 1024;

// The file's text; ioError naming the path when it cannot be opened, is not
// a regular file, cannot be read, or is longer than `max_bytes`.
Result<std::string> readProcText(const std::string& path, size_t max_bytes = kProcTextMaxBytes);

}  // namespace rdmagw::southbound::k8s
