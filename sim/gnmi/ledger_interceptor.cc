#include "sim/gnmi/ledger_interceptor.h"

#include <grpcpp/grpcpp.h>

#include <cstring>
#include <string>

namespace rdmagw::sim {
namespace {

using grpc::experimental::InterceptionHookPoints;

ConnectionLedger::Rpc rpcOf(const char* method) {
  if (method == nullptr) return ConnectionLedger::Rpc::kOther;
  if (std::strcmp(method, "/gnmi.gNMI/Capabilities") == 0) return ConnectionLedger::Rpc::kCapabilities;
  if (std::strcmp(method, "/gnmi.gNMI/Subscribe") == 0) return ConnectionLedger::Rpc::kSubscribe;
  return ConnectionLedger::Rpc::kOther;
}

class LedgerInterceptor : public grpc::experimental::Interceptor {
 public:
  LedgerInterceptor(ConnectionLedger* ledger, grpc::experimental::ServerRpcInfo* info)
      : ledger_(ledger), info_(info), rpc_(rpcOf(info->method())) {}

  // The call is over (finished, cancelled or broken): its connection's
  // handshake, if still open, ends with it.
  ~LedgerInterceptor() override {
    if (started_) ledger_->rpcFinished(peer_, rpc_, ok_);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA) && !started_) {
      peer_ = info_->server_context()->peer();
      started_ = true;
      ledger_->rpcStarted(peer_, rpc_);
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE) && started_ &&
        !answered_ && rpc_ == ConnectionLedger::Rpc::kSubscribe) {
      answered_ = true;
      ledger_->firstResponse(peer_);
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS) && started_) {
      ok_ = methods->GetSendStatus().ok();
      ledger_->statusSending(peer_, rpc_, ok_);
    }
    methods->Proceed();
  }

 private:
  ConnectionLedger* const ledger_;
  grpc::experimental::ServerRpcInfo* const info_;
  const ConnectionLedger::Rpc rpc_;
  std::string peer_;
  bool started_ = false;
  bool answered_ = false;
  bool ok_ = false;  // stays false for a call cancelled before its status
};

class LedgerInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit LedgerInterceptorFactory(ConnectionLedger* ledger) : ledger_(ledger) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new LedgerInterceptor(ledger_, info);
  }

 private:
  ConnectionLedger* const ledger_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> makeLedgerInterceptorFactory(
    ConnectionLedger* ledger) {
  return std::make_unique<LedgerInterceptorFactory>(ledger);
}

}  // namespace rdmagw::sim
