// The gNMI server's Get (northbound/gnmi/get_handler.h): a GetRequest
// decoded from the fuzz bytes as protobuf, validated and answered from a
// store holding leaves on three targets, with no server or channel around
// it (the service calls answerGet the same way after authentication).

#include <cstddef>
#include <cstdint>

#include "gnmi.pb.h"
#include "northbound/gnmi/get_handler.h"
#include "tests/northbound/gnmi/test_store.h"

using namespace rdmagw;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Store* store = [] {
    auto* s = new Store();
    testing::fillTestStore(*s);
    return s;
  }();
  gnmi::GetRequest request;
  if (!request.ParseFromArray(data, int(size))) return 0;
  gnmi::GetResponse response;
  grpc::Status st = northbound::gnmi::answerGet(*store, request, &response);
  // A refusal is a gRPC error with a message; the client sees nothing else.
  if (!st.ok() && st.error_message().empty()) __builtin_trap();
  (void)response.ByteSizeLong();
  return 0;
}
