#include "southbound/ssh/profiles/esxi_profile.h"

#include "models/roce_leaves.h"
#include "southbound/esxi/esxi_dcb.h"
#include "southbound/esxi/esxi_dcb_config.h"
#include "southbound/esxi/esxi_nic_list.h"
#include "southbound/esxi/esxi_nic_stats.h"
#include "southbound/esxi/esxi_vsish.h"

#include <set>
#include <string>
#include <vector>

namespace rdmagw::southbound::ssh {

using esxi::parseEsxiDcbStatusFor;
using esxi::parseEsxiNicList;
using esxi::parseEsxiNicStatsFor;
using esxi::parseEsxiVsishStatsFor;

std::string esxiBundleCommand() {
  // busybox sh on ESXi: POSIX only. vmnic names come from the device, so
  // they are used only inside double quotes.
  return "esxcli network nic list; "
         "for n in $(esxcli network nic list | awk 'NR>2 && $1 ~ /^vmnic[0-9]+$/ {print $1}'); do "
         "echo \"@@rdmagw nic-stats $n\"; esxcli network nic stats get -n \"$n\"; "
         "echo \"@@rdmagw vsish $n\"; vsish -e cat \"/net/pNics/$n/stats\"; "
         "echo \"@@rdmagw dcb $n\"; esxcli network nic dcb status get -n \"$n\"; "
         "done";
}

namespace {

// The same output as the vmnic's host NIC port for `rdmagw check roce`
// (models/roce_leaves.h): PFC priorities and the ETS table (priority ->
// traffic class, TSA, bandwidth). ESXi says nothing about trust, the DSCP
// map, buffers or DCQCN: those leaves stay absent. A value that does not
// parse is an error line; the rest is written.
void appendEsxiRoceConfig(std::string_view nic, std::string_view body, TimestampNs ts, PollBatch& out) {
  rdmagw::roce::HostPort port;
  const Status st = esxi::parseEsxiDcbConfig(body, port);
  if (st.code() != Status::Code::kOk && st.code() != Status::Code::kInvalidArgument) return;
  if (!st.isOk()) out.error(std::string(nic) + " dcb: " + st.message());
  port.name = std::string(nic);
  port.dcbx_mode.reset();
  rdmagw::roce::appendHostPortLeaves(port, ts, out);
}

// Runs one section's parser; its failure is that section's error line only.
void parseSection(std::string_view kind, std::string_view nic, std::string_view body, TimestampNs ts,
                  PollBatch& out) {
  Status st = Status::ok();
  if (kind == "nic-stats") {
    st = parseEsxiNicStatsFor(nic, body, ts, out);
  } else if (kind == "vsish") {
    st = parseEsxiVsishStatsFor(nic, body, ts, out);
  } else if (kind == "dcb") {
    st = parseEsxiDcbStatusFor(nic, body, ts, out);
    if (st.code() == Status::Code::kNotFound) return;  // no DCB on this vmnic: unknown, quietly
    if (st.isOk()) appendEsxiRoceConfig(nic, body, ts, out);
  } else {
    out.error("esxi bundle: unknown section \"" + std::string(kind) + "\"");
    return;
  }
  if (!st.isOk()) out.error(std::string(nic) + " " + std::string(kind) + ": " + st.message());
}

}  // namespace

namespace {

struct Section {
  std::string_view kind, nic, body;
};

// Splits the bundle at lines that start with the marker; what precedes the
// first marker is `esxcli network nic list`.
std::vector<Section> splitSections(std::string_view text, std::string_view* list, PollBatch& out) {
  std::vector<size_t> starts;
  for (size_t pos = 0; pos < text.size();) {
    if (text.substr(pos, kEsxiSectionMarker.size()) == kEsxiSectionMarker) starts.push_back(pos);
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  *list = text.substr(0, starts.empty() ? text.size() : starts.front());
  std::vector<Section> sections;
  for (size_t i = 0; i < starts.size(); ++i) {
    const size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
    std::string_view section = text.substr(starts[i], end - starts[i]);
    const size_t nl = section.find('\n');
    std::string_view header = section.substr(kEsxiSectionMarker.size(), nl == std::string_view::npos
                                                                            ? std::string_view::npos
                                                                            : nl - kEsxiSectionMarker.size());
    std::string_view body = nl == std::string_view::npos ? std::string_view() : section.substr(nl + 1);
    const size_t space = header.find(' ');
    if (space == std::string_view::npos) {
      out.error("esxi bundle: malformed section header \"" + std::string(header) + "\"");
      continue;
    }
    sections.push_back(Section{header.substr(0, space), header.substr(space + 1), body});
  }
  return sections;
}

}  // namespace

Status parseEsxiBundle(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::string_view list;
  const std::vector<Section> sections = splitSections(text, &list, out);
  Status list_status = parseEsxiNicList(list, ts, out);
  if (!list_status.isOk()) out.error("esxcli network nic list: " + list_status.message());
  // `esxcli nic stats` and vsish both carry a vmnic's generic counters, read
  // moments apart. Writing a leaf from both would let the later reading be
  // overwritten by the earlier one in the same poll (a false counter reset),
  // and on drivers whose two views count slightly differently it would flip
  // every poll. So vsish, read second and the fuller view, owns every leaf it
  // gives; esxcli fills only the leaves vsish did not (no vsish, an old build,
  // a failed section).
  std::vector<PollBatch> esxcli_stats;
  std::set<std::string> from_vsish;
  for (const Section& s : sections) {
    if (s.kind == "nic-stats") {
      parseSection(s.kind, s.nic, s.body, ts, esxcli_stats.emplace_back());
      continue;
    }
    const size_t first = out.updates.size();
    parseSection(s.kind, s.nic, s.body, ts, out);
    if (s.kind == "vsish") {
      for (size_t i = first; i < out.updates.size(); ++i) from_vsish.insert(out.updates[i].path);
    }
  }
  for (PollBatch& batch : esxcli_stats) {
    for (Update& u : batch.updates) {
      if (!from_vsish.contains(u.path)) out.updates.push_back(std::move(u));
    }
    for (std::string& e : batch.errors) out.error(std::move(e));
  }
  if (!list_status.isOk() && sections.empty()) return list_status;
  return Status::ok();
}

std::vector<CliCommand> esxiCommands() { return {CliCommand(esxiBundleCommand(), parseEsxiBundle)}; }

}  // namespace rdmagw::southbound::ssh
