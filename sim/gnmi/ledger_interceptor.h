#pragma once
// The gRPC server interceptor that feeds a target's ConnectionLedger: it
// sees every RPC's peer, its first response and its end, without the
// services knowing.

#include <grpcpp/support/server_interceptor.h>

#include <memory>

#include "sim/gnmi/connection_ledger.h"

namespace rdmagw::sim {

// `ledger` must outlive the server the factory is given to.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> makeLedgerInterceptorFactory(
    ConnectionLedger* ledger);

}  // namespace rdmagw::sim
