#pragma once
// The gRPC channel to one gNMI target, built fresh at every dial so rotated
// certificates are picked up, and the classification of gRPC statuses into
// "retry soon" and "give up on gNMI for a while".

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "models/status.h"
#include "southbound/gnmi/gnmi_config.h"

namespace rdmagw::southbound::gnmi {

// TLS from ca_file (+ optional client cert/key), insecure_skip_verify or
// plaintext as configured. Channel args: keepalive that NX-OS accepts
// (keepalive_time >= 60 s or off, no pings without data), 64 MiB receive
// limit, a private subchannel pool (each dial really reconnects).
Result<std::shared_ptr<grpc::Channel>> makeChannel(const GnmiConfig& config);

enum class FailureClass {
  kRetry,  // transient: jittered exponential backoff
  kFatal,  // configuration or device refuses gNMI: fall back, retry on the long timer
};
// UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, RESOURCE_EXHAUSTED (and anything
// unlisted) retry; UNIMPLEMENTED, INVALID_ARGUMENT, PERMISSION_DENIED,
// UNAUTHENTICATED, FAILED_PRECONDITION are fatal.
FailureClass classify(grpc::StatusCode code);

// "UNAVAILABLE", "UNAUTHENTICATED", ...
const char* statusCodeName(grpc::StatusCode code);

}  // namespace rdmagw::southbound::gnmi
