#pragma once
// OpenConfig/gNMI path: an origin plus elements, each a name with keys.
//
// String form (the one gnmic prints and our tests and CLI use):
//   [origin:]/elem/elem[key=value][key2=value2]/leaf
// Inside a key value, '\' escapes the next character; an unescaped ']' ends
// the value, so a DME key such as phys-[eth1/1] is written
// [name=phys-[eth1/1\]] and round-trips. '/' inside brackets is literal.
// In element names and key names '\' escapes '/', '[', ']' and '='.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw {

struct PathElem {
  std::string name;
  std::map<std::string, std::string> keys;  // ordered, so the string form is canonical
  bool operator==(const PathElem&) const = default;
};

class Path {
 public:
  Path() = default;
  explicit Path(std::vector<PathElem> elems, std::string origin = "")
      : origin_(std::move(origin)), elems_(std::move(elems)) {}

  static Result<Path> parse(std::string_view text);

  // Canonical string form; parse(p.toString()) == p.
  std::string toString() const;
  // The same path with every key dropped: the schema lookup key.
  std::string keylessString() const;

  const std::string& origin() const { return origin_; }
  const std::vector<PathElem>& elems() const { return elems_; }
  std::vector<PathElem>& mutableElems() { return elems_; }
  bool empty() const { return elems_.empty(); }

  // Fluent building for collectors: Path().add("a").add("b", {{"name","x"}}).
  Path& add(std::string name, std::map<std::string, std::string> keys = {});

  // True when `this` is `prefix` or lies under it. Keys absent from the
  // prefix element, or given as "*", match anything.
  bool hasPrefix(const Path& prefix) const;

  bool operator==(const Path&) const = default;

 private:
  std::string origin_;
  std::vector<PathElem> elems_;
};

// Appends a key value with ']' and '\' escaped.
void appendEscapedKeyValue(std::string* out, std::string_view value);

}  // namespace rdmagw
