#pragma once
// SysfsReader over an in-memory tree. Built from a "sysfs dump": one line per
// file, `/sys/class/infiniband/<dev>/<rel>: <value>` ('#' starts a comment, a
// path ending in '/' declares an empty directory). A remote host ships such a
// dump over SSH and the very same ib_class code reads it; tests also use the
// setters to inject failures the real kernel produces (EINVAL, vanishing).

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::southbound::rdma {

class MemorySysfsReader : public SysfsReader {
 public:
  // Lines that are not `path: value` under /sys go to *bad_lines (may be null)
  // and are skipped; the rest of the dump stands.
  static MemorySysfsReader fromDump(std::string_view text, std::vector<std::string>* bad_lines);

  void addFile(const std::string& relpath, std::string content);
  void addDir(const std::string& relpath);
  // Every later read of relpath returns `status` (e.g. an EINVAL read).
  void failRead(const std::string& relpath, Status status);
  // Removes relpath and everything below it (a device that went away).
  void removeTree(const std::string& relpath);

  Result<std::string> readFile(const std::string& relpath) override;
  Result<std::vector<std::string>> listDir(const std::string& relpath) override;
  std::string displayPath(const std::string& relpath) const override;

 private:
  bool isDir(const std::string& relpath) const;

  std::map<std::string, std::string> files_;
  std::set<std::string> dirs_;  // explicit and implied ancestors
  std::map<std::string, Status> failures_;
};

}  // namespace rdmagw::southbound::rdma
