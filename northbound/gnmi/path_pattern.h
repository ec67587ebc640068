#pragma once
// A gNMI request path (prefix + path) checked once and matched against the
// store's paths (models/path.h form, parsed with Path::parse).
//
// What a pattern may hold (gNMI path conventions):
//   - an element named "*" matches exactly one element;
//   - an element named "..." matches zero or more elements;
//   - a key given as "*", or a key left out, matches any value;
//   - origin "" and "openconfig" name the OpenConfig-shaped tree, "rdmagw"
//     names the same tree through our own modules (yang/): the store holds
//     one tree, so all three address the same leaves;
//   - prefix.target names one target, or "*" (or nothing) for every target;
//     under such a prefix a path may name its own target (our extension).
// A pattern matches a store path when it matches a leading part of it: a
// path naming a container selects every leaf beneath.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gnmi.pb.h"
#include "models/path.h"
#include "models/status.h"

namespace rdmagw::northbound::gnmi {

// Origins this server answers; anything else is INVALID_ARGUMENT.
inline constexpr std::string_view kOriginOpenconfig = "openconfig";
inline constexpr std::string_view kOriginRdmagw = "rdmagw";

class PathPattern {
 public:
  // Joins `prefix` and `path` and checks the result; the error names the
  // element or key that was wrong (Status::Code::kInvalidArgument).
  static Result<PathPattern> fromRequest(const ::gnmi::Path& prefix, const ::gnmi::Path& path);

  // True when `target` is selected by the request's (or the path's) target.
  bool selectsTarget(std::string_view target) const {
    return target_.empty() || target_ == "*" || target_ == target;
  }
  // The one target named, or empty when the pattern selects every target.
  std::string_view singleTarget() const {
    return target_ == "*" ? std::string_view() : std::string_view(target_);
  }
  const std::string& target() const { return target_; }
  const std::vector<PathElem>& elems() const { return elems_; }

  // How many leading elements of `path` the pattern matched (a trailing
  // "..." consumes none), or nullopt when it does not match. Equal to
  // path.elems().size() when the pattern names the leaf itself.
  std::optional<size_t> match(const Path& path) const;

  // The pattern in path string form, for error texts.
  std::string toString() const;

 private:
  // `dead` (null when the pattern has at most one "..." before its end)
  // remembers the (pattern, path) positions already found not to match:
  // without it, k inner "..." against a path of n elements try n^k splits.
  std::optional<size_t> matchFrom(const std::vector<PathElem>& elems, size_t pi, size_t ei,
                                  std::vector<bool>* dead) const;

  std::string target_;
  std::vector<PathElem> elems_;  // names may be "*" or "..."; key values may be "*"
  size_t inner_multi_ = 0;        // "..." elements that are not the last one
};

// The store-side Path of the first `n` elements of `path`.
Path leadingElems(const Path& path, size_t n);

// Converts between the store's Path and gNMI's Path message.
void toGnmiPath(const Path& path, ::gnmi::Path* out);
void toGnmiPath(const std::vector<PathElem>& elems, size_t begin, size_t end, ::gnmi::Path* out);

}  // namespace rdmagw::northbound::gnmi
