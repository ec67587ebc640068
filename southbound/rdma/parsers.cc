#include "southbound/rdma/parsers.h"

#include "southbound/rdma/ethtool_mapping.h"
#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/ib_class.h"
#include "southbound/rdma/ib_updates.h"
#include "southbound/rdma/lldpctl_json.h"
#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/netdev_dcb.h"
#include "southbound/rdma/remote_dump.h"

namespace rdmagw::southbound::rdma {

// Used when the text does not say which netdev it came from.
constexpr const char* kUnknownNetdev = "unknown";

Status parseEthtoolS(std::string_view text, TimestampNs ts, PollBatch& out) {
  EthtoolTextParse parsed = parseEthtoolText(text);
  if (parsed.stats.empty()) {
    return Status::corrupt("ethtool -S: no 'name: value' line found (" +
                           std::to_string(parsed.skipped_lines) + " line(s) skipped)");
  }
  if (parsed.skipped_lines > 0) {
    std::string msg = "ethtool -S: skipped " + std::to_string(parsed.skipped_lines) +
                      " line(s) that are not 'name: value'";
    for (const std::string& s : parsed.skipped) msg += "; " + s;
    out.error(std::move(msg));
  }
  appendEthtoolUpdates(parsed.netdev.value_or(kUnknownNetdev), parsed.stats, ts, out);
  return Status::ok();
}

Status parseSysfsDump(std::string_view text, TimestampNs ts, PollBatch& out) {
  MemorySysfsReader reader = MemorySysfsReader::fromDump(text, &out.errors);
  IbClass ib(reader, DeviceFilter(), [ts] { return ts; });
  Result<std::vector<IbDevice>> devices = ib.read(&out.errors);
  if (!devices.isOk()) return devices.status();
  appendIbUpdates(devices.value(), out);
  return Status::ok();
}

namespace {

constexpr ParserFormat kFormats[] = {
    {"ethtool-s",
     "`ethtool -S <netdev>` output; a '# ethtool -S <netdev>' line names the interface "
     "(else 'unknown'). Emits the PFC, pause and interface counters rdmagw maps.",
     parseEthtoolS},
    {"sysfs-dump",
     "Lines '/sys/class/infiniband/<dev>/<file>: <value>' ('#' comments). Read by the same "
     "code as the live sysfs collector.",
     parseSysfsDump},
    {"rdma-remote-dump",
     "Output of remoteDumpCommand() run on a Linux RDMA host over SSH: a sysfs dump plus "
     "'### ethtool -S <netdev>' sections (and dcb, mlnx_qos, lldpctl ones). Read by the same code as the "
     "live collector.",
     parseRemoteDump},
    {"lldpctl-json",
     "lldpd's `lldpctl -f json0` (or `-f json`, one interface as an object, several as an array): "
     "per netdev, the LLDP neighbour's system name, port ID and type, chassis ID, port description.",
     parseLldpctlJson},
    {"dcb-pfc-json",
     "`dcb -j pfc show dev <netdev>` (iproute2); a '# dcb -j pfc show dev <netdev>' first line "
     "names the interface (else 'unknown'). Emits its PFC-enabled priorities bitmap.",
     parseDcbPfcShow},
    {"dcb-app-json",
     "`dcb -j app show dev <netdev>` (iproute2); a '# dcb -j app show dev <netdev>' first line "
     "names the interface (else 'unknown'). Emits its trust mode: dscp with dscp-prio rules, else pcp.",
     parseDcbAppShow},
    {"mlnx-qos",
     "`mlnx_qos -i <netdev>` text (NVIDIA MLNX_OFED); its command line ('# mlnx_qos -i <netdev>' or a "
     "shell prompt) names the interface (else 'unknown'). Emits the host port's trust, DSCP map, PFC, "
     "ETS and receive buffers, as the collector does where a host has mlnx_qos and no dcb.",
     parseMlnxQosShow},
};

}  // namespace

std::span<const ParserFormat> rdmaParserFormats() { return kFormats; }

}  // namespace rdmagw::southbound::rdma
