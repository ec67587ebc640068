#include "southbound/rdma/counter_table.h"

#include <span>

namespace rdmagw::southbound::rdma {
namespace {

// Same values as CounterSource's named constructors, which are not constexpr.
constexpr CounterSource k64{64, false};
constexpr CounterSource sat(uint8_t bits) { return CounterSource{bits, true}; }
constexpr CounterSource wrap(uint8_t bits) { return CounterSource{bits, false}; }

// IBA PortCounters widths (IBTA vol. 1, 16.1.3.5): the error counters are
// 4 to 16 bits and stick at all-ones. The data and packet counters come from
// PortCountersExtended on every HCA we target (64-bit).
constexpr CounterSpec kPma[] = {
    {"port_xmit_data", "port-xmit-octets", 4, k64},
    {"port_rcv_data", "port-rcv-octets", 4, k64},
    {"port_xmit_packets", "port-xmit-packets", 1, k64},
    {"port_rcv_packets", "port-rcv-packets", 1, k64},
    {"unicast_xmit_packets", "unicast-xmit-packets", 1, k64},
    {"unicast_rcv_packets", "unicast-rcv-packets", 1, k64},
    {"multicast_xmit_packets", "multicast-xmit-packets", 1, k64},
    {"multicast_rcv_packets", "multicast-rcv-packets", 1, k64},
    {"port_xmit_wait", "port-xmit-wait", 1, k64},
    {"symbol_error", "symbol-error", 1, sat(16)},
    {"link_error_recovery", "link-error-recovery", 1, sat(8)},
    {"link_downed", "link-downed", 1, sat(8)},
    {"port_rcv_errors", "port-rcv-errors", 1, sat(16)},
    {"port_rcv_remote_physical_errors", "port-rcv-remote-physical-errors", 1, sat(16)},
    {"port_rcv_switch_relay_errors", "port-rcv-switch-relay-errors", 1, sat(16)},
    {"port_xmit_discards", "port-xmit-discards", 1, sat(16)},
    {"port_xmit_constraint_errors", "port-xmit-constraint-errors", 1, sat(8)},
    {"port_rcv_constraint_errors", "port-rcv-constraint-errors", 1, sat(8)},
    {"local_link_integrity_errors", "local-link-integrity-errors", 1, sat(4)},
    {"excessive_buffer_overrun_errors", "excessive-buffer-overrun-errors", 1, sat(4)},
    {"VL15_dropped", "vl15-dropped", 1, sat(16)},
};

// mlx5 hw_counters: congestion counters are 64-bit; the queue counters come
// from 32-bit firmware registers and wrap at 2^32.
constexpr CounterSpec kHw[] = {
    {"np_ecn_marked_roce_packets", "np-ecn-marked-roce-packets", 1, k64},
    {"np_cnp_sent", "np-cnp-sent", 1, k64},
    {"rp_cnp_handled", "rp-cnp-handled", 1, k64},
    {"rp_cnp_ignored", "rp-cnp-ignored", 1, k64},
    {"rx_icrc_encapsulated", "rx-icrc-encapsulated", 1, k64},
    {"out_of_buffer", "out-of-buffer", 1, wrap(32)},
    {"out_of_sequence", "out-of-sequence", 1, wrap(32)},
    {"duplicate_request", "duplicate-request", 1, wrap(32)},
    {"rnr_nak_retry_err", "rnr-nak-retry-err", 1, wrap(32)},
    {"packet_seq_err", "packet-seq-err", 1, wrap(32)},
    {"implied_nak_seq_err", "implied-nak-seq-err", 1, wrap(32)},
    {"local_ack_timeout_err", "local-ack-timeout-err", 1, wrap(32)},
    {"req_cqe_error", "req-cqe-error", 1, wrap(32)},
    {"resp_cqe_error", "resp-cqe-error", 1, wrap(32)},
    {"req_cqe_flush_error", "req-cqe-flush-error", 1, wrap(32)},
    {"resp_cqe_flush_error", "resp-cqe-flush-error", 1, wrap(32)},
    {"req_remote_access_errors", "req-remote-access-errors", 1, wrap(32)},
    {"resp_remote_access_errors", "resp-remote-access-errors", 1, wrap(32)},
    {"req_remote_invalid_request", "req-remote-invalid-request", 1, wrap(32)},
    {"resp_local_length_error", "resp-local-length-error", 1, wrap(32)},
    {"req_transport_retries_exceeded", "req-transport-retries-exceeded", 1, wrap(32)},
    {"rx_write_requests", "rx-write-requests", 1, wrap(32)},
    {"rx_read_requests", "rx-read-requests", 1, wrap(32)},
    {"rx_atomic_requests", "rx-atomic-requests", 1, wrap(32)},
    {"rx_dct_connect", "rx-dct-connect", 1, wrap(32)},
    {"roce_adp_retrans", "roce-adp-retrans", 1, wrap(32)},
    {"roce_adp_retrans_to", "roce-adp-retrans-to", 1, wrap(32)},
    {"roce_slow_restart", "roce-slow-restart", 1, wrap(32)},
    {"roce_slow_restart_cnps", "roce-slow-restart-cnps", 1, wrap(32)},
    {"roce_slow_restart_trans", "roce-slow-restart-trans", 1, wrap(32)},
};

// Two dozen rows: a linear scan beats building an index.
const CounterSpec* find(std::span<const CounterSpec> table, std::string_view name) {
  for (const CounterSpec& s : table) {
    if (s.sysfs_name == name) return &s;
  }
  return nullptr;
}

}  // namespace

const CounterSpec* findPmaCounter(std::string_view sysfs_name) { return find(kPma, sysfs_name); }
const CounterSpec* findHwCounter(std::string_view sysfs_name) { return find(kHw, sysfs_name); }

std::string hyphenate(std::string_view sysfs_name) {
  std::string out;
  out.reserve(sysfs_name.size());
  for (char c : sysfs_name) {
    if (c == '_') {
      out.push_back('-');
    } else if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace rdmagw::southbound::rdma
