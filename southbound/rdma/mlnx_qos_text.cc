#include "southbound/rdma/mlnx_qos_text.h"

#include <string>
#include <vector>

#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::rdma {

using text::Problems;
using text::cutBeforeLabels;
using text::parseBounded;
using text::trimBlanks;
using text::tsaFromWord;
using text::words;

namespace {

using rdmagw::roce::HostPort;
using rdmagw::roce::kPriorities;
using rdmagw::roce::Trust;

// Longest first where one label holds another ("default priority:" before
// "priority:").
const std::vector<std::string_view> kLabels = {
    "DCBX mode:",  "Priority trust state:", "dscp2prio mapping:", "default priority:",
    "Receive buffer size", "Cable len:", "PFC configuration:", "priority:",
    "prio:",       "tc:",  "priority ", "enabled ", "buffer "};

std::string_view after(std::string_view line, std::string_view label) { return trimBlanks(line.substr(label.size())); }

// "0   0   0   0   0   1   0   0" -> 8 numbers each <= max.
std::optional<std::vector<uint32_t>> row8(std::string_view rest, uint64_t max, const std::string& what, Problems& p) {
  std::vector<uint32_t> out;
  for (std::string_view w : words(rest)) {
    Result<uint64_t> n = parseBounded(w, max);
    if (!n.isOk()) {
      p.add(what + ": " + n.status().message());
      return std::nullopt;
    }
    out.push_back(uint32_t(*n));
  }
  if (out.size() != size_t(kPriorities)) {
    p.add(what + " has " + std::to_string(out.size()) + " values, not 8");
    return std::nullopt;
  }
  return out;
}

// "1,2,3," -> numbers (empty items skipped); nullopt after naming a bad one.
std::optional<std::vector<uint64_t>> commaList(std::string_view s, uint64_t max, const std::string& what, Problems& p) {
  std::vector<uint64_t> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t c = s.find(',', i);
    if (c == std::string_view::npos) c = s.size();
    const std::string_view item = trimBlanks(s.substr(i, c - i));
    if (!item.empty()) {
      Result<uint64_t> n = parseBounded(item, max);
      if (!n.isOk()) {
        p.add(what + ": " + n.status().message());
        return std::nullopt;
      }
      out.push_back(*n);
    }
    i = c + 1;
  }
  return out;
}

}  // namespace

