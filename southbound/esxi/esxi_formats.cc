#include "southbound/esxi/esxi_formats.h"

#include "southbound/esxi/esxi_dcb.h"
#include "southbound/esxi/esxi_nic_list.h"
#include "southbound/esxi/esxi_nic_stats.h"
#include "southbound/esxi/esxi_text_util.h"
#include "southbound/esxi/esxi_vsish.h"

namespace rdmagw::southbound::esxi {
namespace {

// The bundle names the vmnic in its section marker; a saved output alone
// names it only in its "Nic Name:" line.
Status parseEsxiDcbStatus(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::string nic = "unknown";
  for (const EsxiLine& line : esxiLines(text)) {
    const std::string_view t = esxiTrim(line.text);
    constexpr std::string_view kKey = "Nic Name:";
    if (!t.starts_with(kKey)) continue;
    const std::string_view name = esxiTrim(t.substr(kKey.size()));
    if (esxiValidNicName(name)) nic = std::string(name);
    break;
  }
  return parseEsxiDcbStatusFor(nic, text, ts, out);
}

constexpr southbound::ParserFormat kFormats[] = {
    {"esxi-nic-list",
     "`esxcli network nic list` table: driver, admin and link state, speed and MTU of every vmnic "
     "(columns found from the header and its dashes line).",
     parseEsxiNicList},
    {"esxi-nic-stats",
     "`esxcli network nic stats get -n vmnicN`; the NIC comes from the 'NIC statistics for' "
     "header. Emits the vmnic packet, byte, drop and error counters.",
     parseEsxiNicStats},
    {"esxi-vsish-stats",
     "`vsish -e cat` or `vsish -pe get` of /net/pNics/vmnicN/stats (form detected); the NIC "
     "comes from a '/net/pNics/<nic>/' path in the text, else 'unknown'. Generic counters plus "
     "the driver-private block (nmlx5 pause counters, other drivers' 'name: number' lines).",
     parseEsxiVsishStats},
    {"esxi-nic-dcb-status",
     "`esxcli network nic dcb status get -n vmnicN`; the NIC comes from its 'Nic Name:' line (else "
     "'unknown'). Emits the vmnic's PFC-enabled priorities and DCBX mode (esxi-bundle adds its PFC/ETS host-port "
     "leaves).",
     parseEsxiDcbStatus},
};

}  // namespace

std::span<const southbound::ParserFormat> esxiParserFormats() { return kFormats; }

}  // namespace rdmagw::southbound::esxi
