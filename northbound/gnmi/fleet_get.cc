#include "northbound/gnmi/fleet_get.h"

#include <memory>
#include <mutex>

#include "northbound/gnmi/get_handler.h"

namespace rdmagw::northbound::gnmi {
namespace {

struct Part {
  MemberRoute route;
  grpc::ClientContext ctx;
  std::unique_ptr<::gnmi::gNMI::Stub> stub;
  ::gnmi::GetResponse response;
  grpc::Status status;
};

struct Fanout {
  bool local = false;
  grpc::Status local_status;
  ::gnmi::GetResponse local_response;
  std::vector<std::unique_ptr<Part>> parts;
  ::gnmi::GetResponse* out = nullptr;
  std::function<void(const grpc::Status&)> done;
  std::mutex mu;
  size_t pending = 0;  // guarded by mu

  void finish() {
    if (!local && parts.size() == 1) {  // one owner: its answer as it gave it
      Part& p = *parts.front();
      if (p.status.ok()) {
        out->Swap(&p.response);
        done(grpc::Status::OK);
      } else {
        done(memberError(p));
      }
      return;
    }
    std::string not_found;
    if (local) {
      if (local_status.ok()) {
        for (::gnmi::Notification& n : *local_response.mutable_notification()) out->add_notification()->Swap(&n);
      } else if (local_status.error_code() == grpc::StatusCode::NOT_FOUND) {
        not_found = local_status.error_message();
      } else {
        done(local_status);  // the request itself is wrong: every member would say so
        return;
      }
    }
    for (const std::unique_ptr<Part>& p : parts) {
      if (p->status.error_code() == grpc::StatusCode::NOT_FOUND) {
        if (not_found.empty()) not_found = p->status.error_message();
        continue;
      }
      if (!p->status.ok()) {
        done(memberError(*p));
        return;
      }
      for (::gnmi::Notification& n : *p->response.mutable_notification()) out->add_notification()->Swap(&n);
    }
    if (out->notification_size() == 0) {
      done(grpc::Status(grpc::StatusCode::NOT_FOUND, not_found.empty() ? "no data on any member" : not_found));
      return;
    }
    done(grpc::Status::OK);
  }

  static grpc::Status memberError(const Part& p) {
    const grpc::StatusCode code = p.status.error_code();
    // A member that is gone or slow is this Get's unavailability; what the
    // member refused (a bad path, a bad user) is passed on as it said it.
    if (code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED ||
        code == grpc::StatusCode::CANCELLED) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, "fleet member " + p.route.member + " (" + p.route.address +
                                                             ") did not answer: " + p.status.error_message());
    }
    return grpc::Status(code, "fleet member " + p.route.member + ": " + p.status.error_message());
  }
};

}  // namespace

void fleetGet(const Store& store, const ::gnmi::GetRequest& request, ::gnmi::GetResponse* response,
              bool local, const std::vector<MemberRoute>& routes, MemberChannels& channels,
              const std::vector<std::pair<std::string, std::string>>& metadata,
              std::chrono::system_clock::time_point deadline, std::function<void(const grpc::Status&)> done) {
  auto fan = std::make_shared<Fanout>();
  fan->local = local;
  fan->out = response;
  fan->done = std::move(done);
  if (local) fan->local_status = answerGet(store, request, &fan->local_response);
  for (const MemberRoute& r : routes) {
    auto p = std::make_unique<Part>();
    p->route = r;
    Result<std::shared_ptr<grpc::Channel>> ch = channels.channel(r.address);
    if (!ch.isOk()) {
      p->status = grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, ch.status().message());
    } else {
      p->stub = ::gnmi::gNMI::NewStub(*ch);
    }
    for (const auto& [k, v] : metadata) p->ctx.AddMetadata(k, v);
    p->ctx.set_deadline(deadline);
    fan->parts.push_back(std::move(p));
  }
  fan->pending = fan->parts.size() + 1;  // +1: released below, once every call is started
  auto arrive = [fan] {
    bool last = false;
    {
      std::lock_guard lock(fan->mu);
      last = --fan->pending == 0;
    }
    if (last) fan->finish();
  };
  for (const std::unique_ptr<Part>& p : fan->parts) {
    if (!p->stub) {
      arrive();
      continue;
    }
    Part* part = p.get();
    part->stub->async()->Get(&part->ctx, &request, &part->response, [part, arrive](grpc::Status st) {
      part->status = std::move(st);
      arrive();
    });
  }
  arrive();
}

}  // namespace rdmagw::northbound::gnmi
