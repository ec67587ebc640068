#include "gateway/config/yaml_reader.h"

#include "gateway/config/credentials_dir.h"

#include <cctype>
#include <set>

namespace rdmagw::gateway {

YAML::Node YamlReader::child(const YAML::Node& parent, const char* key) {
  // An absent parent (a missing key's zombie node) throws on IsMap().
  if (!parent || !parent.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  return parent[key];
}

void YamlReader::error(const YAML::Node& at, const std::string& key_path, const std::string& message) {
  const YAML::Mark m = at.Mark();
  if (m.line < 0) {
    error(key_path, message);
    return;
  }
  errors_.push_back(file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) +
                    ": " + key_path + ": " + message);
}

std::string YamlReader::where(const YAML::Node& at) const {
  const YAML::Mark m = at.Mark();
  if (m.line < 0) return file_;
  return file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

void YamlReader::error(const std::string& key_path, const std::string& message) {
  errors_.push_back(file_ + ": " + key_path + ": " + message);
}

void YamlReader::checkKeys(const YAML::Node& node, const std::string& key_path,
                           std::initializer_list<const char*> allowed) {
  if (!node.IsMap()) {
    error(node, key_path, "must be a mapping");
    return;
  }
  std::set<std::string> ok(allowed.begin(), allowed.end());
  for (const auto& kv : node) {
    const std::string key = kv.first.as<std::string>("");
    if (!ok.count(key)) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      error(kv.first, joinKey(key_path, key), "unknown key (allowed: " + list + ")");
    }
  }
}

std::optional<std::string> YamlReader::string(const YAML::Node& parent, const std::string& parent_path,
                                              const char* key, bool required) {
  const std::string path = joinKey(parent_path, key);
  YAML::Node n = child(parent, key);
  if (!n) {
    if (required) error(parent, path, "required key is missing");
    return std::nullopt;
  }
  if (!n.IsScalar()) {
    error(n, path, "must be a string");
    return std::nullopt;
  }
  // Any key may name a file handed over by systemd's LoadCredential=.
  return expandCredentialsDirectory(n.Scalar());
}

std::optional<bool> YamlReader::boolean(const YAML::Node& parent, const std::string& parent_path,
                                        const char* key) {
  std::optional<std::string> v = string(parent, parent_path, key);
  if (!v) return std::nullopt;
  if (*v == "true") return true;
  if (*v == "false") return false;
  error(child(parent, key), joinKey(parent_path, key), "must be true or false");
  return std::nullopt;
}

std::optional<int64_t> YamlReader::integer(const YAML::Node& parent, const std::string& parent_path,
                                           const char* key, int64_t min, int64_t max) {
  auto text = string(parent, parent_path, key);
  if (!text) return std::nullopt;
  const std::string path = joinKey(parent_path, key);
  try {
    size_t used = 0;
    long long v = std::stoll(*text, &used, 10);
    if (used != text->size()) throw std::invalid_argument("trailing");
    if (v < min || v > max) {
      error(child(parent, key), path, "must be between " + std::to_string(min) + " and " + std::to_string(max));
      return std::nullopt;
    }
    return v;
  } catch (const std::exception&) {
    error(child(parent, key), path, "\"" + *text + "\" is not an integer");
    return std::nullopt;
  }
}

std::optional<std::chrono::milliseconds> YamlReader::parseDuration(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 12) return std::nullopt;
  const long long n = std::stoll(text.substr(0, i));
  const std::string unit = text.substr(i);
  if (unit == "ms") return std::chrono::milliseconds(n);
  if (unit == "s") return std::chrono::milliseconds(n * 1000);
  if (unit == "m") return std::chrono::milliseconds(n * 60000);
  if (unit == "h") return std::chrono::milliseconds(n * 3600000);
  return std::nullopt;
}

std::optional<std::chrono::milliseconds> YamlReader::duration(const YAML::Node& parent,
                                                              const std::string& parent_path,
                                                              const char* key) {
  auto text = string(parent, parent_path, key);
  if (!text) return std::nullopt;
  auto d = parseDuration(*text);
  if (!d) error(child(parent, key), joinKey(parent_path, key), "bad duration \"" + *text + "\" (use e.g. 500ms, 10s, 1m)");
  return d;
}

std::vector<std::string> YamlReader::stringList(const YAML::Node& parent, const std::string& parent_path,
                                                const char* key) {
  std::vector<std::string> out;
  YAML::Node n = child(parent, key);
  if (!n) return out;
  const std::string path = joinKey(parent_path, key);
  if (!n.IsSequence()) {
    error(n, path, "must be a list");
    return out;
  }
  for (size_t i = 0; i < n.size(); ++i) {
    if (!n[i].IsScalar()) {
      error(n[i], path + "[" + std::to_string(i) + "]", "must be a string");
      continue;
    }
    out.push_back(n[i].Scalar());
  }
  return out;
}

Result<YAML::Node> loadYaml(const std::string& yaml_text, const std::string& file_name) {
  try {
    return YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    return Status::invalidArgument(file_name + ":" + std::to_string(e.mark.line + 1) + ":" +
                                   std::to_string(e.mark.column + 1) + ": YAML syntax error: " + e.msg);
  }
}

Status joinedErrors(const YamlReader& r) {
  std::string all;
  for (const std::string& e : r.errors()) all += (all.empty() ? "" : "\n") + e;
  return Status::invalidArgument(all);
}

}  // namespace rdmagw::gateway
