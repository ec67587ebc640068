#include "southbound/nxos/nxos_interface.h"

#include <cctype>
#include <span>
#include <string>
#include <vector>

#include "southbound/nxos/nxos_if_counters.h"
#include "southbound/nxos/nxos_if_state.h"
#include "southbound/nxos/nxos_queue_stats.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {
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
    // "0 runts  0 giants  0 CRC  0 no buffer" (N9K), "0 CRC/FCS" (N7K): frames
    // with a bad FCS, the count `show interface counters errors` calls FCS-Err.
    {"crc", "in-fcs-errors"},                 {"crc/fcs", "in-fcs-errors"},
};
constexpr LabelLeaf kTx[] = {
    {"unicast packets", "out-unicast-pkts"},   {"multicast packets", "out-multicast-pkts"},
    {"broadcast packets", "out-broadcast-pkts"}, {"output packets", "out-pkts"},
    {"bytes", "out-octets"},                   {"output error", "out-errors"},
    {"output errors", "out-errors"},           {"output discard", "out-discards"},
    {"output discards", "out-discards"},       {"tx pause", "out-mac-pause-frames"},
};

// Loopbacks print no RX/TX parts but a short form of their own, the label
// after each number (recorded: tests/fixtures/nxos/nxos_n93180_7.0.3.I7.2_
// show_interface__napalm.txt, loopback1):
//   "12173 packets input 635270 bytes", "3878 multicast frames 0 compressed",
//   "0 input errors 0 frame 0 overrun 0 fifo",
//   "0 packets output 0 bytes 0 underruns", "0 output errors 0 collisions 0 fifo".
// A line is read only when its first label is one of these, so the state
// lines that start with a number ("174 interface resets", "30 seconds input
// rate ...") never are. "multicast frames" follows the input line: received.
constexpr LabelLeaf kShortIn[] = {
    {"packets input", "in-pkts"},
    {"bytes", "in-octets"},
    {"multicast frames", "in-multicast-pkts"},
    {"input errors", "in-errors"},
};
constexpr LabelLeaf kShortOut[] = {
    {"packets output", "out-pkts"},
    {"bytes", "out-octets"},
    {"output errors", "out-errors"},
};

enum class Part { kNone, kRx, kTx };

// "Ethernet1/1 is down (XCVR not inserted)", "mgmt0 is up",
// "Vlan333 is up, line protocol is up, autostate enabled".
std::optional<std::string> blockHeader(const std::vector<std::string_view>& tok) {
  if (tok.size() < 3 || tok[1] != "is") return std::nullopt;
  std::string state = toLower(tok[2]);
  if (!startsWith(state, "up") && !startsWith(state, "down")) return std::nullopt;
  return normalizeIfName(tok[0]);
}

std::string stateWord(std::string_view tok) {
  std::string w = toLower(tok);
  while (!w.empty() && !std::isalpha(static_cast<unsigned char>(w.back()))) w.pop_back();
  return w;
}

