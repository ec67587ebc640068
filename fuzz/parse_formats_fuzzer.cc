// Every `rdmagw parse` format, found through the same registry the command
// uses (gateway/runtime/builtin_components.cc), so a format added there is fuzzed
// without touching this file.
//
// Input: "FORMAT\n" followed by the device output. When the first line names
// no format, the first byte picks one: a mutation of the name still reaches
// a parser instead of being thrown away.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gateway/runtime/registry.h"
#include "models/path.h"
#include "models/value.h"

using rdmagw::PollBatch;
using rdmagw::gateway::ParserEntry;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<ParserEntry> formats = rdmagw::gateway::parserFormats();
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const ParserEntry* parser = nullptr;
  if (size_t nl = in.find('\n'); nl != std::string_view::npos) {
    parser = rdmagw::gateway::findParser(in.substr(0, nl));
    if (parser != nullptr) in.remove_prefix(nl + 1);
  }
  if (parser == nullptr) {
    if (in.empty()) return 0;
    parser = &formats[uint8_t(in.front()) % formats.size()];
    in.remove_prefix(1);
  }
  PollBatch batch;
  (void)parser->parse(in, 1'700'000'000'000'000'000, batch);
  // What `rdmagw parse` prints, and what the store and every northbound
  // will read: the paths must be in the canonical form Path::parse reads
  // back, whatever names the device sent.
  for (const rdmagw::Update& u : batch.updates) {
    (void)rdmagw::valueToString(u.value);
    rdmagw::Result<rdmagw::Path> p = rdmagw::Path::parse(u.path);
    if (!p.isOk() || p->toString() != u.path) __builtin_trap();
  }
  return 0;
}
