// The JSON reader (southbound/text/json_reader.h) in its strict form, as
// the gNMI southbound calls it through flattenJson: a json_val /
// json_ietf_val blob a switch sent, received at a base path, flattened into
// leaves. Malformed JSON must come back as an error with nothing appended.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "models/path.h"
#include "southbound/gnmi/mapping/notification_mapper.h"

using namespace rdmagw;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Path base = *Path::parse("/interfaces/interface[name=eth1/1]/state");
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  std::vector<std::pair<Path, Value>> out;
  Status st = southbound::gnmi::flattenJson(json, base, 1'700'000'000'000'000'000, out);
  (void)st.toString();
  for (const auto& [path, value] : out) {
    // Every leaf lies under the base it was received at, in a form the
    // store can hold.
    if (!path.hasPrefix(base)) __builtin_trap();
    Result<Path> again = Path::parse(path.toString());
    if (!again.isOk() || !(*again == path)) __builtin_trap();
    (void)valueToString(value);
  }
  return 0;
}
