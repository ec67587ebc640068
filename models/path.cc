#include "models/path.h"

namespace rdmagw {
namespace {

bool isNameSpecial(char c) { return c == '/' || c == '[' || c == ']' || c == '=' || c == '\\'; }

void appendEscapedName(std::string* out, std::string_view name) {
  for (char c : name) {
    if (isNameSpecial(c)) out->push_back('\\');
    out->push_back(c);
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Result<Path> run() {
    std::string origin;
    // "origin:/..." — the origin ends at the first ':' that precedes the first '/'.
    size_t colon = s_.find(':');
    size_t slash = s_.find('/');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
      origin = std::string(s_.substr(0, colon));
      pos_ = colon + 1;
    }
    std::vector<PathElem> elems;
    if (pos_ < s_.size() && s_[pos_] == '/') ++pos_;
    while (pos_ < s_.size()) {
      PathElem elem;
      if (Status st = parseName(&elem.name); !st.isOk()) return st;
      while (pos_ < s_.size() && s_[pos_] == '[') {
        if (Status st = parseKey(&elem); !st.isOk()) return st;
      }
      if (elem.name.empty()) return error("empty element name");
      elems.push_back(std::move(elem));
      if (pos_ < s_.size()) {
        if (s_[pos_] != '/') return error("expected '/' after element");
        ++pos_;
        if (pos_ == s_.size()) return error("trailing '/'");
      }
    }
    return Path(std::move(elems), std::move(origin));
  }

 private:
  Status error(const std::string& what) const {
    return Status::invalidArgument("bad path \"" + std::string(s_) + "\" at offset " +
                                   std::to_string(pos_) + ": " + what);
  }

  Status parseName(std::string* out) {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\\') {
        if (pos_ + 1 >= s_.size()) return error("dangling escape");
        out->push_back(s_[pos_ + 1]);
        pos_ += 2;
        continue;
      }
      if (c == '/' || c == '[') break;
      if (c == ']' || c == '=') return error(std::string("unexpected '") + c + "'");
      out->push_back(c);
      ++pos_;
    }
    return Status::ok();
  }

  Status parseKey(PathElem* elem) {
    ++pos_;  // '['
    std::string key;
    while (pos_ < s_.size() && s_[pos_] != '=') {
      char c = s_[pos_];
      if (c == '\\' && pos_ + 1 < s_.size()) {
        key.push_back(s_[pos_ + 1]);
        pos_ += 2;
        continue;
      }
      if (c == ']' || c == '[' || c == '/') return error("key without '='");
      key.push_back(c);
      ++pos_;
    }
    if (pos_ >= s_.size()) return error("unterminated key");
    if (key.empty()) return error("empty key name");
    ++pos_;  // '='
    std::string value;
    bool closed = false;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\\') {
        if (pos_ + 1 >= s_.size()) return error("dangling escape");
        value.push_back(s_[pos_ + 1]);
        pos_ += 2;
        continue;
      }
      ++pos_;
      if (c == ']') {
        closed = true;
        break;
      }
      value.push_back(c);
    }
    if (!closed) return error("unterminated key value");
    if (!elem->keys.emplace(std::move(key), std::move(value)).second) return error("duplicate key");
    return Status::ok();
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

void appendEscapedKeyValue(std::string* out, std::string_view value) {
  for (char c : value) {
    if (c == ']' || c == '\\') out->push_back('\\');
    out->push_back(c);
  }
}

Result<Path> Path::parse(std::string_view text) {
  if (text.empty()) return Status::invalidArgument("bad path: empty");
  return Parser(text).run();
}

std::string Path::toString() const {
  std::string out;
  out.reserve(64);
  if (!origin_.empty()) {
    out += origin_;
    out += ':';
  }
  if (elems_.empty()) out += '/';
  for (const PathElem& e : elems_) {
    out += '/';
    appendEscapedName(&out, e.name);
    for (const auto& [k, v] : e.keys) {
      out += '[';
      appendEscapedName(&out, k);
      out += '=';
      appendEscapedKeyValue(&out, v);
      out += ']';
    }
  }
  return out;
}

std::string Path::keylessString() const {
  std::string out;
  for (const PathElem& e : elems_) {
    out += '/';
    appendEscapedName(&out, e.name);
  }
  return out.empty() ? "/" : out;
}

Path& Path::add(std::string name, std::map<std::string, std::string> keys) {
  elems_.push_back(PathElem{std::move(name), std::move(keys)});
  return *this;
}

bool Path::hasPrefix(const Path& prefix) const {
  if (!prefix.origin_.empty() && prefix.origin_ != origin_) return false;
  if (prefix.elems_.size() > elems_.size()) return false;
  for (size_t i = 0; i < prefix.elems_.size(); ++i) {
    const PathElem& p = prefix.elems_[i];
    const PathElem& e = elems_[i];
    if (p.name != "*" && p.name != e.name) return false;
    for (const auto& [k, v] : p.keys) {
      if (v == "*") continue;
      auto it = e.keys.find(k);
      if (it == e.keys.end() || it->second != v) return false;
    }
  }
  return true;
}

}  // namespace rdmagw
