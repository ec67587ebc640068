#include "northbound/gnmi/change_interest.h"

#include <algorithm>
#include <array>

namespace rdmagw::northbound::gnmi {
namespace {

// Deeper store paths are passed unchecked (ours are at most ~8 elements).
constexpr size_t kMaxScanned = 24;

struct Names {
  std::array<std::string_view, kMaxScanned> at;
  size_t size = 0;
};

// Splits "/a/b[k=v]/c" into its element names without allocating. False
// when the path is not in the plain form this scan understands: then the
// caller must assume the change is wanted.
bool scanNames(std::string_view path, Names* out) {
  if (path.empty() || path.front() != '/') return false;  // origin-qualified or odd
  size_t i = 1;
  while (i < path.size()) {
    const size_t begin = i;
    while (i < path.size() && path[i] != '/' && path[i] != '[') {
      if (path[i] == '\\') return false;  // an escaped name: leave it to the full match
      ++i;
    }
    if (out->size == kMaxScanned) return false;
    out->at[out->size++] = path.substr(begin, i - begin);
    while (i < path.size() && path[i] == '[') {  // skip keys; '/' inside them is literal
      ++i;
      while (i < path.size() && path[i] != ']') {
        if (path[i] == '\\') ++i;  // an escaped character in a key value
        ++i;
      }
      if (i >= path.size()) return false;  // unterminated: not ours to judge
      ++i;                                 // ']'
    }
    if (i < path.size()) {
      if (path[i] != '/') return false;
      ++i;
    }
  }
  return true;
}

// PathPattern::matchFrom on names alone: a pattern matches when it
// matches a leading part of the path.
bool matchFrom(const std::vector<std::string>& pattern, size_t pi, const Names& names, size_t ni) {
  while (pi < pattern.size()) {
    const std::string& p = pattern[pi];
    if (p == "...") {
      if (pi + 1 == pattern.size()) return true;
      for (size_t skip = ni; skip <= names.size; ++skip) {
        if (matchFrom(pattern, pi + 1, names, skip)) return true;
      }
      return false;
    }
    if (ni >= names.size) return false;
    if (p != "*" && p != names.at[ni]) return false;
    ++pi;
    ++ni;
  }
  return true;
}

}  // namespace

ChangeInterest::ChangeInterest(std::vector<Pattern> patterns) {
  for (Pattern& p : patterns) {
    if (p.target == "*") p.target.clear();
    if (std::find(patterns_.begin(), patterns_.end(), p) == patterns_.end()) {
      patterns_.push_back(std::move(p));
    }
  }
}

bool ChangeInterest::wants(std::string_view target, std::string_view path) const {
  if (patterns_.empty()) return false;
  Names names;
  const bool scanned = scanNames(path, &names);
  for (const Pattern& p : patterns_) {
    if (!p.target.empty() && p.target != target) continue;
    if (!scanned || matchFrom(p.names, 0, names, 0)) return true;
  }
  return false;
}

std::vector<ChangeInterest::Pattern> interestOf(const SubscriptionSpec& spec) {
  std::vector<ChangeInterest::Pattern> out;
  if (!spec.hasOnChange()) return out;
  for (const SubscriptionEntry& e : spec.entries) {
    if (e.mode == SubscriptionEntry::Mode::kSample) continue;
    ChangeInterest::Pattern p;
    p.target = e.pattern.target();
    for (const PathElem& elem : e.pattern.elems()) p.names.push_back(elem.name);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace rdmagw::northbound::gnmi
