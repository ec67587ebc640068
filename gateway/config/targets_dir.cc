#include "gateway/config/targets_dir.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "common/file_text.h"

namespace rdmagw::gateway {

namespace fs = std::filesystem;

namespace {

bool isTargetFileName(const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  auto ends = [&name](const char* suffix) {
    const size_t n = std::strlen(suffix);
    return name.size() > n && name.compare(name.size() - n, n, suffix) == 0;
  };
  return ends(".yaml") || ends(".yml");
}

}  // namespace

std::vector<std::string> targetsDirFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!isTargetFileName(entry.path().filename().string())) continue;
    std::error_code type_ec;
    if (!fs::is_regular_file(entry.path(), type_ec)) continue;  // follows links
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Result<TargetsDirContent> readTargetsDir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (fs::exists(dir, ec)) return Status::invalidArgument(dir + ": not a directory");
    return Status::notFound("\"" + dir + "\" does not exist");
  }
  TargetsDirContent out;
  out.files = targetsDirFiles(dir);
  auto fail = [&out](const std::string& lines) {
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) out.errors.push_back(line);
  };
  std::map<std::string, std::string> where;  // name -> where first defined
  for (const std::string& file : out.files) {
    const common::FileText text = common::readFileText(file);
    if (!text.ok()) {
      fail(file + ": cannot open: " + std::strerror(text.error_number));
      continue;
    }
    Result<std::vector<TargetConfig>> targets = parseTargetList(text.text, file);
    if (!targets.isOk()) {
      fail(targets.status().message());
      continue;
    }
    std::vector<TargetConfig> parsed = std::move(targets).value();
    for (TargetConfig& t : parsed) {
      auto [it, fresh] = where.emplace(t.name, t.defined_at);
      if (!fresh) {
        fail(t.defined_at + ": name: duplicate target name \"" + t.name + "\" (also at " + it->second + ")");
        continue;
      }
      out.targets.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace rdmagw::gateway
