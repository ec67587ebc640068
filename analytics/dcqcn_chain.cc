#include "analytics/dcqcn_chain.h"

#include <map>

namespace rdmagw::analytics {
namespace {

bool moved(const std::optional<double>& rate) { return rate && *rate > 0; }

std::optional<double> rateOf(const std::optional<Increase>& inc) {
  if (!inc) return std::nullopt;
  return inc->rate();
}

}  // namespace

std::string_view dcqcnVerdictName(DcqcnVerdict v) {
  switch (v) {
    case DcqcnVerdict::kIdle: return "idle";
    case DcqcnVerdict::kWorking: return "working";
    case DcqcnVerdict::kMarksNoCnp: return "marks-no-cnp";
    case DcqcnVerdict::kCnpNotHandled: return "cnp-not-handled";
    case DcqcnVerdict::kCnpIgnored: return "cnp-ignored";
  }
  return "idle";
}

DcqcnVerdict judgeDcqcn(const DcqcnRates& r) {
  // As a receiver: marks that never became CNPs.
  if (moved(r.marks) && r.cnp_sent && *r.cnp_sent == 0) return DcqcnVerdict::kMarksNoCnp;
  // As a sender: CNPs arrived and the reaction point threw them away. Its
  // own verdict, not cnp-not-handled: the port to fix is this one, not
  // whoever sent it the CNPs.
  if (moved(r.ignored)) return DcqcnVerdict::kCnpIgnored;
  // As a receiver: CNPs went out and no sender anywhere slowed down. Only
  // when some other port counts CNPs handled at all: a lone host has no
  // senders to ask.
  if (moved(r.cnp_sent) && r.peers_handled && *r.peers_handled == 0) return DcqcnVerdict::kCnpNotHandled;
  if (moved(r.marks) || moved(r.cnp_sent) || moved(r.handled)) return DcqcnVerdict::kWorking;
  return DcqcnVerdict::kIdle;
}

void deriveDcqcn(const RunContext& ctx, DerivedWriter& out) {
  std::map<RdmaPortRef, DcqcnRates> rates;
  double handled_total = 0;
  size_t handled_ports = 0;
  for (const RdmaPortRef& p : ctx.inv.rdma_ports) {
    DcqcnRates& r = rates[p];
    r.marks = rateOf(ctx.increase(p.target, Input::kEcnMarked, p.device, p.port));
    r.cnp_sent = rateOf(ctx.increase(p.target, Input::kCnpSent, p.device, p.port));
    r.handled = rateOf(ctx.increase(p.target, Input::kCnpHandled, p.device, p.port));
    r.ignored = rateOf(ctx.increase(p.target, Input::kCnpIgnored, p.device, p.port));
    if (r.handled) {
      handled_total += *r.handled;
      ++handled_ports;
    }
    const PortRef* host = ctx.links.netdevPort(p);
    const PortRef* sw = host ? ctx.currentPeerOf(*host) : nullptr;
    auto q = sw ? ctx.inv.queues.find(*sw) : ctx.inv.queues.end();
    if (q != ctx.inv.queues.end()) {
      double sum = 0;
      bool any = false;
      for (const auto& [prio, queue] : q->second) {
        if (auto inc = ctx.increase(sw->target, Input::kQueueEcn, sw->iface, queue)) {
          sum += inc->rate();
          any = true;
        }
      }
      if (any) r.switch_marks = sum;
    }
  }
  for (auto& entry : rates) {
    // Plain references, not a structured binding: clang 14 cannot capture one in a lambda.
    const auto& p = entry.first;
    auto& r = entry.second;
    const bool own = r.handled.has_value();
    if (handled_ports > (own ? 1u : 0u)) r.peers_handled = handled_total - r.handled.value_or(0);
    // Nothing measured yet (first run, or the counters went stale): no verdict.
    if (!r.marks && !r.cnp_sent && !r.handled && !r.ignored) continue;
    const DcqcnVerdict v = judgeDcqcn(r);
    out.dcqcn(p, "verdict", std::string(dcqcnVerdictName(v)));
    out.dcqcn(p, "verdict-code", uint64_t(v));
    auto put = [&](std::string_view leaf, const std::optional<double>& rate) {
      if (rate) out.dcqcn(p, leaf, *rate);
    };
    put("switch-ecn-marked-rate", r.switch_marks);
    put("ecn-marked-rate", r.marks);
    put("cnp-sent-rate", r.cnp_sent);
    put("cnp-handled-rate", r.handled);
    put("cnp-ignored-rate", r.ignored);
    put("peers-cnp-handled-rate", r.peers_handled);
  }
}

}  // namespace rdmagw::analytics
