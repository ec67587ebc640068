#include "common/file_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace rdmagw::common {
namespace {

FileText failed(const std::string& path, int err) {
  FileText out;
  out.error_number = err;
  // std::system_category's message is strerror's text, without strerror's
  // shared buffer (several threads read files at once).
  out.error = "cannot read " + path + ": " + std::system_category().message(err);
  return out;
}

}  // namespace

FileText readFileText(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return failed(path, errno);
  FileText out;
  char buf[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.text.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    const int err = errno;  // a directory (EISDIR), an I/O error
    ::close(fd);
    return failed(path, err);
  }
  ::close(fd);
  return out;
}

}  // namespace rdmagw::common
