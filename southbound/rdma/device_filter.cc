#include "southbound/rdma/device_filter.h"

#include <fnmatch.h>

namespace rdmagw::southbound::rdma {
namespace {

bool matchesAny(const std::vector<std::string>& globs, const std::string& name) {
  for (const std::string& g : globs) {
    if (::fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

}  // namespace

bool DeviceFilter::accepts(const std::string& device) const {
  if (!include_.empty() && !matchesAny(include_, device)) return false;
  return !matchesAny(exclude_, device);
}

Status DeviceFilter::validateGlob(const std::string& glob) {
  if (glob.empty()) return Status::invalidArgument("empty glob");
  if (glob.find('/') != std::string::npos) {
    return Status::invalidArgument("glob '" + glob + "' contains '/': device names never do");
  }
  // An unterminated '[' makes fnmatch match the bracket literally, which is
  // never what the operator meant.
  for (size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      ++i;
      continue;
    }
    if (glob[i] != '[') continue;
    size_t j = i + 1;
    if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
    if (j < glob.size() && glob[j] == ']') ++j;  // "[]...]" holds a literal ']'
    size_t close = glob.find(']', j);
    if (close == std::string::npos) {
      return Status::invalidArgument("glob '" + glob + "' has an unterminated '['");
    }
    i = close;
  }
  if (glob.back() == '\\') return Status::invalidArgument("glob '" + glob + "' ends in '\\'");
  return Status::ok();
}

}  // namespace rdmagw::southbound::rdma
