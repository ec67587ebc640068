#include "southbound/rdma/memory_sysfs_reader.h"

#include <cerrno>

#include "southbound/rdma/sysfs_reader_impl.h"

namespace rdmagw::southbound::rdma {
namespace {

constexpr std::string_view kSysPrefix = "/sys/";

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

MemorySysfsReader MemorySysfsReader::fromDump(std::string_view text,
                                              std::vector<std::string>* bad_lines) {
  MemorySysfsReader reader;
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = trimRight(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    auto bad = [&](std::string_view why) {
      if (bad_lines) {
        bad_lines->push_back("sysfs dump line " + std::to_string(line_no) + ": " +
                             std::string(why) + ": " + std::string(line.substr(0, 120)));
      }
    };
    if (line.substr(0, kSysPrefix.size()) != kSysPrefix) {
      bad("not a path under /sys");
      continue;
    }
    // The value may itself hold ": " ("4: ACTIVE"): the path ends at the first one.
    size_t sep = line.find(": ");
    std::string_view path = line.substr(0, sep);
    std::string_view value =
        sep == std::string_view::npos ? std::string_view() : line.substr(sep + 2);
    if (sep == std::string_view::npos) {
      if (path.back() == ':') {
        path.remove_suffix(1);  // "path:" is a file with an empty value
      } else if (path.back() != '/') {
        bad("expected 'path: value'");
        continue;
      }
    }
    std::string rel(path.substr(kSysPrefix.size()));
    if (!rel.empty() && rel.back() == '/') {
      while (!rel.empty() && rel.back() == '/') rel.pop_back();
      if (!rel.empty()) reader.addDir(rel);
      continue;
    }
    if (rel.empty()) {
      bad("empty path");
      continue;
    }
    reader.addFile(rel, std::string(value) + "\n");  // as sysfs shows it
  }
  return reader;
}

void MemorySysfsReader::addDir(const std::string& relpath) {
  std::string dir = relpath;
  while (!dir.empty()) {
    dirs_.insert(dir);
    size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? std::string() : dir.substr(0, slash);
  }
}

void MemorySysfsReader::addFile(const std::string& relpath, std::string content) {
  files_[relpath] = std::move(content);
  size_t slash = relpath.rfind('/');
  if (slash != std::string::npos) addDir(relpath.substr(0, slash));
}

void MemorySysfsReader::failRead(const std::string& relpath, Status status) {
  failures_[relpath] = std::move(status);
}

void MemorySysfsReader::removeTree(const std::string& relpath) {
  const std::string prefix = relpath + "/";
  auto under = [&](const std::string& p) { return p == relpath || p.rfind(prefix, 0) == 0; };
  std::erase_if(files_, [&](const auto& kv) { return under(kv.first); });
  std::erase_if(dirs_, under);
  std::erase_if(failures_, [&](const auto& kv) { return under(kv.first); });
}

bool MemorySysfsReader::isDir(const std::string& relpath) const {
  return relpath.empty() ? !files_.empty() || !dirs_.empty() : dirs_.count(relpath) > 0;
}

std::string MemorySysfsReader::displayPath(const std::string& relpath) const {
  return relpath.empty() ? "/sys" : "/sys/" + relpath;
}

Result<std::string> MemorySysfsReader::readFile(const std::string& relpath) {
  if (auto f = failures_.find(relpath); f != failures_.end()) return f->second;
  if (auto it = files_.find(relpath); it != files_.end()) return it->second;
  return statusFromErrno(isDir(relpath) ? EISDIR : ENOENT, displayPath(relpath));
}

Result<std::vector<std::string>> MemorySysfsReader::listDir(const std::string& relpath) {
  if (auto f = failures_.find(relpath); f != failures_.end()) return f->second;
  if (!isDir(relpath)) {
    return statusFromErrno(files_.count(relpath) ? ENOTDIR : ENOENT, displayPath(relpath));
  }
  const std::string prefix = relpath.empty() ? "" : relpath + "/";
  std::set<std::string> names;  // sorted and unique, like SysfsReaderImpl
  auto child = [&](const std::string& p) {
    if (p.size() <= prefix.size() || p.compare(0, prefix.size(), prefix) != 0) return;
    std::string rest = p.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  };
  for (const auto& kv : files_) child(kv.first);
  for (const auto& d : dirs_) child(d);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace rdmagw::southbound::rdma
