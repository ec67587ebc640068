#pragma once
// Reading the kernel's text files (sysfs attributes, /proc files) the way
// every southbound reader must: opened O_NONBLOCK, so a FIFO or a device
// planted under a configured root answers at once instead of holding the
// poll, and capped, so a file that never ends (/dev/zero, a file still
// growing) is an error of that file, never a value cut short. Errors name
// the path and the errno.

#include <cstddef>
#include <string>
#include <string_view>

#include "models/function_ref.h"
#include "models/status.h"

namespace rdmagw::southbound {

// A sysfs attribute is at most a page; a /proc file of one process (its
// cgroup, its status) a few KiB.
inline constexpr size_t kMaxKernelFileBytes = 64 * 1024;

// How a file's end is found. A sysfs attribute comes whole from its first
// read, so a short read is its end (one syscall fewer per counter, and
// syscalls are what a poll costs). A /proc file is a seq_file that may
// answer in pieces shorter than asked: it is read until read() says EOF.
enum class KernelFileKind { kSysfsAttribute, kProcFile };

// Maps an errno to a Status with "<path>: <strerror> (<ENAME>)" as message:
// notFound for ENOENT/ENODEV/ENXIO, invalidArgument for EINVAL, else ioError.
Status statusFromErrno(int err, const std::string& path);

// The whole content of an open file, which is closed here. `where` names
// the file, built only for an error (a directory's files cost no path
// string each).
Result<std::string> readOpenKernelFile(int fd, KernelFileKind kind, FunctionRef<std::string()> where,
                                       size_t max_bytes = kMaxKernelFileBytes);

// Opens `path` and reads it as above.
Result<std::string> readKernelFile(const std::string& path, KernelFileKind kind,
                                   size_t max_bytes = kMaxKernelFileBytes);

}  // namespace rdmagw::southbound
