#pragma once
// Parsed store paths, kept by the subscription dispatcher so a sample or a
// change does not parse the same path string again for every subscriber.
// Entries are shared: a queued leaf keeps its parsed path alive even after
// the cache forgot it. Single-threaded (the dispatcher's).

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "models/path.h"
#include "models/value.h"
#include "northbound/gnmi/yang_tree.h"

namespace rdmagw::northbound::gnmi {

struct ParsedLeaf {
  Path path;
  bool counter = false;  // the schema says counter: TARGET_DEFINED samples it
  // The leaf's YANG type for JSON_IETF; null when the schema has none.
  const YangLeafType* yang = nullptr;
};
using ParsedLeafPtr = std::shared_ptr<const ParsedLeaf>;

// A store change as the dispatcher hands it to sessions.
struct ChangedLeaf {
  std::string target;
  std::string path;
  ParsedLeafPtr leaf;
  Value value;
  TimestampNs timestamp_ns = 0;
  bool deleted = false;
  int64_t seen_ns = 0;  // steady clock, when the store applied the change
};

// Parses one store path (null when invalid) and looks up its schema.
ParsedLeafPtr parseLeaf(std::string_view path);

class LeafCache {
 public:
  // Past `max_entries` distinct paths the cache starts over: memory stays
  // bounded whatever paths devices invent.
  explicit LeafCache(size_t max_entries = 1'000'000) : max_entries_(max_entries) {}

  // The parsed path, or null when the string is not a valid path.
  ParsedLeafPtr lookup(std::string_view path);
  size_t size() const { return by_path_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  const size_t max_entries_;
  std::unordered_map<std::string, ParsedLeafPtr, Hash, std::equal_to<>> by_path_;
};

}  // namespace rdmagw::northbound::gnmi
