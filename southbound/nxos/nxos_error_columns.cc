#include "southbound/nxos/nxos_error_columns.h"

namespace rdmagw::southbound::nxos {
namespace {

// Why each column lands where it does. NX-OS takes these numbers from the
// EtherLike-MIB dot3Stats and RMON etherStats objects (DME rmonDot3Stats has
// alignmentErrors, fCSErrors, singleCollisionFrames, ... frameTooLongs,
// runts), so each column is matched to the OpenConfig leaf that means the
// same object, and gets an rdmagw leaf only where OpenConfig has none.
//   FCS-Err      openconfig-interfaces in-fcs-errors (dot3StatsFCSErrors).
//                Not also in-crc-errors: one counter, one series.
//   UnderSize    in-undersize-frames: shorter than 64 octets, good FCS
//                (etherStatsUndersizePkts).
//   Runts        in-fragment-frames, not undersize: Cisco's runt is a short
//                frame with a bad FCS, which is RMON's fragment.
//   Giants       in-maxsize-exceeded, not in-oversize-frames: a giant is a
//                frame over the port's MTU (dot3StatsFrameTooLongs), while
//                OpenConfig's oversize is RMON's "over 1518 octets", which
//                every jumbo RoCE frame is; mixing the two would make the
//                series jump when a switch moves between SSH and gNMI.
//   Symbol-Err   in-symbol-error (dot3StatsSymbolErrors).
//   IntMacRx-Er  in-mac-errors-rx, IntMacTx-Er out-mac-errors-tx
//                (dot3StatsInternalMac{Receive,Transmit}Errors).
//   Single-Col   in-single-collision, Late-Col in-late-collision, Carri-Sen
//                in-carrier-errors: openconfig-if-ethernet names the
//                dot3Stats collision and carrier-sense objects with an "in-"
//                prefix although 802.3 counts them on transmit; we keep
//                OpenConfig's names so OpenConfig consumers find them.
//   Align-Err, Multi-Col, Exces-Col, Deferred-Tx, SQETest-Err, Stomped-CRC:
//                no OpenConfig leaf names them (OpenConfig's
//                in-interrupted-tx does not say deferral, so we do not guess),
//                rdmagw-interfaces leaves.
//   Xmit-Err, Rcv-Err, OutDiscards, InDiscards: out-errors, in-errors,
//                out-discards, in-discards, as `show interface` fills them.
// JSON keys: NX-API ROW_interface keys as NX-OS names them (one row per
// interface per section); eth_stomped_crc is our best reading of the
// Stomped-CRC key, no recording of it has been seen.
constexpr ErrorColumn kColumns[] = {
    {"Align-Err", "eth_align_err", "in-alignment-errors", true},
    {"FCS-Err", "eth_fcs_err", "in-fcs-errors", false},
    {"Xmit-Err", "eth_xmit_err", "out-errors", false},
    {"Rcv-Err", "eth_rcv_err", "in-errors", false},
    {"UnderSize", "eth_undersize", "in-undersize-frames", true},
    {"OutDiscards", "eth_outdisc", "out-discards", false},
    {"Single-Col", "eth_single_col", "in-single-collision", true},
    {"Multi-Col", "eth_multi_col", "out-multiple-collision-frames", true},
    {"Late-Col", "eth_late_col", "in-late-collision", true},
    {"Exces-Col", "eth_excess_col", "out-excessive-collision-frames", true},
    {"Carri-Sen", "eth_carri_sen", "in-carrier-errors", true},
    {"Runts", "eth_runts", "in-fragment-frames", true},
    {"Giants", "eth_giants", "in-maxsize-exceeded", true},
    {"SQETest-Err", "eth_sqetest_err", "out-sqe-test-errors", true},
    {"Deferred-Tx", "eth_deferred_tx", "out-deferred-frames", true},
    {"IntMacTx-Er", "eth_inmactx_err", "out-mac-errors-tx", true},
    {"IntMacRx-Er", "eth_inmacrx_err", "in-mac-errors-rx", true},
    {"Symbol-Err", "eth_symbol_err", "in-symbol-error", true},
    {"InDiscards", "eth_indisc", "in-discards", false},
    {"Stomped-CRC", "eth_stomped_crc", "in-stomped-crc-errors", true},
};

}  // namespace

std::span<const ErrorColumn> nxosErrorColumns() { return kColumns; }

bool isEthernetCounterLeaf(std::string_view leaf) {
  if (leaf == "in-mac-pause-frames" || leaf == "out-mac-pause-frames") return true;
  for (const ErrorColumn& c : kColumns) {
    if (c.leaf == leaf) return c.ethernet;
  }
  return false;
}

}  // namespace rdmagw::southbound::nxos