// "MTU 1500 bytes, BW 1000000 Kbit, DLY 10 usec", "MTU 9216 bytes",
// "BW 0 Kbit,": the numbers after MTU and BW.
void mtuAndBw(const std::vector<std::string_view>& tok, NxosIfState& st) {
  for (size_t k = 0; k + 1 < tok.size(); ++k) {
    if (tok[k] != "MTU" && tok[k] != "BW") continue;
    std::string_view n = tok[k + 1];
    while (!n.empty() && n.back() == ',') n.remove_suffix(1);
    Result<uint64_t> v = parseCount(n);
    if (!v.isOk()) continue;
    if (tok[k] == "MTU") st.mtu = *v;
    else st.bw_kbit = *v;
  }
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
    if (ifname_) {
      emitIfState(*ifname_, state_, em_);
      counters_.emit(*ifname_, em_);
    }
    counters_ = IfCounters();
    state_ = NxosIfState();
  }

  // The lines between the header and RX: admin state, description, MTU and
  // BW, "full-duplex, 100 Gb/s".
  void stateLine(std::string_view t) {
    std::vector<std::string_view> tok = splitWs(t);
    if (tok.size() >= 4 && tok[0] == "admin" && tok[1] == "state" && tok[2] == "is") {
      state_.admin = stateWord(tok[3]);
      // "admin state is up,  Hardware: NVE": nothing else on it we read.
      return;
    }
    if (startsWith(t, "Description:")) {
      std::string_view d = trim(t.substr(12));
      // Recordings whose line breaks were lost run the next line on after
      // two spaces: "Description: *** LIBRE ***  MTU 9216 bytes, BW ...".
      for (std::string_view next : {"  MTU ", "  Internet Address is "}) {
        size_t at = d.find(next);
        if (at == std::string_view::npos) continue;
        std::string_view rest = d.substr(at);
        d = trim(d.substr(0, at));
        mtuAndBw(splitWs(rest), state_);
      }
      state_.description = std::string(d);
      return;
    }
    if (tok[0] == "MTU" || tok[0] == "BW") {
      mtuAndBw(tok, state_);
      return;
    }
    if (tok.size() >= 2 && (tok[0] == "full-duplex," || tok[0] == "half-duplex," || tok[0] == "auto-duplex,")) {
      std::string_view rest = trim(t.substr(tok[0].size()));
      size_t comma = rest.find(',');
      state_.speed = std::string(trim(rest.substr(0, comma)));
    }
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
      state_.oper = stateWord(tok[2]);
      // "Vlan1 is down (Administratively down), line protocol is down": SVIs
      // print no "admin state is" line; this is where they say it.
      if (t.find("(Administratively down)") != std::string_view::npos) state_.admin = "down";
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
    if (part_ == Part::kNone) {
      if (ifname_ && !shortFormLine(tok, i)) stateLine(t);
      return;
    }
    if (!ifname_) {
      if (!orphan_reported_) em_.error("line " + std::to_string(i + 1) + ": counters before any interface header, skipped");
      orphan_reported_ = true;
      return;
    }
    if (tok.size() == 11 && tok[0] == "ucast:" && tok[6] == "mcast:") {
      vxlanLine(tok, i);
      return;
    }
    pairs(tok, i);
  }

  // An NVE interface's one line per direction: "ucast: 3863244147 pkts,
  // 3306152263688 bytes - mcast: 267502286 pkts, 46942726883 bytes". Its
  // octets are both parts' (read pair by pair, the second "bytes" would
  // replace the first).
  void vxlanLine(const std::vector<std::string_view>& tok, size_t i) {
    const bool rx = part_ == Part::kRx;
    Result<uint64_t> ucast = parseCount(tok[1]), ubytes = parseCount(tok[3]);
    Result<uint64_t> mcast = parseCount(tok[7]), mbytes = parseCount(tok[9]);
    for (const Result<uint64_t>* v : {&ucast, &ubytes, &mcast, &mbytes}) {
      if (!v->isOk()) {
        em_.badCell(i + 1, "ucast/mcast", v->status());
        return;
      }
    }
    counters_.set(rx ? "in-unicast-pkts" : "out-unicast-pkts", *ucast);
    counters_.set(rx ? "in-multicast-pkts" : "out-multicast-pkts", *mcast);
    std::optional<uint64_t> octets = addChecked(*ubytes, *mbytes);
    if (!octets) em_.error("line " + std::to_string(i + 1) + ": octets beyond 64 bits (no value)");
    counters_.set(rx ? "in-octets" : "out-octets", octets);
  }

  // A loopback's counter line (kShortIn, kShortOut); false for any other.
  bool shortFormLine(const std::vector<std::string_view>& tok, size_t i) {
    if (tok.size() < 3 || !isNumberToken(tok[0])) return false;
    const std::string first = toLower(tok[1]) + ' ' + toLower(tok[2]);
    // Every line-opening label has two words; "bytes" (one) never opens one.
    for (std::span<const LabelLeaf> table :
         {std::span<const LabelLeaf>(kShortIn), std::span<const LabelLeaf>(kShortOut)}) {
      for (const LabelLeaf& m : table) {
        if (m.label != first) continue;
        pairs(tok, i, table);
        return true;
      }
    }
    return false;
  }

  // "<number> <label words> <number> <label words> ..."
  void pairs(const std::vector<std::string_view>& tok, size_t i) {
    pairs(tok, i, part_ == Part::kRx ? std::span<const LabelLeaf>(kRx) : std::span<const LabelLeaf>(kTx));
  }

  void pairs(const std::vector<std::string_view>& tok, size_t i, std::span<const LabelLeaf> table) {
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
      assign(label, value, i, table);
    }
  }

  void assign(const std::string& label, std::string_view value, size_t i, std::span<const LabelLeaf> table) {
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
  NxosIfState state_;
  bool orphan_reported_ = false;
};

}  // namespace

Status parseInterface(std::string_view text, TimestampNs ts, PollBatch& out) {
  if (jsonStart(text) != std::string_view::npos) return parseInterfaceJson(text, ts, out);
  Emitter em(kFormat, ts, out);
  InterfaceText(em).run(text);
  return em.finish("interface counters");
}

}  // namespace rdmagw::southbound::nxos
