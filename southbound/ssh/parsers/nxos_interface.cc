#include "southbound/ssh/parsers/nxos_interface.h"

#include <span>
#include <string>
#include <vector>

#include "southbound/ssh/parsers/nxos_if_counters.h"
#include "southbound/ssh/parsers/nxos_json.h"
#include "southbound/ssh/parsers/nxos_text.h"

namespace rdmagw::southbound::ssh {
namespace {

constexpr std::string_view kFormat = "nxos-interface";

struct LabelLeaf {
  std::string_view label;  // lower case, as printed after the number
  std::string_view leaf;
};

// RX part: "0 unicast packets  260 multicast packets  0 broadcast packets",
// "260 input packets  35017 bytes", "0 input error ...", "0 input discard",
// "0 Rx pause". Unknown labels (runts, jumbo, storm suppression...) skipped.
constexpr LabelLeaf kRx[] = {
    {"unicast packets", "in-unicast-pkts"},   {"multicast packets", "in-multicast-pkts"},
    {"broadcast packets", "in-broadcast-pkts"}, {"input packets", "in-pkts"},
    {"bytes", "in-octets"},                   {"input error", "in-errors"},
    {"input errors", "in-errors"},            {"input discard", "in-discards"},
    {"input discards", "in-discards"},        {"rx pause", "in-mac-pause-frames"},
};
constexpr LabelLeaf kTx[] = {
    {"unicast packets", "out-unicast-pkts"},   {"multicast packets", "out-multicast-pkts"},
    {"broadcast packets", "out-broadcast-pkts"}, {"output packets", "out-pkts"},
    {"bytes", "out-octets"},                   {"output error", "out-errors"},
    {"output errors", "out-errors"},           {"output discard", "out-discards"},
    {"output discards", "out-discards"},       {"tx pause", "out-mac-pause-frames"},
};

enum class Part { kNone, kRx, kTx };

// "Ethernet1/1 is down (XCVR not inserted)", "mgmt0 is up".
std::optional<std::string> blockHeader(const std::vector<std::string_view>& tok) {
  if (tok.size() < 3 || tok[1] != "is") return std::nullopt;
  std::string state = toLower(tok[2]);
  if (!startsWith(state, "up") && !startsWith(state, "down")) return std::nullopt;
  return normalizeIfName(tok[0]);
}

class InterfaceText {
 public:
  explicit InterfaceText(Emitter& em) : em_(em) {}

  void run(std::string_view text) {
    std::vector<std::string_view> lines = splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) line(lines[i], i);
    flush();
  }

 private:
  void flush() {
    if (ifname_) counters_.emit(*ifname_, em_);
    counters_ = IfCounters();
  }

  void line(std::string_view raw, size_t i) {
    std::string_view t = trim(raw);
    if (t.empty()) return;
    if (auto banner = deviceErrorLine(t)) {
      em_.deviceError(*banner);
      return;
    }
    std::vector<std::string_view> tok = splitWs(t);
    if (isPromptLine(t)) {
      // `show int e1/47 | b RX` prints no header line: the prompt names it.
      flush();
      ifname_ = interfaceFromPrompt(t);
      part_ = Part::kNone;
      return;
    }
    if (std::optional<std::string> name = blockHeader(tok)) {
      flush();
      ifname_ = name;
      part_ = Part::kNone;
      return;
    }
    if (iequals(t, "RX")) {
      part_ = Part::kRx;
      return;
    }
    if (iequals(t, "TX")) {
      part_ = Part::kTx;
      return;
    }
    if (part_ == Part::kNone) return;
    if (!ifname_) {
      if (!orphan_reported_) em_.error("line " + std::to_string(i + 1) + ": counters before any interface header, skipped");
      orphan_reported_ = true;
      return;
    }
    pairs(tok, i);
  }

  // "<number> <label words> <number> <label words> ..."
  void pairs(const std::vector<std::string_view>& tok, size_t i) {
    size_t k = 0;
    while (k < tok.size()) {
      if (!isNumberToken(tok[k])) {
        ++k;
        continue;
      }
      std::string_view value = tok[k++];
      std::string label;
      while (k < tok.size() && !isNumberToken(tok[k])) {
        if (!label.empty()) label += ' ';
        label += toLower(tok[k++]);
      }
      while (!label.empty() && (label.back() == ',' || label.back() == ';')) label.pop_back();
      assign(label, value, i);
    }
  }

  void assign(const std::string& label, std::string_view value, size_t i) {
    std::span<const LabelLeaf> table = part_ == Part::kRx ? std::span<const LabelLeaf>(kRx)
                                                          : std::span<const LabelLeaf>(kTx);
    for (const LabelLeaf& m : table) {
      if (m.label != label) continue;
      Result<uint64_t> v = parseCount(value);
      if (v.status().code() == Status::Code::kNotFound) return;
      if (!v.isOk()) em_.badCell(i + 1, label, v.status());
      counters_.set(m.leaf, v.isOk() ? std::optional<uint64_t>(v.value()) : std::nullopt);
      return;
    }
  }

  Emitter& em_;
  std::optional<std::string> ifname_;
  Part part_ = Part::kNone;
  IfCounters counters_;
  bool orphan_reported_ = false;
};

}  // namespace

Status parseInterface(std::string_view text, TimestampNs ts, PollBatch& out) {
  if (jsonStart(text) != std::string_view::npos) return parseInterfaceJson(text, ts, out);
  Emitter em(kFormat, ts, out);
  InterfaceText(em).run(text);
  return em.finish("interface counters");
}

}  // namespace rdmagw::southbound::ssh
