#pragma once
// Walks a parsed JSON blob and reports every scalar leaf with its full path
// in a PathBuffer (base elements already pushed by the caller).
//
// Shapes seen from NX-OS and OpenConfig targets:
//   {"pfcTxPpp": 12, "txPackets": "34"}             leaves of the base
//   {"state": {"counters": {"in-octets": 5}}}        nested containers
//   {"QueuingStats-list": [{"cmapName": "c-out-8q-q3", ...}]}
//                                                    list entries, keyed
//   {"rmonDot3Stats": {"attributes": {...}, "children": [...]}}
//                                                    DME object (REST shape)
//   "up", 12                                         a scalar at the base
//   [{"name": "eth1/1", ...}]                        entries of the base list

#include <string>
#include <string_view>

#include "southbound/gnmi/mapping/path_buffer.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::gnmi {

class JsonLeafSink {
 public:
  virtual ~JsonLeafSink() = default;
  // `value` is a scalar node, or, for a leaf-list, a string node whose text
  // is the elements joined with ','.
  virtual void leaf(const PathBuffer& path, const text::JsonNode& value) = 0;
  virtual void error(std::string message) = 0;
};

// Walks dom from its root. A list entry without any key leaf is reported as
// an error and skipped: a series without identity would jump between entries.
void walkJson(const text::JsonDom& dom, PathBuffer& path, JsonLeafSink& sink);

}  // namespace rdmagw::southbound::gnmi
