#include "southbound/esxi/esxi_formats.h"

#include "southbound/esxi/esxi_nic_list.h"
#include "southbound/esxi/esxi_nic_stats.h"
#include "southbound/esxi/esxi_vsish.h"

namespace rdmagw::southbound::esxi {
namespace {

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
};

}  // namespace

std::span<const southbound::ParserFormat> esxiParserFormats() { return kFormats; }

}  // namespace rdmagw::southbound::esxi
