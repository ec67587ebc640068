#include "southbound/esxi/esxi_dcb_config.h"

#include <optional>
#include <string>
#include <vector>

#include "southbound/esxi/esxi_text_util.h"
#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::esxi {

using text::Problems;
using text::parseBounded;
using text::trimBlanks;
using text::words;

namespace {

using rdmagw::roce::kPriorities;
using rdmagw::roce::Tsa;

std::optional<std::vector<uint32_t>> eightValues(std::string_view v, uint64_t max, const std::string& key, Problems& p) {
  std::vector<uint32_t> out;
  for (std::string_view w : words(v)) {
    Result<uint64_t> n = parseBounded(w, max);
    if (!n.isOk()) {
      p.add(key + ": " + n.status().message());
      return std::nullopt;
    }
    out.push_back(uint32_t(*n));
  }
  if (out.size() != size_t(kPriorities)) {
    p.add(key + " has " + std::to_string(out.size()) + " values, not 8");
    return std::nullopt;
  }
  return out;
}

std::optional<Tsa> ieeeTsa(uint32_t code) {
  switch (code) {
    case 0: return Tsa::kStrict;
    case 1: return Tsa::kCbs;
    case 2: return Tsa::kEts;
    case 255: return Tsa::kVendor;
    default: return std::nullopt;
  }
}

}  // namespace

Status parseEsxiDcbConfig(std::string_view text, rdmagw::roce::HostPort& port) {
  if (std::string err = esxiErrorLine(text); !err.empty()) {
    return Status::notFound("esxcli nic dcb: " + err);
  }
  Problems p("esxcli nic dcb");
  std::optional<std::string> pfc_enabled;
  std::optional<std::string> pfc_config;
  for (const EsxiLine& line : esxiLines(text)) {
    const std::string_view t = trimBlanks(line.text);
    const size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key(trimBlanks(t.substr(0, colon)));
    const std::string_view value = trimBlanks(t.substr(colon + 1));
    // The first of each: "PFC Configuration" comes again under the IEEE block.
    if (key == "Nic Name" && port.name.empty()) port.name = std::string(value);
    if (key == "Mode" && !port.dcbx_mode) {
      port.dcbx_mode = value.find("IEEE") != std::string_view::npos ? "IEEE"
                       : value.find("CEE") != std::string_view::npos ? "CEE"
                                                                      : std::string(value);
    }
    if (key == "PFC Enabled" && !pfc_enabled) pfc_enabled = std::string(value);
    if (key == "PFC Configuration" && !pfc_config) pfc_config = std::string(value);
    if (key == "TX Bandwidth Per TC") {
      if (auto v = eightValues(value, 100, key, p)) {
        for (int i = 0; i < kPriorities; ++i) port.tc[i].bandwidth_percent = (*v)[i];
      }
    } else if (key == "TSA Assignment Table Per TC") {
      if (auto v = eightValues(value, 255, key, p)) {
        for (int i = 0; i < kPriorities; ++i) {
          if (std::optional<Tsa> tsa = ieeeTsa((*v)[i])) port.tc[i].tsa = tsa;
          else p.add(key + ": TSA code " + std::to_string((*v)[i]) + " is not 0, 1, 2 or 255");
        }
        port.read_ets = true;
      }
    } else if (key == "Priority Assignment Per TC") {
      if (auto v = eightValues(value, kPriorities - 1, key, p)) {
        for (int i = 0; i < kPriorities; ++i) port.priority_tc[i] = (*v)[i];
      }
    }
  }
  if (!pfc_enabled) return Status::corrupt("esxcli nic dcb: no 'PFC Enabled' line");
  if (*pfc_enabled == "false") {
    port.pfc_enabled = 0;
  } else if (*pfc_enabled != "true") {
    p.add("PFC Enabled is '" + pfc_enabled->substr(0, 16) + "', not true/false");
  } else if (auto v = eightValues(pfc_config.value_or(""), 1, "PFC Configuration", p)) {
    uint8_t bits = 0;
    for (int i = 0; i < kPriorities; ++i) bits |= uint8_t((*v)[i] << i);
    port.pfc_enabled = bits;
  }
  return p.status();
}

}  // namespace rdmagw::southbound::esxi
