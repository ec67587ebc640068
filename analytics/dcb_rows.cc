#include "analytics/dcb_rows.h"

#include <variant>

namespace rdmagw::analytics {
namespace {

constexpr std::string_view kMtuRow = "/interfaces/interface/state/mtu";
constexpr std::string_view kNpRow = "/interfaces/interface/ethernet/dcqcn/state/np-enabled-priorities";
constexpr std::string_view kRpRow = "/interfaces/interface/ethernet/dcqcn/state/rp-enabled-priorities";
constexpr std::string_view kNoDropRow = "/qos/network-qos/classes/class/state/pfc-priorities";
constexpr std::string_view kVmnicPfcRow = "/hypervisor/nics/nic/state/pfc-enabled-priorities";
constexpr std::string_view kPfcRow = "/interfaces/interface/ethernet/pfc/state/enabled-priorities";
constexpr std::string_view kHostTrustRow = "/interfaces/interface/ethernet/dcb/state/trust";
constexpr std::string_view kClassMatchRow = "/qos/type-qos/classes/class/state/match";

// The trust leaves' string values: a host netdev's dscp|pcp, a switch
// class's dscp|cos (dscp anywhere wins: the switch trusts DSCP).
bool readTrustLeaf(const std::string& target, const SeriesView& s, DcbInventory& dcb) {
  const std::string_view path = s.schema->path;
  if (path != kHostTrustRow && path != kClassMatchRow) return false;
  const std::string* v = std::get_if<std::string>(&s.value);
  if (v == nullptr || s.label_values.size() != 1) return true;
  if (path == kHostTrustRow) {
    if (*v == "dscp" || *v == "pcp") dcb.host_trust[{target, s.label_values[0]}] = *v;
  } else if (*v == "dscp" || *v == "cos") {
    std::string& trust = dcb.switch_trust[target];
    if (trust != "dscp") trust = *v == "dscp" ? "dscp" : "pcp";
  }
  return true;
}

}  // namespace

std::vector<std::string_view> dcbRowPaths() {
  return {kMtuRow, kNpRow, kRpRow, kNoDropRow, kVmnicPfcRow, kPfcRow, kHostTrustRow, kClassMatchRow};
}

bool readDcbLeaf(const std::string& target, bool is_switch, const SeriesView& s, DcbInventory& dcb) {
  if (readTrustLeaf(target, s, dcb)) return true;
  const std::string_view path = s.schema->path;
  std::map<PortRef, uint64_t>* per_port = path == kMtuRow ? &dcb.mtu
                                          : path == kNpRow ? &dcb.np_enabled
                                          : path == kRpRow ? &dcb.rp_enabled
                                          : path == kVmnicPfcRow ? &dcb.vmnic_pfc
                                          : path == kPfcRow && !is_switch ? &dcb.host_pfc
                                                                                   : nullptr;
  if (per_port == nullptr && path != kNoDropRow) return false;
  // Numbers as any source types them (a gNMI switch may send the MTU as an int).
  double v = 0;
  if (!valueAsDouble(s.value, &v) || v < 0 || s.label_values.size() != 1) return true;
  if (per_port != nullptr) {
    (*per_port)[{target, s.label_values[0]}] = uint64_t(v);
  } else {
    dcb.no_drop_cos[target] |= uint64_t(v);  // every class's pause pfc-cos: the switch's no-drop CoS
  }
  return true;
}

}  // namespace rdmagw::analytics
