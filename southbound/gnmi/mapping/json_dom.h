#pragma once
// A small JSON reader for gNMI json_val / json_ietf_val blobs: one flat node
// array reused across blobs, strings as views into the input (decoded only
// when they hold escapes), numbers kept as their digits so a 64-bit counter
// never passes through a double. Nothing throws; depth is capped.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::gnmi {

inline constexpr uint32_t kNoNode = UINT32_MAX;
inline constexpr int kMaxJsonDepth = 64;

struct JsonNode {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string_view key;    // member name when the parent is an object
  std::string_view text;   // string contents, number digits, "true"/"false"
  uint32_t first = kNoNode;  // first child (arrays, objects)
  uint32_t next = kNoNode;   // next sibling
  bool isScalar() const { return kind == Kind::kBool || kind == Kind::kNumber || kind == Kind::kString; }
};

class JsonDom {
 public:
  // Parses the whole text; on error returns it with the byte offset. Decoded
  // strings live in `arena`, which must outlive the nodes' use.
  Status parse(std::string_view text, std::deque<std::string>& arena);

  const JsonNode& node(uint32_t i) const { return nodes_[i]; }
  uint32_t root() const { return nodes_.empty() ? kNoNode : 0; }
  // First member of object `obj` named `key`, or kNoNode.
  uint32_t member(uint32_t obj, std::string_view key) const;

 private:
  bool value(uint32_t parent, uint32_t& last, std::string_view key, int depth);
  bool string(std::string_view& out);
  bool number(std::string_view& out);
  void skipWs();
  uint32_t add(JsonNode n, uint32_t parent, uint32_t& last);

  std::vector<JsonNode> nodes_;
  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
  std::deque<std::string>* arena_ = nullptr;
};

}  // namespace rdmagw::southbound::gnmi
