#pragma once
// A small JSON reader for device output: NX-OS `| json` / NX-API, `dcb -j`,
// `lldpctl -f json0` (each device's readers find where their JSON starts).
// Written here instead of using nlohmann::json because a truncated or
// damaged reply must still yield the rows read before the damage (nlohmann's
// DOM parse is all or nothing), numbers must keep their digits (counters
// beyond 2^64 are refused, not rounded through double) and nothing may throw.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmagw::southbound::text {

struct JsonValue {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  // Defined in the .cc: clang 14 with libstdc++ 12 cannot instantiate the
  // implicit ones (pair<string, JsonValue> inside JsonValue recurses).
  JsonValue();
  JsonValue(const JsonValue&);
  JsonValue(JsonValue&&) noexcept;
  JsonValue& operator=(const JsonValue&);
  JsonValue& operator=(JsonValue&&) noexcept;
  ~JsonValue();

  Type type = Type::kNull;
  std::string text;  // string contents, number digits as written, "true"/"false"
  std::vector<JsonValue> items;                              // kArray
  std::vector<std::pair<std::string, JsonValue>> members;    // kObject, in order
  bool partial = false;  // container cut short by a parse error

  const JsonValue* get(std::string_view key) const;  // first member named key
  bool isScalar() const { return type == Type::kString || type == Type::kNumber || type == Type::kBool; }
};

struct JsonParse {
  JsonValue root;
  bool complete = false;  // the whole input parsed
  std::string error;      // why not, with the byte offset
};

// Parses `text`; on an error the containers read so far are kept (marked
// partial) and scalars in progress are dropped. Nesting deeper than 64 is an
// error.
JsonParse parseJson(std::string_view text);

// NX-OS wraps rows as TABLE_x: {ROW_x: {...} | [{...}, ...]}. Collects every
// object under a member named `row_key`, at any depth, a single object and a
// list alike, in document order.
void collectRows(const JsonValue& v, std::string_view row_key, std::vector<const JsonValue*>& out);

}  // namespace rdmagw::southbound::text
