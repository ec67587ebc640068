#include "southbound/nxos/nxos_queuing.h"

#include <string>
#include <vector>

#include "southbound/nxos/nxos_pfc_detail.h"
#include "southbound/nxos/nxos_queue_stats.h"
#include "southbound/nxos/nxos_queuing_json.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

// Interpretations (the fixtures do not settle these; say so where it matters):
// - A queue's transmit/dropped/ECN value is the sum of its Unicast, OOBFC
//   Unicast and Multicast cells: the qos-group's traffic of every kind.
// - Ingress drops are the sum of the "Per Port Ingress Statistics" rows that
//   end in "Drop Pkts" (Hi/Low Priority, Ingress Overflow, Ingress MMU). The
//   "Per Slice" rows are shared by every port of the slice and are skipped.
// - CONTROL and SPAN QOS GROUP boxes have no qos-group number: skipped.
// - Legacy N5K: "Pkts sent to the port" of RX Queuing qos-group N is queue N's
//   transmit-pkts; "Pkts discarded on ingress" of every qos-group add up to
//   the port's ingress drops (only the groups printed: with output cut by the
//   user this is a lower bound).

namespace rdmagw::southbound::nxos {
namespace {

constexpr std::string_view kFormat = "nxos-queuing";

enum class Section { kNone, kEgress, kPortEgress, kIngress, kPortIngress, kSliceIngress, kLegacyRx, kLegacyTx };

std::string lineRef(size_t index) { return "line " + std::to_string(index + 1); }

class QueuingText {
 public:
  explicit QueuingText(Emitter& em) : em_(em) {}

  void run(const std::vector<std::string>& lines) {
    for (size_t i = 0; i < lines.size(); ++i) i = line(lines, i);
    flushAll();
  }

 private:
  void flushAll() {
    group_.flush(em_);
    ingress_.flush(em_);
  }

  void setInterface(std::optional<std::string> name, size_t i) {
    flushAll();
    ifname_ = std::move(name);
    cols_.clear();
    if (!ifname_) em_.error(lineRef(i) + ": interface header without a usable interface name");
  }

  // Returns the index of the last line consumed.
  size_t line(const std::vector<std::string>& lines, size_t i) {
    std::string_view t = trim(lines[i]);
    if (t.empty() || isRuleLine(t) || t == "^") return i;
    if (auto banner = deviceErrorLine(t)) {
      em_.deviceError(*banner);
      return i;
    }
    if (isPromptLine(t)) {
      flushAll();
      ifname_ = interfaceFromPrompt(t);
      section_ = Section::kNone;
      cols_.clear();
      return i;
    }
    std::vector<std::string_view> tok = splitWs(t);
    if ((startsWith(t, "Egress Queuing for ") || startsWith(t, "Ingress Queuing for ")) && tok.size() >= 4) {
      setInterface(normalizeIfName(tok[3]), i);
      section_ = t[0] == 'E' ? Section::kEgress : Section::kIngress;
      return i;
    }
    if (tok.size() == 3 && iequals(tok[1], "queuing") && iequals(tok[2], "information:")) {
      setInterface(normalizeIfName(tok[0]), i);
      section_ = Section::kNone;
      return i;
    }
    if (t == "PFC Statistics") {
      group_.flush(em_);
      section_ = Section::kNone;
      return parsePfcStatisticsBlock(lines, i, ifname_, em_) - 1;
    }
    if (Section s = sectionTitle(t); s != Section::kNone) {
      group_.flush(em_);
      section_ = s;
      return i;
    }
    if (t.front() == '|') {
      box(t, i);
      return i;
    }
    switch (section_) {
      case Section::kPortIngress: portIngressRow(tok, i); break;
      case Section::kLegacyRx: legacyRxRow(t, tok, i); break;
      default: break;
    }
    return i;
  }

  static Section sectionTitle(std::string_view t) {
    if (t == "Per Port Ingress Statistics" || t == "Port Ingress Statistics") return Section::kPortIngress;
    if (t == "Per Slice Ingress Statistics") return Section::kSliceIngress;
    if (t == "Port Egress Statistics" || t == "Per Port Egress Statistics") return Section::kPortEgress;
    if (t == "RX Queuing") return Section::kLegacyRx;
    if (t == "TX Queuing") return Section::kLegacyTx;
    return Section::kNone;
  }

