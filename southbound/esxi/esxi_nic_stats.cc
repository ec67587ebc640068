#include "southbound/esxi/esxi_nic_stats.h"

#include <set>
#include <string>

#include "southbound/esxi/esxi_text_util.h"

namespace rdmagw::southbound::esxi {
namespace {

struct LabelRule {
  std::string_view folded_label;  // esxiFoldName of the esxcli label
  std::string_view leaf;          // below state/counters/
};

constexpr LabelRule kLabels[] = {
    {"packetsreceived", "packets-received"},
    {"packetssent", "packets-sent"},
    {"bytesreceived", "bytes-received"},
    {"bytessent", "bytes-sent"},
    {"receivepacketsdropped", "receive-packets-dropped"},
    {"transmitpacketsdropped", "transmit-packets-dropped"},
    {"multicastpacketsreceived", "multicast-packets-received"},
    {"broadcastpacketsreceived", "broadcast-packets-received"},
    {"multicastpacketssent", "multicast-packets-sent"},
    {"broadcastpacketssent", "broadcast-packets-sent"},
    {"totalreceiveerrors", "total-receive-errors"},
    {"receivelengtherrors", "receive-length-errors"},
    {"receiveovererrors", "receive-over-errors"},
    {"receivecrcerrors", "receive-crc-errors"},
    {"receiveframeerrors", "receive-frame-errors"},
    {"receivefifoerrors", "receive-fifo-errors"},
    {"receivemissederrors", "receive-missed-errors"},
    {"totaltransmiterrors", "total-transmit-errors"},
    {"transmitabortederrors", "transmit-aborted-errors"},
    {"transmitcarriererrors", "transmit-carrier-errors"},
    {"transmitfifoerrors", "transmit-fifo-errors"},
    {"transmitheartbeaterrors", "transmit-heartbeat-errors"},
    {"transmitwindowerrors", "transmit-window-errors"},
};

const LabelRule* findLabel(std::string_view label) {
  const std::string folded = esxiFoldName(label);
  for (const LabelRule& r : kLabels) {
    if (r.folded_label == folded) return &r;
  }
  return nullptr;
}

constexpr std::string_view kHeader = "NIC statistics for ";

// Name from the header, else from a "-n <nic>" / "--nic-name=<nic>" prompt.
std::string nicFromText(const std::vector<EsxiLine>& lines) {
  for (const EsxiLine& l : lines) {
    std::string_view t = esxiTrim(l.text);
    if (t.substr(0, kHeader.size()) == kHeader) return std::string(esxiTrim(t.substr(kHeader.size())));
  }
  for (const EsxiLine& l : lines) {
    std::string_view t = esxiTrim(l.text);
    if (t.find("nic stats get") == std::string_view::npos) continue;
    for (std::string_view flag : {std::string_view("-n "), std::string_view("--nic-name=")}) {
      size_t at = t.find(flag);
      if (at == std::string_view::npos) continue;
      std::string_view rest = esxiTrim(t.substr(at + flag.size()));
      return std::string(rest.substr(0, rest.find_first_of(" \t|")));
    }
  }
  return {};
}

Status parseFor(const std::string& nic, const std::vector<EsxiLine>& lines, std::string_view text,
                TimestampNs ts, PollBatch& out) {
  if (!esxiValidNicName(nic)) {
    return Status::invalidArgument("esxcli nic stats: bad NIC name '" + nic.substr(0, 64) + "'");
  }
  std::set<std::string_view> seen;
  size_t emitted = 0;
  std::vector<std::string> problems;
  for (const EsxiLine& l : lines) {
    std::string_view t = esxiTrim(l.text);
    if (t.empty() || t.front() == '#' || t.front() == '$') continue;
    if (t.substr(0, kHeader.size()) == kHeader) continue;
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      problems.push_back("line " + std::to_string(l.number) + ": not 'Label: value'");
      continue;
    }
    const LabelRule* rule = findLabel(t.substr(0, colon));
    if (!rule) continue;  // a label this release added: not ours to guess
    if (!l.terminated) {
      problems.push_back("line " + std::to_string(l.number) +
                         ": last line has no line break (output cut off?); dropped");
      continue;
    }
    Result<uint64_t> v = esxiParseUnsigned(t.substr(colon + 1));
    if (!v.isOk()) {
      problems.push_back("line " + std::to_string(l.number) + " (" + std::string(rule->leaf) +
                         "): " + v.status().message());
      continue;
    }
    if (!seen.insert(rule->leaf).second) {
      problems.push_back("line " + std::to_string(l.number) + ": " + std::string(rule->leaf) +
                         " repeated; first value kept");
      continue;
    }
    out.add(esxiNicStatePath(nic, "counters/" + std::string(rule->leaf)), v.value(), ts);
    ++emitted;
  }
  if (emitted == 0) {
    std::string err = esxiErrorLine(text);
    std::string msg = "esxcli nic stats " + nic + ": no counter found";
    if (!err.empty()) msg += " (device said: " + err + ")";
    if (!problems.empty()) msg += "; " + problems.front();
    return Status::corrupt(msg);
  }
  if (!problems.empty()) {
    std::string msg = "esxcli nic stats " + nic + ": " + std::to_string(problems.size()) +
                      " line(s) not used";
    for (size_t i = 0; i < problems.size() && i < 5; ++i) msg += "; " + problems[i];
    out.error(std::move(msg));
  }
  return Status::ok();
}

}  // namespace

Status parseEsxiNicStats(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::vector<EsxiLine> lines = esxiLines(text);
  std::string nic = nicFromText(lines);
  if (nic.empty()) {
    std::string err = esxiErrorLine(text);
    return Status::corrupt("esxcli nic stats: no 'NIC statistics for <nic>' header" +
                           (err.empty() ? std::string() : " (device said: " + err + ")"));
  }
  return parseFor(nic, lines, text, ts, out);
}

Status parseEsxiNicStatsFor(std::string_view nic, std::string_view text, TimestampNs ts,
                            PollBatch& out) {
  std::vector<EsxiLine> lines = esxiLines(text);
  std::string named = nicFromText(lines);
  if (!named.empty() && named != nic) {
    return Status::invalidArgument("esxcli nic stats: asked for " + std::string(nic) +
                                   " but the output is for " + named.substr(0, 64));
  }
  return parseFor(std::string(nic), lines, text, ts, out);
}

}  // namespace rdmagw::southbound::esxi
