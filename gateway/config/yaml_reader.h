#pragma once
// Reads a YAML tree into config structs while collecting every problem as
// "file:line:col: key.path: message" (the OpenTelemetry Collector habit:
// report all errors, not the first, each with where it is).

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "models/status.h"

namespace rdmagw::gateway {

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  // parent[key], or an undefined node when `parent` is not a mapping:
  // yaml-cpp throws on a scalar's operator[], and a scalar where a mapping
  // belongs is an error checkKeys reports, not a reason to stop reading.
  static YAML::Node child(const YAML::Node& parent, const char* key);

  // Errors on any key of `node` not in `allowed` (typos must not pass silently).
  void checkKeys(const YAML::Node& node, const std::string& key_path,
                 std::initializer_list<const char*> allowed);

  std::optional<std::string> string(const YAML::Node& parent, const std::string& parent_path,
                                    const char* key, bool required = false);
  std::optional<int64_t> integer(const YAML::Node& parent, const std::string& parent_path,
                                 const char* key, int64_t min, int64_t max);
  // `true` or `false`, nothing else (a typo must not read as false).
  std::optional<bool> boolean(const YAML::Node& parent, const std::string& parent_path, const char* key);
  // Durations: "500ms", "10s", "1m", "1h".
  std::optional<std::chrono::milliseconds> duration(const YAML::Node& parent,
                                                    const std::string& parent_path, const char* key);
  std::vector<std::string> stringList(const YAML::Node& parent, const std::string& parent_path,
                                      const char* key);

  void error(const YAML::Node& at, const std::string& key_path, const std::string& message);
  void error(const std::string& key_path, const std::string& message);  // no position known
  // A line already in the "file:line:col: key.path: message" form (another
  // file's reader made it).
  void addError(std::string line) { errors_.push_back(std::move(line)); }
  // "file:line:col" of `at`, or the file alone when the node has no mark.
  std::string where(const YAML::Node& at) const;
  const std::vector<std::string>& errors() const { return errors_; }
  const std::string& file() const { return file_; }

  static std::optional<std::chrono::milliseconds> parseDuration(const std::string& text);

 private:
  std::string file_;
  std::vector<std::string> errors_;
};

// The YAML tree of `yaml_text`, or its syntax error as "file:line:col: ...".
Result<YAML::Node> loadYaml(const std::string& yaml_text, const std::string& file_name);
// Every error `r` collected, one per line, as one invalidArgument.
Status joinedErrors(const YamlReader& r);

inline std::string joinKey(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

}  // namespace rdmagw::gateway
