#include "analytics/dcb_consistency.h"

#include <optional>
#include <variant>
#include <string_view>
#include <vector>

namespace rdmagw::analytics {
namespace {

constexpr uint64_t kDefaultMtu = 1500;

bool isSwitch(const RunContext& ctx, const PortRef& port) { return analytics::isSwitch(ctx.inv, port.target); }

template <typename K>
std::optional<uint64_t> lookup(const std::map<K, uint64_t>& m, const K& key) {
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

// The port's PFC-enabled priorities: its own bitmap (a vmnic's from esxcli);
// a switch port without one (gNMI without the CLI supplement) falls back on
// its switch's no-drop classes.
std::optional<uint64_t> pfcOf(const RunContext& ctx, const PortRef& port) {
  if (auto own = lookup(ctx.inv.enabled_priorities, port)) return own;
  if (auto host = lookup(ctx.inv.dcb.host_pfc, port)) return host;
  if (auto vmnic = lookup(ctx.inv.dcb.vmnic_pfc, port)) return vmnic;
  if (isSwitch(ctx, port)) return lookup(ctx.inv.dcb.no_drop_cos, port.target);
  return std::nullopt;
}

std::optional<std::string> trustOf(const RunContext& ctx, const PortRef& port) {
  if (auto it = ctx.inv.dcb.host_trust.find(port); it != ctx.inv.dcb.host_trust.end()) return it->second;
  if (!isSwitch(ctx, port)) return std::nullopt;
  auto it = ctx.inv.dcb.switch_trust.find(port.target);
  if (it == ctx.inv.dcb.switch_trust.end()) return std::nullopt;
  return it->second;
}

bool mtuMismatch(uint64_t a, bool a_switch, uint64_t b, bool b_switch) {
  if (a_switch == b_switch) return a != b;
  const uint64_t sw = a_switch ? a : b;
  const uint64_t host = a_switch ? b : a;
  return host > sw || (host <= kDefaultMtu) != (sw <= kDefaultMtu);
}

// A host NIC's PFC priorities whose DCQCN knob `point` is off.
void knobsOff(const PortRef& port, uint64_t pfc, const std::optional<uint64_t>& knobs, const char* point,
              std::vector<std::string>& items) {
  if (!knobs) return;
  const uint64_t off = pfc & ~*knobs;
  if (off == 0) return;
  items.push_back(std::string("dcqcn ") + point + " off on lossless priorities: " + port.toString() + " {" +
                  priorityList(off) + "}");
}

}  // namespace

std::string priorityList(uint64_t bitmap) {
  std::string out;
  for (int p = 0; p < 8; ++p) {
    if (bitmap & (uint64_t{1} << p)) out += (out.empty() ? "" : ",") + std::to_string(p);
  }
  return out;
}

void deriveDcb(const RunContext& ctx, DerivedWriter& out) {
  for (const ResolvedLink& l : ctx.links.links()) {
    const std::optional<uint64_t> pfc_a = pfcOf(ctx, l.a);
    const std::optional<uint64_t> pfc_b = pfcOf(ctx, l.b);
    if (!pfc_a || !pfc_b) continue;  // an end not collected: no verdict
    const std::optional<uint64_t> mtu_a = lookup(ctx.inv.dcb.mtu, l.a);
    const std::optional<uint64_t> mtu_b = lookup(ctx.inv.dcb.mtu, l.b);
    std::vector<std::string> items;
    if (*pfc_a != *pfc_b) {
      items.push_back("pfc priorities: " + l.a.toString() + " {" + priorityList(*pfc_a) + "} vs " + l.b.toString() +
                      " {" + priorityList(*pfc_b) + "}");
    }
    if (mtu_a && mtu_b && mtuMismatch(*mtu_a, isSwitch(ctx, l.a), *mtu_b, isSwitch(ctx, l.b))) {
      items.push_back("mtu: " + l.a.toString() + " " + std::to_string(*mtu_a) + " vs " + l.b.toString() + " " +
                      std::to_string(*mtu_b));
    }
    const std::optional<std::string> trust_a = trustOf(ctx, l.a);
    const std::optional<std::string> trust_b = trustOf(ctx, l.b);
    if (trust_a && trust_b && *trust_a != *trust_b) {
      items.push_back("trust: " + l.a.toString() + " " + *trust_a + " vs " + l.b.toString() + " " + *trust_b);
    }
    for (const auto& [port, pfc] : {std::pair{l.a, *pfc_a}, std::pair{l.b, *pfc_b}}) {
      knobsOff(port, pfc, lookup(ctx.inv.dcb.np_enabled, port), "np", items);
      knobsOff(port, pfc, lookup(ctx.inv.dcb.rp_enabled, port), "rp", items);
    }
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : "; ") + item;
    const DcbConsistency verdict = items.empty() ? DcbConsistency::kConsistent : DcbConsistency::kMismatch;
    struct End {
      const PortRef& self;
      uint64_t pfc;
      std::optional<uint64_t> mtu;
      uint64_t peer_pfc;
      std::optional<uint64_t> peer_mtu;
      const std::optional<std::string>& trust;
      const std::optional<std::string>& peer_trust;
    };
    for (const End& e : {End{l.a, *pfc_a, mtu_a, *pfc_b, mtu_b, trust_a, trust_b},
                         End{l.b, *pfc_b, mtu_b, *pfc_a, mtu_a, trust_b, trust_a}}) {
      out.dcb(e.self, "consistency", std::string(verdict == DcbConsistency::kConsistent ? "consistent" : "mismatch"));
      out.dcb(e.self, "consistency-code", uint64_t(verdict));
      out.dcb(e.self, "mismatches", text);
      out.dcb(e.self, "pfc-priorities", priorityList(e.pfc));
      out.dcb(e.self, "peer-pfc-priorities", priorityList(e.peer_pfc));
      if (e.mtu) out.dcb(e.self, "mtu", *e.mtu);
      if (e.peer_mtu) out.dcb(e.self, "peer-mtu", *e.peer_mtu);
      if (e.trust) out.dcb(e.self, "trust", *e.trust);
      if (e.peer_trust) out.dcb(e.self, "peer-trust", *e.peer_trust);
    }
  }
}

}  // namespace rdmagw::analytics
