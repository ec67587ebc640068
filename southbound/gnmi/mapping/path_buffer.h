#pragma once
// A path under construction as views, not strings: prefix + update path +
// the leaves of a JSON blob are pushed and popped here for every leaf, so the
// hot path parses nothing twice and allocates only the output path string.
// Views point into the Notification, the JSON text or arena_, which must
// outlive the buffer's use.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "gnmi.pb.h"

namespace rdmagw::southbound::gnmi {

struct KeyRef {
  std::string_view name;
  std::string_view value;
};

struct ElemRef {
  std::string_view name;  // what rows match: module prefix and DME "-[...]" removed
  std::string_view raw;   // what unknown leaves keep: "phys-[eth1/1]" as sent
  std::string_view rn;    // DME relative-name value: "eth1/1" of "phys-[eth1/1]"
  bool has_rn = false;
  uint32_t key_begin = 0;  // [key_begin, key_end) of PathBuffer::keys, sorted by name
  uint32_t key_end = 0;
};

// Limits that turn absurd input into an error line instead of a huge path.
inline constexpr size_t kMaxElems = 64;
inline constexpr size_t kMaxNameLength = 512;
inline constexpr size_t kMaxKeyValueLength = 1024;

class PathBuffer {
 public:
  std::vector<ElemRef> elems;
  std::vector<KeyRef> keys;

  void clear();
  // Drops elements (and their keys) beyond the first n.
  void truncate(size_t n);

  // Appends a gNMI path's elements. NX-OS DME paths arrive with the DN in
  // one element ("sys/intf/phys-[eth1/1]/dbgDot3Stats"), split per element
  // ("phys-[eth1/1]"), or cut at the '/' inside the brackets ("phys-[eth1",
  // "1]"): all three give the same elements. The deprecated `element` field
  // is read when `elem` is empty. On error returns false with *error set.
  bool appendProto(const ::gnmi::Path& path, std::string* error);

  // One element from JSON: `name` may carry a module prefix
  // ("openconfig-interfaces:counters") or be a DME rn ("phys-[eth1/1]").
  bool push(std::string_view name, std::string* error);
  // Adds a key to the last element (keeps the key range sorted).
  void addKey(std::string_view name, std::string_view value);
  void pop() { truncate(elems.size() - 1); }

  // "/a/b/c" of the match names, appended to out.
  void appendKeyless(std::string& out) const;
  // Canonical model path (Path::toString() form) of the raw names and keys.
  void appendCanonical(std::string& out) const;

  // Stable storage for rebuilt names (joined DN pieces, decoded JSON).
  std::string_view keep(std::string s);

 private:
  bool pushSegment(std::string_view segment, std::string* error);
  bool appendDn(std::string_view dn, std::string* error);
  std::deque<std::string> arena_;
  std::string pending_;  // a DN cut inside brackets, waiting for its rest
};

// Escaping of Path::toString(): names escape / [ ] = \, key values ] \.
void appendEscapedName(std::string& out, std::string_view name);
void appendEscapedValue(std::string& out, std::string_view value);

}  // namespace rdmagw::southbound::gnmi
