#pragma once
// The one JSON reader of the southbound: device output (NX-OS `| json` /
// NX-API, `dcb -j`, `lldpctl -f json0`; each device's readers find where
// their JSON starts) and gNMI json_val / json_ietf_val blobs.
//
// Written here instead of using nlohmann::json or rapidjson (its SAX reader,
// measured in bench/json_reader_bench.cc with a handler that builds nothing,
// is slower than the strict form and no faster than the tolerant one)
// because numbers must keep their digits (a 64-bit counter never passes
// through a double, counters beyond 2^64 are refused, not rounded), nothing
// may throw, depth is capped, and a truncated or damaged device reply must
// still yield the rows read before the damage (a DOM parse is all or
// nothing). The nodes are one flat array reused across documents; strings
// are views into the input, decoded into an arena only when they hold
// escapes.
//
// Two entries, one grammar core:
//  - JsonDom::parse, strict (gNMI): the whole text is one RFC 8259 value;
//    anything else is an error with its byte offset and nothing is kept.
//  - parseJson, damage-tolerant (device output): what was read before the
//    damage is kept, containers cut short are marked partial, text after the
//    document (the next prompt) is ignored, numbers are the run of number
//    characters as written, and \u escapes beyond ASCII become '?'.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::text {

inline constexpr int kMaxJsonDepth = 64;  // nested arrays/objects

class JsonChildren;

struct JsonNode {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool partial = false;   // container cut short by damage (parseJson only)
  // Offsets to the first child and the next sibling in the node array, 0 for
  // none: relative, so a node reached by pointer walks without its JsonDom.
  uint32_t first_off = 0;
  uint32_t next_off = 0;
  std::string_view key;   // member name when the parent is an object
  std::string_view text;  // string contents, number digits as written, "true"/"false"

  bool isScalar() const { return kind == Kind::kBool || kind == Kind::kNumber || kind == Kind::kString; }
  bool isContainer() const { return kind == Kind::kArray || kind == Kind::kObject; }
  const JsonNode* firstChild() const { return first_off == 0 ? nullptr : this + first_off; }
  const JsonNode* nextSibling() const { return next_off == 0 ? nullptr : this + next_off; }
  // First member named `key` of an object, else nullptr.
  const JsonNode* get(std::string_view key) const;
  // Members or elements, in document order.
  JsonChildren children() const;
  size_t size() const;                   // number of children (walks them)
  const JsonNode* at(size_t i) const;    // the i-th child, or nullptr
};

// The children of a node for range-for: a walk along the sibling offsets.
class JsonChildren {
 public:
  class iterator {
   public:
    explicit iterator(const JsonNode* n = nullptr) : n_(n) {}
    const JsonNode& operator*() const { return *n_; }
    const JsonNode* operator->() const { return n_; }
    iterator& operator++() { return n_ = n_->nextSibling(), *this; }
    bool operator==(const iterator& o) const = default;

   private:
    const JsonNode* n_;
  };
  explicit JsonChildren(const JsonNode* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(); }
  bool empty() const { return first_ == nullptr; }

 private:
  const JsonNode* first_;
};

inline JsonChildren JsonNode::children() const { return JsonChildren(firstChild()); }

class JsonDom {
 public:
  // Strict: the whole text is one value, else an error "bad JSON at offset
  // N: why" and no nodes. Views point into `text` and into `arena`
  // (decoded strings), which must outlive the nodes' use.
  Status parse(std::string_view text, std::deque<std::string>& arena);
  // Damage-tolerant (see the header comment): true when the document parsed
  // whole; else error() says why, "why at byte N", and the nodes read before
  // the damage are kept.
  bool parseDamaged(std::string_view text, std::deque<std::string>& arena);

  const JsonNode* root() const { return nodes_.empty() ? nullptr : &nodes_.front(); }
  const std::string& error() const { return error_; }

 private:
  // kDamaged picks the form at compile time: the strict form is the gNMI
  // hot path and pays for no test of the other's leniency per byte.
  template <bool kDamaged> bool run(std::string_view text, std::deque<std::string>& arena);
  template <bool kDamaged> bool value(uint32_t parent, uint32_t& last, std::string_view key, int depth);
  template <bool kDamaged> bool string(std::string_view& out);
  template <bool kDamaged> bool decode(std::string_view raw, std::string& out);
  template <bool kDamaged> bool number(std::string_view& out);
  bool fail(const char* why);
  void skipWs();
  uint32_t add(const JsonNode& n, uint32_t parent, uint32_t& last);

  std::vector<JsonNode> nodes_;
  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
  std::deque<std::string>* arena_ = nullptr;
};

// A damage-tolerant parse that owns its nodes and decoded strings; its views
// still point into the text given to parseJson, which must outlive it.
struct JsonParse {
  JsonParse() = default;
  JsonParse(JsonParse&&) = default;
  JsonParse& operator=(JsonParse&&) = default;
  // Copying would leave the views on the other parse's decoded strings.
  JsonParse(const JsonParse&) = delete;
  JsonParse& operator=(const JsonParse&) = delete;

  // The document, or a null node when nothing was read.
  const JsonNode& root() const;

  bool complete = false;  // the whole document parsed
  std::string error;      // why not, with the byte offset
  JsonDom dom;
  std::deque<std::string> arena;
};

// Parses `text`; on an error the containers read so far are kept (marked
// partial, with every container around them) and scalars in progress are
// dropped.
JsonParse parseJson(std::string_view text);

// NX-OS wraps rows as TABLE_x: {ROW_x: {...} | [{...}, ...]}. Collects every
// object under a member named `row_key`, at any depth below `v`, a single
// object and a list alike, in document order.
void collectRows(const JsonNode& v, std::string_view row_key, std::vector<const JsonNode*>& out);

}  // namespace rdmagw::southbound::text
