#include "southbound/nxos/nxos_pfc_watchdog.h"

#include <optional>
#include <string>

#include "southbound/nxos/nxos_text.h"
#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::nxos {

using text::Problems;
using text::parseBounded;
using text::trimBlanks;
using text::words;

namespace {

using rdmagw::roce::PfcWatchdogPort;
using rdmagw::roce::PfcWatchdogQueue;

// The text between '[' and ']' after `key` in `line` ("PFC [YES]" -> "YES").
std::optional<std::string> bracketAfter(std::string_view line, std::string_view key) {
  const size_t k = line.find(key);
  if (k == std::string_view::npos) return std::nullopt;
  const size_t open = line.find('[', k + key.size());
  const size_t close = open == std::string_view::npos ? open : line.find(']', open);
  if (close == std::string_view::npos) return std::nullopt;
  return std::string(trimBlanks(line.substr(open + 1, close - open - 1)));
}

std::string_view valueAfterColon(std::string_view line) {
  const size_t c = line.find(':');
  return c == std::string_view::npos ? std::string_view() : trimBlanks(line.substr(c + 1));
}

}  // namespace

Status parseNxosPfcWatchdog(std::string_view text, rdmagw::roce::SwitchQos& qos) {
  Problems p("show queuing pfc-queue detail");
  std::string ifname;
  PfcWatchdogPort* port = nullptr;
  PfcWatchdogQueue* queue = nullptr;
  bool seen = false;
  auto current = [&]() -> PfcWatchdogPort& {
    if (port == nullptr) port = &qos.watchdog[ifname];
    return *port;
  };
  for (const std::string& raw : decollapseLines(text)) {
    const std::string_view line = trimBlanks(raw);
    if (std::optional<std::string> banner = deviceErrorLine(line)) {
      return Status::unavailable("show queuing pfc-queue: device error: " + banner->substr(0, 80));
    }
    if (std::optional<std::string> prompt_if = interfaceFromPrompt(line)) {
      ifname = *prompt_if;
      port = nullptr;
      queue = nullptr;
      continue;
    }
    if (const size_t h = line.find("Interface PFC watchdog"); h != std::string_view::npos) {
      const std::vector<std::string_view> w = words(line.substr(0, h));
      std::optional<std::string> name = w.size() == 1 ? normalizeIfName(w[0]) : std::nullopt;
      if (!name) {
        p.add("'" + std::string(line.substr(0, 60)) + "': no interface name before 'Interface PFC watchdog'");
        port = nullptr;
        queue = nullptr;
        continue;
      }
      ifname = *name;
      port = &qos.watchdog[ifname];
      queue = nullptr;
      seen = true;
      if (std::optional<std::string> state = bracketAfter(line, "watchdog")) {
        if (*state == "Enabled") port->enabled = true;
        else if (*state == "Disabled") port->enabled = false;
        else p.add(ifname + ": watchdog state '" + state->substr(0, 16) + "' is neither Enabled nor Disabled");
      }
      continue;
    }
    if (line.starts_with("Disable-action")) {
      current().disable_action = std::string(valueAfterColon(line));
      continue;
    }
    if (line.find("interface-multiplier") != std::string_view::npos) {
      Result<uint64_t> n = parseBounded(valueAfterColon(line), UINT32_MAX);
      if (n.isOk()) current().interface_multiplier = *n;
      else p.add(ifname + " interface-multiplier: " + n.status().message());
      continue;
    }
    std::string_view body = line;
    while (body.starts_with('|')) body.remove_prefix(1);
    body = trimBlanks(body);
    if (body.starts_with("QOS GROUP")) {
      const std::vector<std::string_view> w = words(body);
      Result<uint64_t> group = w.size() > 2 ? parseBounded(w[2], 7) : Result<uint64_t>(Status::corrupt("no number"));
      if (!group.isOk()) {
        p.add("'" + std::string(body.substr(0, 60)) + "': qos-group " + group.status().message());
        queue = nullptr;
        continue;
      }
      PfcWatchdogPort& pt = current();
      pt.queues.push_back(PfcWatchdogQueue{});
      queue = &pt.queues.back();
      queue->qos_group = uint32_t(*group);
      seen = true;
      if (w.size() > 3 && w[3].starts_with('[')) queue->state = std::string(trimBlanks(w[3].substr(1, w[3].size() - 2)));
      // " PFC " with its blanks: not the "PFC-COS" that follows it.
      if (std::optional<std::string> pfc = bracketAfter(body, " PFC ")) queue->pfc = *pfc == "YES";
      if (std::optional<std::string> cos = bracketAfter(body, "PFC-COS")) {
        Result<uint64_t> c = parseBounded(*cos, 7);
        if (c.isOk()) queue->pfc_cos = uint32_t(*c);
        else p.add("qos-group " + std::to_string(*group) + " PFC-COS: " + c.status().message());
      }
      continue;
    }
    // "|   Total pkts drained|   3|": a counter row of the current group.
    if (queue != nullptr && line.starts_with('|')) {
      const std::vector<std::string_view> cells = splitBars(line);
      if (cells.size() != 2 || cells[0].empty() || cells[0] == "Stats" || cells[1] == "Stats") continue;
      Result<uint64_t> n = parseCount(cells[1]);
      if (n.isOk()) queue->stats[std::string(cells[0])] = *n;
      else if (n.status().code() != Status::Code::kNotFound) {
        p.add("qos-group " + std::to_string(queue->qos_group) + " '" + std::string(cells[0]) + "': " + n.status().message());
      }
    }
  }
  if (!seen) return Status::corrupt("show queuing pfc-queue: no 'Interface PFC watchdog' or 'QOS GROUP' line");
  return p.status();
}

}  // namespace rdmagw::southbound::nxos
