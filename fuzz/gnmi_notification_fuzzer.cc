// What a gNMI peer (a switch, or another rdmagw) sends the southbound: a
// SubscribeResponse decoded from the fuzz bytes as protobuf, its
// notification mapped into model updates (southbound/gnmi/mapping/
// notification_mapper.h), JSON blobs, DME paths and deletes included.

#include <cstddef>
#include <cstdint>

#include "gnmi.pb.h"
#include "models/path.h"
#include "southbound/gnmi/mapping/notification_mapper.h"

using namespace rdmagw;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ::gnmi::SubscribeResponse response;
  if (!response.ParseFromArray(data, int(size)) || !response.has_update()) return 0;
  southbound::gnmi::MappedNotification out;
  Status st = southbound::gnmi::mapNotification(response.update(), 1'700'000'000'000'000'000, out);
  (void)st.toString();
  for (const Update& u : out.updates) {
    // The store and every northbound read these paths back.
    Result<Path> p = Path::parse(u.path);
    if (!p.isOk() || p->toString() != u.path) __builtin_trap();
  }
  for (const std::string& d : out.deletes) {
    if (!Path::parse(d).isOk()) __builtin_trap();
  }
  return 0;
}
