#include "southbound/nxos/nxos_if_state.h"

#include <cctype>

#include "models/ethernet_speed.h"
#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {
namespace {

// OpenConfig's oper-status / admin-status words for NX-OS's ("up", "down");
// any other word is kept, upper-cased, so nothing the switch said is lost.
std::string statusWord(std::string_view nxos) {
  std::string out;
  for (char ch : nxos) out += char(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

}  // namespace

bool isPhysicalEthernetPort(std::string_view ifname) {
  if (ifname.find('.') != std::string_view::npos) return false;  // sub-interface
  return startsWith(ifname, "Ethernet") || startsWith(ifname, "mgmt") || startsWith(ifname, "ii");
}

void emitIfState(const std::string& ifname, const NxosIfState& s, Emitter& em) {
  if (s.oper && !s.oper->empty()) em.text(ifStatePath(ifname, "oper-status"), statusWord(*s.oper));
  if (s.admin && !s.admin->empty()) em.text(ifStatePath(ifname, "admin-status"), statusWord(*s.admin));
  if (s.description) em.text(ifStatePath(ifname, "description"), *s.description);
  if (s.mtu) em.gauge(ifStatePath(ifname, "mtu"), *s.mtu);
  std::optional<uint64_t> bps;
  if (s.bw_kbit && *s.bw_kbit <= UINT64_MAX / 1000) bps = *s.bw_kbit * 1000;
  if (isPhysicalEthernetPort(ifname) && s.speed) {
    const std::string word = toLower(trim(*s.speed));
    if (startsWith(word, "auto")) {
      // No rate while the port is down: the identity says so, no number.
      em.text(portSpeedPath(ifname), std::string(kSpeedUnknown));
      return;
    }
    std::optional<uint64_t> rate = parseSpeedText(word);
    if (!rate) {
      em.error(ifname + ": speed '" + std::string(trim(*s.speed)) + "' is not a speed (BW used)");
    } else {
      bps = rate;
    }
  }
  if (!bps) return;
  em.gauge(interfaceSpeedPath(ifname), *bps);
  if (isPhysicalEthernetPort(ifname)) em.text(portSpeedPath(ifname), std::string(ethernetSpeedIdentity(*bps)));
}

}  // namespace rdmagw::southbound::nxos
