#pragma once
// The DCQCN chain per host RDMA port: ECN marks the switch applied on the
// egress queue toward the host -> np_ecn_marked_roce_packets on the host ->
// np_cnp_sent there -> rp_cnp_handled on the senders. Which hosts send to
// which is not known to the gateway (no flow data), so "the senders" are
// every other RDMA port it sees: CNPs sent while no other port handled any
// means the senders' reaction point is off or the CNPs were lost.

#include <optional>
#include <string_view>

#include "analytics/derived_writer.h"
#include "analytics/run_context.h"

namespace rdmagw::analytics {

// Exported as verdict-code; the numbers are part of the interface (the
// docs, YANG, alert rules, SNMP notifications): never renumber.
enum class DcqcnVerdict : uint64_t {
  kIdle = 0,           // no marks, no CNPs in the window
  kWorking = 1,        // marks answered by CNPs, CNPs handled
  kMarksNoCnp = 2,     // CE marks received, no CNP sent: the receiver's NP is off
  kCnpNotHandled = 3,  // CNPs sent, none handled anywhere: RP off on the senders, or CNPs lost
  kCnpIgnored = 4,     // this port, as a sender, ignores the CNPs it gets (rp_cnp_ignored rising): its RP is off
};
std::string_view dcqcnVerdictName(DcqcnVerdict v);

// Packets per second over the window; absent when the counter is.
struct DcqcnRates {
  std::optional<double> switch_marks;   // the linked switch port's queues toward the host
  std::optional<double> marks;          // np_ecn_marked_roce_packets
  std::optional<double> cnp_sent;       // np_cnp_sent
  std::optional<double> handled;        // rp_cnp_handled on this port (as a sender)
  std::optional<double> ignored;        // rp_cnp_ignored on this port
  std::optional<double> peers_handled;  // rp_cnp_handled summed over every other port
};

DcqcnVerdict judgeDcqcn(const DcqcnRates& r);

void deriveDcqcn(const RunContext& ctx, DerivedWriter& out);

}  // namespace rdmagw::analytics
