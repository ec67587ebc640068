#include "northbound/gnmi/fleet_get.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "models/value.h"
#include "northbound/gnmi/get_handler.h"

namespace rdmagw::northbound::gnmi {
namespace {

struct Part {
  MemberRoute route;
  grpc::ClientContext ctx;
  std::unique_ptr<::gnmi::gNMI::Stub> stub;
  std::shared_ptr<MemberForwardStats> counts;
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
    std::vector<const Part*> silent;  // members that did not answer, in name order
    for (const std::unique_ptr<Part>& p : parts) {
      if (p->status.error_code() == grpc::StatusCode::NOT_FOUND) {
        if (not_found.empty()) not_found = p->status.error_message();
        continue;
      }
      if (!p->status.ok()) {
        if (didNotAnswer(*p)) {
          silent.push_back(p.get());
          continue;
        }
        done(memberError(*p));
        return;
      }
      for (::gnmi::Notification& n : *p->response.mutable_notification()) out->add_notification()->Swap(&n);
    }
    if (out->notification_size() == 0) {
      if (!silent.empty()) {  // nothing to return: the gap is the answer
        std::string why;
        for (const Part* p : silent) why += (why.empty() ? "" : "; ") + memberError(*p).error_message();
        done(grpc::Status(grpc::StatusCode::UNAVAILABLE, why));
        return;
      }
      done(grpc::Status(grpc::StatusCode::NOT_FOUND, not_found.empty() ? "no data on any member" : not_found));
      return;
    }
    for (const Part* p : silent) {
      const grpc::Status st = memberError(*p);
      *out->add_notification() =
          missingMemberNotification(p->route.member, grpcCodeName(st.error_code()) + (": " + st.error_message()));
    }
    done(grpc::Status::OK);
  }

  // A member that is gone or slow (as opposed to one that refused).
  static bool didNotAnswer(const Part& p) {
    const grpc::StatusCode code = p.status.error_code();
    return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED ||
           code == grpc::StatusCode::CANCELLED;
  }

  static grpc::Status memberError(const Part& p) {
    // A member that is gone or slow is this Get's unavailability; what the
    // member refused (a bad path, a bad user) is passed on as it said it.
    if (didNotAnswer(p)) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, "fleet member " + p.route.member + " (" + p.route.address +
                                                             ") did not answer: " + p.status.error_message());
    }
    return grpc::Status(p.status.error_code(), "fleet member " + p.route.member + ": " + p.status.error_message());
  }
};

}  // namespace

std::chrono::system_clock::time_point memberDeadline(std::chrono::system_clock::time_point client_deadline,
                                                     std::chrono::system_clock::time_point now) {
  if (client_deadline <= now) return client_deadline;
  const auto reserve =
      std::min<std::chrono::system_clock::duration>(std::chrono::seconds(1), (client_deadline - now) / 10);
  return std::min(client_deadline - reserve, now + kMemberGetLimit);
}

::gnmi::Notification missingMemberNotification(const std::string& member, const std::string& detail) {
  ::gnmi::Notification n;
  n.set_timestamp(nowNs());
  n.mutable_prefix()->set_target("*");
  ::gnmi::Path* path = n.add_update()->mutable_path();
  path->add_elem()->set_name("fleet");
  ::gnmi::PathElem* m = path->add_elem();
  m->set_name("member");
  (*m->mutable_key())["name"] = member;
  path->add_elem()->set_name("error");
  n.mutable_update(0)->mutable_val()->set_string_val(detail);
  return n;
}

void fleetGet(const Store& store, const ::gnmi::GetRequest& request, ::gnmi::GetResponse* response, bool local,
              const std::vector<MemberRoute>& routes, MemberChannels& channels, ServerStats& stats,
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
    p->counts = stats.forwardingTo(r.member);
    Result<std::shared_ptr<grpc::Channel>> ch = channels.channel(r.address);
    if (!ch.isOk()) {
      p->status = grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, ch.status().message());
    } else {
      p->stub = ::gnmi::gNMI::NewStub(*ch);
    }
    for (const auto& [k, v] : metadata) p->ctx.AddMetadata(k, v);
    p->ctx.set_deadline(memberDeadline(deadline, std::chrono::system_clock::now()));
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
      if (part->status.ok()) {
        part->counts->notifications.fetch_add(uint64_t(part->response.notification_size()));
        part->counts->bytes.fetch_add(part->response.ByteSizeLong());
      }
      arrive();
    });
  }
  arrive();
}

}  // namespace rdmagw::northbound::gnmi