Status parseMlnxQos(std::string_view text, HostPort& port) {
  Problems p("mlnx_qos");
  bool seen = false;
  // The "tc: N" block the next "priority:" lines belong to; -1 when none (a
  // plain int: g++ 12 misreads an optional here as maybe uninitialized).
  int tc = -1;
  std::map<uint32_t, uint32_t> dscp_map;
  bool dscp_seen = false;
  bool trust_seen = false;  // the map below the trust line is then whole, even when empty
  bool tc_seen = false;
  bool buffer_seen = false;
  for (const std::string& raw : cutBeforeLabels(text, kLabels)) {
    const std::string_view line = trimBlanks(raw);
    if (line.starts_with("DCBX mode:")) {
      port.dcbx_mode = std::string(after(line, "DCBX mode:"));
      seen = true;
    } else if (line.starts_with("Priority trust state:")) {
      const std::string_view v = after(line, "Priority trust state:");
      if (v == "dscp") port.trust = Trust::kDscp;
      else if (v == "pcp") port.trust = Trust::kPcp;
      else p.add("trust state '" + std::string(v.substr(0, 16)) + "' is neither dscp nor pcp");
      seen = trust_seen = true;
    } else if (line.starts_with("prio:")) {
      // "prio:5 dscp:40,47,..."
      const std::vector<std::string_view> w = words(line);
      Result<uint64_t> prio = parseBounded(w[0].substr(5), kPriorities - 1);
      if (!prio.isOk() || w.size() != 2 || !w[1].starts_with("dscp:")) {
        p.add("dscp2prio line '" + std::string(line.substr(0, 40)) + "' is not prio:N dscp:LIST");
        continue;
      }
      auto dscps = commaList(w[1].substr(5), rdmagw::roce::kMaxDscp, "dscp2prio prio " + std::to_string(*prio), p);
      if (!dscps) continue;
      for (uint64_t d : *dscps) dscp_map[uint32_t(d)] = uint32_t(*prio);
      dscp_seen = seen = true;
    } else if (line.starts_with("Receive buffer size")) {
      const size_t colon = line.find(':');
      std::string_view v = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
      if (const size_t m = v.find("max_buffer_size"); m != std::string_view::npos) v = v.substr(0, m);
      auto sizes = commaList(v, UINT32_MAX, "receive buffer size", p);
      if (sizes && sizes->size() == size_t(kPriorities)) {
        for (int i = 0; i < kPriorities; ++i) port.buffer_bytes[i] = (*sizes)[i];
      } else if (sizes) {
        p.add("receive buffer size has " + std::to_string(sizes->size()) + " values, not 8");
      }
      seen = true;
      buffer_seen = true;
    } else if (line.starts_with("enabled ")) {
      if (auto r = row8(after(line, "enabled"), 1, "PFC enabled", p)) {
        uint8_t bits = 0;
        for (int i = 0; i < kPriorities; ++i) bits |= uint8_t((*r)[i] << i);
        port.pfc_enabled = bits;
      }
      seen = true;
    } else if (line.starts_with("buffer ")) {
      if (auto r = row8(after(line, "buffer"), kPriorities - 1, "PFC buffer", p)) {
        for (int i = 0; i < kPriorities; ++i) port.priority_buffer[i] = (*r)[i];
      }
      seen = true;
    } else if (line.starts_with("tc:")) {
      // "tc: 0 ratelimit: unlimited, tsa: ets, bw: 9%"
      tc = -1;
      const std::vector<std::string_view> w = words(after(line, "tc:"));
      Result<uint64_t> n = w.empty() ? Result<uint64_t>(Status::corrupt("no number")) : parseBounded(w[0], kPriorities - 1);
      if (!n.isOk()) {
        p.add("tc line '" + std::string(line.substr(0, 40)) + "': " + n.status().message());
        continue;
      }
      tc = int(*n);
      seen = true;
      tc_seen = true;
      for (size_t i = 1; i + 1 < w.size(); ++i) {
        std::string_view v = w[i + 1];
        while (!v.empty() && (v.back() == ',' || v.back() == '%')) v.remove_suffix(1);
        if (w[i] == "tsa:") {
          if (std::optional<rdmagw::roce::Tsa> t = tsaFromWord(v)) port.tc[tc].tsa = t;
          else p.add("tc " + std::to_string(tc) + ": tsa '" + std::string(v.substr(0, 16)) + "' unknown");
        } else if (w[i] == "bw:") {
          Result<uint64_t> bw = parseBounded(v, 100);
          if (bw.isOk()) port.tc[tc].bandwidth_percent = uint32_t(*bw);
          else p.add("tc " + std::to_string(tc) + " bw: " + bw.status().message());
        }
      }
    } else if (line.starts_with("priority:")) {
      if (tc < 0) continue;  // under a tc line that did not parse
      for (std::string_view w : words(after(line, "priority:"))) {
        Result<uint64_t> prio = parseBounded(w, kPriorities - 1);
        if (!prio.isOk()) {
          p.add("tc " + std::to_string(tc) + " priority: " + prio.status().message());
          continue;
        }
        port.priority_tc[*prio] = uint32_t(tc);
      }
    }
  }
  if (dscp_seen || trust_seen) port.dscp_priority = dscp_map;
  port.read_dscp_map = port.read_dscp_map || dscp_seen || trust_seen;
  port.read_ets = port.read_ets || tc_seen;
  port.read_buffers = port.read_buffers || buffer_seen;
  if (!seen) return Status::corrupt("mlnx_qos: none of its labels (Priority trust state, PFC configuration, tc:)");
  return p.status();
}

}  // namespace rdmagw::southbound::rdma
