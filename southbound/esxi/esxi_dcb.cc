#include "southbound/esxi/esxi_dcb.h"

#include <optional>
#include <string>

#include "southbound/esxi/esxi_text_util.h"

namespace rdmagw::southbound::esxi {
namespace {

// "0 0 0 1 0 0 0 0" -> bit 3.
std::optional<uint64_t> flags(std::string_view text) {
  uint64_t bits = 0;
  int n = 0;
  for (char c : text) {
    if (c == ' ' || c == '\t') continue;
    if ((c != '0' && c != '1') || n == 8) return std::nullopt;
    if (c == '1') bits |= uint64_t(1) << n;
    ++n;
  }
  if (n != 8) return std::nullopt;
  return bits;
}

}  // namespace

Status parseEsxiDcbStatusFor(std::string_view nic, std::string_view text, TimestampNs ts, PollBatch& out) {
  if (std::string err = esxiErrorLine(text); !err.empty()) return Status::notFound("esxcli nic dcb: " + err);
  std::optional<std::string> pfc_enabled;
  std::optional<std::string_view> pfc_config;
  std::optional<std::string> mode;
  for (const EsxiLine& line : esxiLines(text)) {
    const std::string_view t = esxiTrim(line.text);
    const size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = esxiTrim(t.substr(0, colon));
    const std::string_view value = esxiTrim(t.substr(colon + 1));
    if (key == "Nic Name" && !value.empty() && value != nic) {
      return Status::invalidArgument("esxcli nic dcb: asked for " + std::string(nic) + " but the output is for " +
                                     std::string(value.substr(0, 64)));
    }
    // The first of each: "PFC Configuration" comes again under the IEEE block.
    if (key == "PFC Enabled" && !pfc_enabled) pfc_enabled = std::string(value);
    if (key == "PFC Configuration" && !pfc_config) pfc_config = value;
    // "Mode: 3 - IEEE Mode", "Mode: IEEE Mode", "Mode: CEE Mode".
    if (key == "Mode" && !mode) {
      mode = value.find("IEEE") != std::string_view::npos ? "IEEE"
             : value.find("CEE") != std::string_view::npos ? "CEE"
                                                            : std::string(value);
    }
  }
  if (mode && !mode->empty()) out.add(esxiNicStatePath(nic, "dcbx-mode"), Value{*mode}, ts);
  if (!pfc_enabled) return Status::corrupt("esxcli nic dcb: no 'PFC Enabled' line");
  if (*pfc_enabled == "false") {
    out.add(esxiNicStatePath(nic, "pfc-enabled-priorities"), Value{uint64_t{0}}, ts);
    return Status::ok();
  }
  if (*pfc_enabled != "true") return Status::corrupt("esxcli nic dcb: PFC Enabled is '" + *pfc_enabled + "'");
  std::optional<uint64_t> bits = pfc_config ? flags(*pfc_config) : std::nullopt;
  if (!bits) {
    return Status::corrupt("esxcli nic dcb: 'PFC Configuration' is not 8 flags 0/1: '" +
                           std::string(pfc_config.value_or("").substr(0, 40)) + "'");
  }
  out.add(esxiNicStatePath(nic, "pfc-enabled-priorities"), Value{*bits}, ts);
  return Status::ok();
}

}  // namespace rdmagw::southbound::esxi
