#include "southbound/gnmi/mapping/mapping_table.h"

#include <algorithm>

namespace rdmagw::southbound::gnmi {
namespace {

constexpr ValueRule C = ValueRule::kCounter;

// OpenConfig (origin openconfig): NX-OS keys interfaces by short name
// (eth1/1) and queues by class (c-out-8q-q3).
#define OC_IF "openconfig:/interfaces/interface[name={if}]/state/counters/"
#define OC_ETH "openconfig:/interfaces/interface[name={if}]/ethernet/state/counters/"
#define OC_QUEUE "openconfig:/qos/interfaces/interface[interface-id={if}]/output/queues/queue[name={q}]/state/"
// Native ipqos queuing statistics (origin device): the only source of ECN
// marks and per-class PFC. The list is also keyed by statType, which the
// pattern leaves out (any value).
#define NX_QUEUE                                                                              \
  "device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name={if}]" \
  "/queCmap-items/QueuingStats-list[cmapName={q}]/"
// rmonDot3Stats, native and DME: 802.3x pause (second sources of the
// OpenConfig pause counters) and the Ethernet error counters.
#define NX_DOT3 "device:/System/intf-items/phys-items/PhysIf-list[id={if}]/dbgDot3Stats-items/"
#define DME_DOT3 "DME:sys/intf/phys-[{if}]/dbgDot3Stats/"

// OpenConfig LLDP neighbours (NX-OS keys a neighbour by its chassis ID):
// strings, sampled like the counters so their timestamps say when the
// neighbour was last seen (analytics' link last-seen).
#define OC_LLDP "openconfig:/lldp/interfaces/interface[name={if}]/neighbors/neighbor[id={id}]/state/"
#define M_LLDP "/lldp/interfaces/interface[name={if:ifname}]/neighbors/neighbor[id={id}]/state/"

#define M_IF "/interfaces/interface[name={if:ifname}]/state/counters/"
#define M_ETH "/interfaces/interface[name={if:ifname}]/ethernet/state/counters/"
#define M_QUEUE "/qos/interfaces/interface[interface-id={if:ifname}]/output/queues/queue[name={q:qosgroup}]/state/"
#define M_PRIO "/interfaces/interface[name={if:ifname}]/ethernet/pfc/priorities/priority[id={q:priority}]/state/counters/"

const MappingRow kRows[] = {
    // Interface state, subscribed ON_CHANGE by gnmi_config.cc, not sampled.
    {"openconfig:/interfaces/interface[name={if}]/state/oper-status",
     "/interfaces/interface[name={if:ifname}]/state/oper-status", ValueRule::kAsSent, false},
    {"openconfig:/interfaces/interface[name={if}]/state/admin-status",
     "/interfaces/interface[name={if:ifname}]/state/admin-status", ValueRule::kAsSent, false},
    // Speed: the configured and the negotiated rate, each also written as
    // bits/s to state/speed (IF-MIB ifSpeed/ifHighSpeed).
    {"openconfig:/interfaces/interface[name={if}]/ethernet/state/port-speed",
     "/interfaces/interface[name={if:ifname}]/ethernet/state/port-speed", ValueRule::kEthernetSpeed, false},
    {"openconfig:/interfaces/interface[name={if}]/ethernet/state/negotiated-port-speed",
     "/interfaces/interface[name={if:ifname}]/ethernet/state/negotiated-port-speed", ValueRule::kEthernetSpeed,
     false},
    {"openconfig:/interfaces/interface[name={if}]/state/description",
     "/interfaces/interface[name={if:ifname}]/state/description", ValueRule::kAsSent, false},
    // The MTU, for the fabric's DCB consistency check (a uint16 in OpenConfig).
    {"openconfig:/interfaces/interface[name={if}]/state/mtu", "/interfaces/interface[name={if:ifname}]/state/mtu",
     ValueRule::kAsSent, false},
    {OC_IF "in-octets", M_IF "in-octets", C, true},
    {OC_IF "out-octets", M_IF "out-octets", C, true},
    {OC_IF "in-pkts", M_IF "in-pkts", C, true},
    {OC_IF "out-pkts", M_IF "out-pkts", C, true},
    {OC_IF "in-unicast-pkts", M_IF "in-unicast-pkts", C, true},
    {OC_IF "out-unicast-pkts", M_IF "out-unicast-pkts", C, true},
    {OC_IF "in-multicast-pkts", M_IF "in-multicast-pkts", C, true},
    {OC_IF "out-multicast-pkts", M_IF "out-multicast-pkts", C, true},
    {OC_IF "in-broadcast-pkts", M_IF "in-broadcast-pkts", C, true},
    {OC_IF "out-broadcast-pkts", M_IF "out-broadcast-pkts", C, true},
    {OC_IF "in-discards", M_IF "in-discards", C, true},
    {OC_IF "out-discards", M_IF "out-discards", C, true},
    {OC_IF "in-errors", M_IF "in-errors", C, true},
    {OC_IF "out-errors", M_IF "out-errors", C, true},
    {OC_ETH "in-mac-pause-frames", M_ETH "in-mac-pause-frames", C, true},
    {OC_ETH "out-mac-pause-frames", M_ETH "out-mac-pause-frames", C, true},
    // Error counters NX-OS serves over OpenConfig (not deviated in 10.6(3));
    // the same leaves `show interface counters errors` feeds over SSH (FCS-Err,
    // Runts, Giants). The others are deviated: they come from dbgDot3Stats.
    {OC_IF "in-fcs-errors", M_IF "in-fcs-errors", C, true},
    {OC_ETH "in-fragment-frames", M_ETH "in-fragment-frames", C, true},
    {OC_ETH "in-maxsize-exceeded", M_ETH "in-maxsize-exceeded", C, true},

    // OpenConfig queues: NX-OS serves transmit-pkts, transmit-octets and
    // dropped-pkts only (10.6(3) deviations); the native rows below carry the
    // same counters plus ECN and PFC, so these are not subscribed.
    {OC_QUEUE "transmit-pkts", M_QUEUE "transmit-pkts", C, false},
    {OC_QUEUE "transmit-octets", M_QUEUE "transmit-octets", C, false},
    {OC_QUEUE "dropped-pkts", M_QUEUE "dropped-pkts", C, false},

    {NX_QUEUE "txPackets", M_QUEUE "transmit-pkts", C, true},
    {NX_QUEUE "txBytes", M_QUEUE "transmit-octets", C, true},
    {NX_QUEUE "dropPackets", M_QUEUE "dropped-pkts", C, true},
    {NX_QUEUE "dropBytes", M_QUEUE "dropped-octets", C, true},
    {NX_QUEUE "randEcnMarkedPackets", M_QUEUE "ecn-marked-pkts", C, true},
    // Per Packet Pause of the class's priority (qos-group N = CoS N).
    {NX_QUEUE "pfcTxPpp", M_PRIO "out-pause-frames", C, true},
    {NX_QUEUE "pfcRxPpp", M_PRIO "in-pause-frames", C, true},

    {NX_DOT3 "inPauseFrames", M_ETH "in-mac-pause-frames", C, false},
    {NX_DOT3 "outPauseFrames", M_ETH "out-mac-pause-frames", C, false},
    {DME_DOT3 "inPauseFrames", M_ETH "in-mac-pause-frames", C, false},
    {DME_DOT3 "outPauseFrames", M_ETH "out-mac-pause-frames", C, false},

    // rmonDot3Stats: the counters behind `show interface counters errors`,
    // to the leaves the SSH parser writes (nxos_error_columns.cc says why
    // each leaf), so a gNMI <-> SSH switch keeps the series. Subscribed
    // natively where OpenConfig lacks the leaf; second sources otherwise.
    // UnderSize and Stomped-CRC have no dot3Stats field: SSH only.
    {NX_DOT3 "alignmentErrors", M_ETH "in-alignment-errors", C, true},
    {NX_DOT3 "singleCollisionFrames", M_ETH "in-single-collision", C, true},
    {NX_DOT3 "multipleCollisionFrames", M_ETH "out-multiple-collision-frames", C, true},
    {NX_DOT3 "lateCollisions", M_ETH "in-late-collision", C, true},
    {NX_DOT3 "excessiveCollisions", M_ETH "out-excessive-collision-frames", C, true},
    {NX_DOT3 "carrierSenseErrors", M_ETH "in-carrier-errors", C, true},
    {NX_DOT3 "sQETTestErrors", M_ETH "out-sqe-test-errors", C, true},
    {NX_DOT3 "deferredTransmissions", M_ETH "out-deferred-frames", C, true},
    {NX_DOT3 "internalMacTransmitErrors", M_ETH "out-mac-errors-tx", C, true},
    {NX_DOT3 "internalMacReceiveErrors", M_ETH "in-mac-errors-rx", C, true},
    {NX_DOT3 "symbolErrors", M_ETH "in-symbol-error", C, true},
    {NX_DOT3 "fCSErrors", M_IF "in-fcs-errors", C, false},
    {NX_DOT3 "runts", M_ETH "in-fragment-frames", C, false},
    {NX_DOT3 "frameTooLongs", M_ETH "in-maxsize-exceeded", C, false},
    {DME_DOT3 "alignmentErrors", M_ETH "in-alignment-errors", C, false},
    {DME_DOT3 "singleCollisionFrames", M_ETH "in-single-collision", C, false},
    {DME_DOT3 "multipleCollisionFrames", M_ETH "out-multiple-collision-frames", C, false},
    {DME_DOT3 "lateCollisions", M_ETH "in-late-collision", C, false},
    {DME_DOT3 "excessiveCollisions", M_ETH "out-excessive-collision-frames", C, false},
    {DME_DOT3 "carrierSenseErrors", M_ETH "in-carrier-errors", C, false},
    {DME_DOT3 "sQETTestErrors", M_ETH "out-sqe-test-errors", C, false},
    {DME_DOT3 "deferredTransmissions", M_ETH "out-deferred-frames", C, false},
    {DME_DOT3 "internalMacTransmitErrors", M_ETH "out-mac-errors-tx", C, false},
    {DME_DOT3 "internalMacReceiveErrors", M_ETH "in-mac-errors-rx", C, false},
    {DME_DOT3 "symbolErrors", M_ETH "in-symbol-error", C, false},
    {DME_DOT3 "fCSErrors", M_IF "in-fcs-errors", C, false},
    {DME_DOT3 "runts", M_ETH "in-fragment-frames", C, false},
    {DME_DOT3 "frameTooLongs", M_ETH "in-maxsize-exceeded", C, false},

    {OC_LLDP "system-name", M_LLDP "system-name", ValueRule::kAsSent, true},
    {OC_LLDP "port-id", M_LLDP "port-id", ValueRule::kAsSent, true},
    {OC_LLDP "port-id-type", M_LLDP "port-id-type", ValueRule::kAsSent, true},
    {OC_LLDP "chassis-id", M_LLDP "chassis-id", ValueRule::kAsSent, true},
    {OC_LLDP "port-description", M_LLDP "port-description", ValueRule::kAsSent, true},
};

struct ListKeys {
  std::string_view list;
  std::string_view keys[2];
  size_t count;
};

// YANG keys of the lists NX-OS puts in JSON blobs (Cisco-NX-OS-device 9.3(1),
// openconfig-interfaces, openconfig-qos, openconfig-lldp).
const ListKeys kListKeys[] = {
    {"QueuingStats-list", {"cmapName", "statType"}, 2},
    {"Stats-list", {"cmapName", "statType"}, 2},
    {"If-list", {"name"}, 1},
    {"PhysIf-list", {"id"}, 1},
    {"interface", {"name", "interface-id"}, 2},
    {"queue", {"name"}, 1},
    {"subinterface", {"index"}, 1},
    {"priority", {"id"}, 1},
    {"neighbor", {"id"}, 1},
};

Xform xformOf(std::string_view name, bool* ok) {
  *ok = true;
  if (name.empty()) return Xform::kNone;
  if (name == "ifname") return Xform::kIfName;
  if (name == "qosgroup") return Xform::kQosGroup;
  if (name == "priority") return Xform::kPriority;
  *ok = false;
  return Xform::kNone;
}

// Splits "a/b[k=v/w]/c-[x/y]" at the '/' outside brackets.
std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= path.size(); ++i) {
    char c = i < path.size() ? path[i] : '/';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == '/' && depth == 0) {
      if (i > start) out.push_back(path.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

class Compiler {
 public:
  Compiler(CompiledRow& row, std::string& error) : row_(row), error_(error) {}

  bool source(std::string_view text) {
    size_t colon = text.find(':');
    size_t slash = text.find('/');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
      row_.origin = std::string(text.substr(0, colon));
      text.remove_prefix(colon + 1);
    }
    for (std::string_view seg : segments(text)) {
      PatternElem e;
      size_t rn = seg.find("-[");
      if (rn != std::string_view::npos && seg.back() == ']' && seg.find('=') == std::string_view::npos) {
        e.name = std::string(seg.substr(0, rn));
        PatternKey k;
        if (!keyValue(seg.substr(rn + 2, seg.size() - rn - 3), k, nullptr)) return false;
        e.keys.push_back(std::move(k));
      } else {
        size_t open = seg.find('[');
        e.name = std::string(seg.substr(0, open));
        while (open != std::string_view::npos) {
          size_t close = seg.find(']', open);
          size_t eq = seg.find('=', open);
          if (close == std::string_view::npos || eq == std::string_view::npos || eq > close) {
            return fail("bad key in " + std::string(seg));
          }
          PatternKey k;
          k.key = std::string(seg.substr(open + 1, eq - open - 1));
          if (!keyValue(seg.substr(eq + 1, close - eq - 1), k, nullptr)) return false;
          e.keys.push_back(std::move(k));
          open = seg.find('[', close);
        }
      }
      row_.keyless += "/" + e.name;
      row_.source.push_back(std::move(e));
    }
    return !row_.source.empty() || fail("empty source");
  }

  bool target(std::string_view text) {
    for (std::string_view seg : segments(text)) {
      TargetElem e;
      size_t open = seg.find('[');
      e.name = std::string(seg.substr(0, open));
      while (open != std::string_view::npos) {
        size_t close = seg.find(']', open);
        size_t eq = seg.find('=', open);
        if (close == std::string_view::npos || eq == std::string_view::npos || eq > close) {
          return fail("bad key in target " + std::string(seg));
        }
        PatternKey k;
        Xform x = Xform::kNone;
        if (!keyValue(seg.substr(eq + 1, close - eq - 1), k, &x)) return false;
        if (k.var < 0) return fail("target key without {var}: " + std::string(seg));
        e.keys.push_back(TargetKey{std::string(seg.substr(open + 1, eq - open - 1)), k.var, x});
        open = seg.find('[', close);
      }
      std::sort(e.keys.begin(), e.keys.end(), [](const TargetKey& a, const TargetKey& b) { return a.key < b.key; });
      row_.target_keyless += "/" + e.name;
      row_.target.push_back(std::move(e));
    }
    while (row_.iso_depth < row_.source.size() && row_.iso_depth < row_.target.size() &&
           row_.source[row_.iso_depth].name == row_.target[row_.iso_depth].name) {
      ++row_.iso_depth;
    }
    return !row_.target.empty() || fail("empty target");
  }

 private:
  // "{var}", "{var:xform}" (targets), "*" or a literal.
  bool keyValue(std::string_view v, PatternKey& k, Xform* xform) {
    if (v == "*") {
      k.var = -2;
      return true;
    }
    if (v.size() < 2 || v.front() != '{' || v.back() != '}') {
      k.value = std::string(v);
      return true;
    }
    v = v.substr(1, v.size() - 2);
    std::string_view fn;
    if (size_t colon = v.find(':'); colon != std::string_view::npos) {
      fn = v.substr(colon + 1);
      v = v.substr(0, colon);
    }
    if (xform) {
      bool ok;
      *xform = xformOf(fn, &ok);
      if (!ok) return fail("unknown transform " + std::string(fn));
    }
    auto it = std::find(vars_.begin(), vars_.end(), v);
    if (it == vars_.end()) {
      if (xform) return fail("target variable {" + std::string(v) + "} not captured by the source");
      if (vars_.size() >= kMaxVars) return fail("too many captures");
      vars_.push_back(std::string(v));
      it = vars_.end() - 1;
    }
    k.var = static_cast<int>(it - vars_.begin());
    row_.var_count = static_cast<int>(vars_.size());
    return true;
  }

  bool fail(std::string msg) {
    error_ = std::move(msg);
    return false;
  }

  CompiledRow& row_;
  std::string& error_;
  std::vector<std::string> vars_;
};

}  // namespace

std::span<const MappingRow> mappingRows() { return kRows; }

std::span<const std::string_view> listKeysOf(std::string_view list_name) {
  for (const ListKeys& l : kListKeys) {
    if (l.list == list_name) return {l.keys, l.count};
  }
  return {};
}

const MappingTable& MappingTable::instance() {
  static const MappingTable table;
  return table;
}

MappingTable::MappingTable() {
  rows_.reserve(std::size(kRows));  // by_keyless_ holds views into rows_
  for (const MappingRow& r : kRows) {
    CompiledRow row;
    row.row = &r;
    std::string error;
    Compiler c(row, error);
    if (!c.source(r.source) || !c.target(r.target)) {
      errors_.push_back(std::string(r.source) + ": " + error);
      continue;
    }
    rows_.push_back(std::move(row));
  }
  for (const CompiledRow& row : rows_) {
    if (!by_keyless_.emplace(row.keyless, &row).second) {
      errors_.push_back(std::string(row.row->source) + ": a second row for the same source path");
    }
  }
}

}  // namespace rdmagw::southbound::gnmi