  // "|   QOS GROUP 5   |", "|        |  Unicast |Multicast |", "|  Tx Pkts |  12|  0|".
  void box(std::string_view t, size_t i) {
    std::vector<std::string_view> cells = splitBars(t);
    if (cells.empty()) return;
    if (cells.size() == 1) {
      std::string title = toLower(cells[0]);
      if (title.find("qos group") == std::string::npos) return;
      group_.flush(em_);
      cols_.clear();
      std::vector<std::string_view> w = splitWs(cells[0]);
      bool numbered = w.size() == 3 && iequals(w[0], "QOS") && iequals(w[1], "GROUP") &&
                      parseCount(w[2]).isOk() && w[2].find(',') == std::string_view::npos;
      if (!numbered) return;  // CONTROL / SPAN QOS GROUP: no queue number
      if (!ifname_) {
        em_.error(lineRef(i) + ": QOS GROUP box without an interface header, skipped");
        return;
      }
      section_ = Section::kEgress;
      group_.reset(*ifname_, std::string(w[2]));
      return;
    }
    if (cells[0].empty()) {  // column header
      cols_.assign(cells.begin() + 1, cells.end());
      return;
    }
    if (!group_.active()) return;
    std::optional<QueueLeaf> leaf = queueLeafFromLabel(cells[0]);
    if (cols_.empty()) {
      em_.error(lineRef(i) + ": queue row without a column header, skipped");
      return;
    }
    if (cells.size() - 1 != cols_.size()) {
      em_.error(lineRef(i) + ": " + std::to_string(cells.size() - 1) + " cells under " +
                std::to_string(cols_.size()) + " columns, row skipped: '" + std::string(t.substr(0, 80)) + "'");
      return;
    }
    for (size_t k = 1; k < cells.size(); ++k) {
      if (!isNumberToken(cells[k])) {
        em_.error(lineRef(i) + ": non-numeric cell, row skipped: '" + std::string(t.substr(0, 80)) + "'");
        return;
      }
    }
    if (!leaf) return;  // Q Depth, WD & Tail Drop, unknown rows
    std::optional<uint64_t> sum;
    bool bad = false;
    for (size_t k = 1; k < cells.size(); ++k) {
      Result<uint64_t> v = parseCount(cells[k]);
      if (v.status().code() == Status::Code::kNotFound) continue;
      if (!v.isOk()) {
        em_.badCell(i + 1, std::string(cells[0]) + "/" + std::string(cols_[k - 1]), v.status());
        bad = true;
        continue;
      }
      sum = sum ? addChecked(*sum, v.value()) : v.value();
      if (!sum) bad = true;
    }
    group_.add(*leaf, sum, bad);
  }

  // "Ingress Overflow Drop Pkts      19490"
  void portIngressRow(const std::vector<std::string_view>& tok, size_t i) {
    if (tok.size() < 3) return;
    if (!iequals(tok[tok.size() - 2], "Pkts") || !iequals(tok[tok.size() - 3], "Drop")) return;
    if (!ifname_) {
      em_.error(lineRef(i) + ": ingress statistics without an interface header, skipped");
      return;
    }
    Result<uint64_t> v = parseCount(tok.back());
    if (v.status().code() == Status::Code::kNotFound) return;
    if (!v.isOk()) {
      em_.badCell(i + 1, "ingress drops", v.status());
      ingress_.add(*ifname_, std::nullopt, true);
      return;
    }
    ingress_.add(*ifname_, v.value(), false);
  }

  // Legacy: "qos-group 1", "Pkts sent to the port   : 3774439486".
  void legacyRxRow(std::string_view t, const std::vector<std::string_view>& tok, size_t i) {
    if (tok.size() == 2 && iequals(tok[0], "qos-group")) {
      group_.flush(em_);
      if (ifname_ && parseCount(tok[1]).isOk()) group_.reset(*ifname_, std::string(tok[1]));
      return;
    }
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) return;
    std::string key = toLower(trim(t.substr(0, colon)));
    bool sent = key == "pkts sent to the port";
    bool discarded = key == "pkts discarded on ingress";
    if (!sent && !discarded) return;
    if (!ifname_ || !group_.active()) {
      em_.error(lineRef(i) + ": queue statistics without interface/qos-group, skipped");
      return;
    }
    Result<uint64_t> v = parseCount(t.substr(colon + 1));
    if (v.status().code() == Status::Code::kNotFound) return;
    if (v.status().code() == Status::Code::kCorrupt) {
      em_.error(lineRef(i) + ": not a counter, skipped: '" + std::string(t.substr(0, 80)) + "'");
      if (discarded) ingress_.add(*ifname_, std::nullopt, true);
      return;
    }
    if (!v.isOk()) em_.badCell(i + 1, key, v.status());
    std::optional<uint64_t> val = v.isOk() ? std::optional<uint64_t>(v.value()) : std::nullopt;
    if (sent) group_.add(QueueLeaf{"transmit-pkts", 0}, val, !v.isOk());
    if (discarded) ingress_.add(*ifname_, val, !v.isOk());
  }

  Emitter& em_;
  std::optional<std::string> ifname_;
  Section section_ = Section::kNone;
  std::vector<std::string> cols_;
  QueueAccumulator group_;
  IngressAccumulator ingress_;
};

}  // namespace

Status parseQueuing(std::string_view text, TimestampNs ts, PollBatch& out) {
  size_t js = jsonStart(text);
  if (js != std::string_view::npos) return parseQueuingJson(text.substr(js), ts, out);
  Emitter em(kFormat, ts, out);
  QueuingText(em).run(decollapseLines(text));
  return em.finish("queuing statistics");
}

}  // namespace rdmagw::southbound::nxos
