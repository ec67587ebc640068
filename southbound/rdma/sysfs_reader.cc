#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::rdma {

Result<std::vector<SysfsFile>> SysfsReader::readDir(const std::string& relpath) {
  Result<std::vector<std::string>> names = listDir(relpath);
  if (!names.isOk()) return names.status();
  std::vector<SysfsFile> files;
  files.reserve(names->size());
  for (const std::string& name : names.value()) {
    files.push_back(SysfsFile{name, readFile(relpath.empty() ? name : relpath + "/" + name)});
  }
  return files;
}

}  // namespace rdmagw::southbound::rdma
