#pragma once
// A tolerant reader for vsish's -pe ("python") output: JSON objects with
// trailing commas, raw newlines inside strings, a chatter line before the
// '{'. Only what the stats parser needs: a flat list of members, nested
// objects flattened with the parent's key. Pure, no exceptions.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rdmagw::southbound::esxi {

struct PeMember {
  std::string parent;  // key of the enclosing object; empty at the top level
  std::string key;
  enum class Kind { kNumber, kString, kOther } kind = Kind::kOther;
  std::string text;    // number as written, or the unescaped string
  size_t line = 0;     // where the member started
};

struct PeParse {
  std::vector<PeMember> members;  // complete members only
  std::string error;              // empty when the object closed cleanly
};

// Parses the first top-level object of text.
PeParse parsePeObject(std::string_view text);

}  // namespace rdmagw::southbound::esxi
