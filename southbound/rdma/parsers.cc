#include "southbound/rdma/parsers.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/roce_leaves.h"
#include "southbound/rdma/dcb_show.h"
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

// "dcb [-j ]<object> show dev <netdev>" anywhere in `line` (a '#' line, a
// shell prompt): the object and netdev, else nullopt.
std::optional<std::pair<std::string, std::string>> dcbShowLine(std::string_view line) {
  const size_t at = line.find("dcb ");
  if (at == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> w;
  for (std::string_view rest = line.substr(at); !rest.empty();) {
    const size_t b = rest.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) break;
    rest.remove_prefix(b);
    const size_t e = std::min(rest.find_first_of(" \t\r"), rest.size());
    w.push_back(rest.substr(0, e));
    rest.remove_prefix(e);
  }
  size_t i = 1;
  if (i < w.size() && w[i] == "-j") ++i;
  if (i + 3 >= w.size() || w[i + 1] != "show" || w[i + 2] != "dev") return std::nullopt;
  return std::make_pair(std::string(w[i]), std::string(w[i + 3]));
}

}  // namespace

Status parseDcbShowText(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::string netdev = "unknown";
  for (size_t at = 0; at < text.size();) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    if (auto named = dcbShowLine(text.substr(at, nl - at))) {
      netdev = named->second;
      break;
    }
    at = nl + 1;
  }
  rdmagw::roce::HostPort port;
  port.name = netdev;
  const Status st = parseDcbText(text, port);
  if (st.code() == Status::Code::kCorrupt) return st;
  if (!st.isOk()) out.error(netdev + ": " + st.message());
  rdmagw::roce::appendHostPortLeaves(port, ts, out);
  return Status::ok();
}

Status parseDcbShowJson(std::string_view text, TimestampNs ts, PollBatch& out) {
  struct Doc {
    std::string object, netdev, json;
  };
  std::vector<Doc> docs;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (line.starts_with('#')) {
      if (auto named = dcbShowLine(line)) docs.push_back(Doc{named->first, named->second, ""});
      continue;
    }
    if (!docs.empty()) docs.back().json.append(line).push_back('\n');
  }
  if (docs.empty()) return Status::corrupt("dcb -j: no '# dcb -j <object> show dev <netdev>' line");
  // A port is written when one of its documents parsed (a bad value in it is
  // an error line and the rest is kept); a damaged document is an error line.
  std::map<std::string, rdmagw::roce::HostPort> ports;
  std::map<std::string, bool> parsed;
  for (const Doc& d : docs) {
    rdmagw::roce::HostPort& port = ports[d.netdev];
    port.name = d.netdev;
    const Status st = parseDcbJson(d.object, d.json, port);
    parsed[d.netdev] = parsed[d.netdev] || st.code() != Status::Code::kCorrupt;
    if (!st.isOk()) out.error(d.netdev + " " + d.object + ": " + st.message());
  }
  bool any = false;
  for (const auto& entry : ports) {
    if (!parsed[entry.first]) continue;
    any = true;
    rdmagw::roce::appendHostPortLeaves(entry.second, ts, out);
  }
  if (!any) return Status::corrupt("dcb -j: no document parsed");
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
    {"dcb-json",
     "One or more `dcb -j pfc|app|ets|buffer show dev <netdev>` documents, each after its '# dcb -j <object> "
     "show dev <netdev>' line (the remote dump's sections). Emits the host port's PFC, trust, DSCP map, ETS "
     "and receive buffers, as the collector reads them.",
     parseDcbShowJson},
    {"dcb-show",
     "`dcb ets|pfc|buffer|app show dev <netdev>` text (iproute2 without -j, one or several shows); the first "
     "'dcb <object> show dev <netdev>' command line names the interface (else 'unknown'). Emits the host "
     "port's ETS, PFC, receive buffers and DSCP map.",
     parseDcbShowText},
};

}  // namespace

std::span<const ParserFormat> rdmaParserFormats() { return kFormats; }

}  // namespace rdmagw::southbound::rdma
