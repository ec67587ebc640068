#include "southbound/nxos/nxos_pfc_detail.h"

#include "southbound/nxos/nxos_pfc.h"
#include "southbound/nxos/nxos_table.h"
#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {
namespace {

constexpr std::string_view kFormat = "nxos-pfc-detail";
constexpr int kPriorities = 8;

std::string lineRef(size_t index) { return "line " + std::to_string(index + 1); }

std::optional<int> priorityId(std::string_view cell) {
  Result<uint64_t> v = parseCount(cell);
  if (!v.isOk() || v.value() >= kPriorities) return std::nullopt;
  return static_cast<int>(v.value());
}

// "TxPPP:  150,   RxPPP:  0" -> out-/in-pfc-frames.
void pppLine(std::string_view t, size_t index, const std::string& ifname, Emitter& em) {
  std::vector<std::string_view> tok = splitWs(t);
  for (size_t i = 0; i + 1 < tok.size(); ++i) {
    std::string_view leaf = iequals(tok[i], "TxPPP:")   ? "out-pfc-frames"
                            : iequals(tok[i], "RxPPP:") ? "in-pfc-frames"
                                                        : "";
    if (leaf.empty()) continue;
    Result<uint64_t> v = parseCount(tok[i + 1]);
    if (v.isOk()) {
      em.counter(pfcCounterPath(ifname, leaf), v.value());
    } else if (v.status().code() != Status::Code::kNotFound) {
      em.badCell(index + 1, tok[i], v.status());
    }
  }
}

struct CosColumns {
  std::vector<std::string> names;
  int cos = -1, tx = -1, rx = -1, tx_state = -1, rx_state = -1;
};

CosColumns cosColumns(const std::vector<std::string>& names) {
  CosColumns c;
  c.names = names;
  c.cos = findColumn(names, "PFC_COS");
  if (c.cos < 0) c.cos = findColumn(names, "COS");
  c.tx = findColumn(names, "TxCount");
  c.rx = findColumn(names, "RxCount");
  c.tx_state = findColumn(names, "TxPause");
  c.rx_state = findColumn(names, "RxPause");
  return c;
}

// One header-sized group of cells: every known column must hold what it
// should, or the whole line is refused.
bool cosRowFits(const CosColumns& c, const std::vector<std::string_view>& cells) {
  if (c.cos < 0 || !priorityId(cells[c.cos])) return false;
  for (int col : {c.tx, c.rx}) {
    if (col >= 0 && !isNumberToken(cells[col])) return false;
  }
  for (int col : {c.tx_state, c.rx_state}) {
    if (col >= 0 && isNumberToken(cells[col])) return false;
  }
  return true;
}

void emitCosRow(const CosColumns& c, const std::vector<std::string_view>& cells, size_t index,
                const std::string& ifname, Emitter& em) {
  int prio = *priorityId(cells[c.cos]);
  for (auto [col, leaf] : {std::pair{c.tx, "out-pause-frames"}, std::pair{c.rx, "in-pause-frames"}}) {
    if (col < 0) continue;
    Result<uint64_t> v = parseCount(cells[col]);
    if (v.isOk()) {
      em.counter(priorityCounterPath(ifname, prio, leaf), v.value());
    } else if (v.status().code() != Status::Code::kNotFound) {
      em.badCell(index + 1, c.names[col], v.status());
    }
  }
}

// Returns false when the tokens are not rows of this table.
bool cosTokens(const CosColumns& c, const std::vector<std::string_view>& tokens, size_t index,
               const std::optional<std::string>& ifname, Emitter& em) {
  size_t width = c.names.size();
  if (width == 0 || tokens.empty() || tokens.size() % width != 0) return false;
  std::vector<std::vector<std::string_view>> rows;
  for (size_t i = 0; i < tokens.size(); i += width) {
    rows.emplace_back(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                      tokens.begin() + static_cast<std::ptrdiff_t>(i + width));
    if (!cosRowFits(c, rows.back())) return false;
  }
  if (!ifname) return true;  // reported once by the caller
  for (const auto& r : rows) emitCosRow(c, r, index, *ifname, em);
  return true;
}

}  // namespace

size_t parsePfcStatisticsBlock(const std::vector<std::string>& lines, size_t title,
                               const std::optional<std::string>& ifname, Emitter& em) {
  if (!ifname) em.error(lineRef(title) + ": PFC Statistics without an interface header, skipped");
  CosColumns cols;
  bool rows_seen = false;
  size_t i = title + 1;
  for (; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    if (isRuleLine(t)) {
      if (t.empty() && rows_seen) return i + 1;
      continue;
    }
    std::vector<std::string_view> tokens = splitWs(t);
    if (startsWith(t, "TxPPP:") || startsWith(t, "RxPPP:")) {
      if (ifname) pppLine(t, i, *ifname, em);
      continue;
    }
    if (iequals(tokens[0], "PFC_COS") || iequals(tokens[0], "COS")) {
      // Header cells run up to the first number; what follows is rows joined
      // onto the header line (lost line breaks).
      size_t h = 0;
      while (h < tokens.size() && !isNumberToken(tokens[h])) ++h;
      std::string head;
      for (size_t k = 0; k < h; ++k) head += std::string(tokens[k]) + " ";
      cols = cosColumns(headerColumns(head));
      if (cols.cos < 0 || (cols.tx < 0 && cols.rx < 0)) {
        em.error(lineRef(i) + ": PFC table header without COS/TxCount/RxCount, skipped");
        cols = CosColumns{};
      }
      std::vector<std::string_view> rest(tokens.begin() + static_cast<std::ptrdiff_t>(h), tokens.end());
      if (!rest.empty() && !cols.names.empty()) {
        if (!cosTokens(cols, rest, i, ifname, em)) {
          em.error(lineRef(i) + ": PFC rows do not fit the header, skipped");
        }
        rows_seen = true;
      }
      continue;
    }
    if (!cols.names.empty() && isNumberToken(tokens[0])) {
      if (!cosTokens(cols, tokens, i, ifname, em)) {
        em.error(lineRef(i) + ": PFC row does not fit the header, skipped: '" +
                 std::string(t.substr(0, 80)) + "'");
      }
      rows_seen = true;
      continue;
    }
    break;  // the next section
  }
  return i;
}

Status parsePfcDetail(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  std::vector<std::string> lines = decollapseLines(text);
  std::optional<std::string> ifname;
  std::vector<int> prio_cols;
  bool reported_orphans = false;
  auto needIf = [&](size_t i) {
    if (ifname) return true;
    if (!reported_orphans) em.error(lineRef(i) + ": PFC detail before any interface name, skipped");
    reported_orphans = true;
    return false;
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = trim(lines[i]);
    if (t.empty() || isRuleLine(t) || t == "^") continue;
    if (auto banner = deviceErrorLine(t)) {
      em.deviceError(*banner);
      continue;
    }
    if (isPromptLine(t)) {
      ifname = interfaceFromPrompt(t);
      prio_cols.clear();
      continue;
    }
    std::vector<std::string_view> tokens = splitWs(t);
    if (tokens.size() == 1 && normalizeIfName(tokens[0])) {
      ifname = normalizeIfName(tokens[0]);
      prio_cols.clear();
      continue;
    }
    if ((startsWith(t, "Egress Queuing for ") || startsWith(t, "Ingress Queuing for ")) &&
        tokens.size() >= 4) {
      ifname = normalizeIfName(tokens[3]);
      continue;
    }
    if (t == "PFC Statistics") {
      i = parsePfcStatisticsBlock(lines, i, ifname, em) - 1;
      continue;
    }
    size_t colon = t.find(':');
    if (colon != std::string_view::npos && t.find('|') == std::string_view::npos) {
      std::string key = toLower(trim(t.substr(0, colon)));
      std::string_view val = trim(t.substr(colon + 1));
      if (key == "admin mode" && needIf(i)) {
        if (auto m = pfcAdminMode(val)) {
          em.text(pfcStatePath(*ifname, "admin-mode"), *m);
        } else {
          em.error(lineRef(i) + ": unknown admin mode '" + std::string(val.substr(0, 20)) + "'");
        }
      } else if (key == "oper mode" && needIf(i)) {
        if (auto m = pfcOper(val)) {
          em.text(pfcStatePath(*ifname, "oper-mode"), m->mode);
        } else {
          em.error(lineRef(i) + ": unknown oper mode '" + std::string(val.substr(0, 20)) + "'");
        }
      } else if (key == "vl bitmap" && needIf(i)) {
        if (auto b = pfcBitmap(val)) {
          em.gauge(pfcStatePath(*ifname, "enabled-priorities"), *b);
        } else {
          em.error(lineRef(i) + ": bad VL bitmap '" + std::string(val.substr(0, 20)) + "'");
        }
      } else if ((key == "total rx pfc frames" || key == "total tx pfc frames") && needIf(i)) {
        Result<uint64_t> v = parseCount(val);
        std::string_view leaf = key[6] == 'r' ? "in-pfc-frames" : "out-pfc-frames";
        if (v.isOk()) {
          em.counter(pfcCounterPath(*ifname, leaf), v.value());
        } else if (v.status().code() != Status::Code::kNotFound) {
          em.badCell(i + 1, key, v.status());
        }
      }
      continue;
    }
    if (t.find('|') == std::string_view::npos) continue;
    std::vector<std::string_view> cells = splitBars(t);
    if (cells.empty()) continue;
    if (startsWith(toLower(cells[0]), "priority")) {
      prio_cols.clear();
      for (std::string_view c : cells) {
        std::optional<int> id = startsWith(toLower(c), "priority") ? priorityId(c.substr(8)) : std::nullopt;
        if (!id) {
          em.error(lineRef(i) + ": bad priority header cell '" + std::string(c.substr(0, 20)) + "'");
          prio_cols.clear();
          break;
        }
        prio_cols.push_back(*id);
      }
      continue;
    }
    bool rx = iequals(cells[0], "Rx");
    if (!rx && !iequals(cells[0], "Tx")) continue;
    if (!needIf(i)) continue;
    if (prio_cols.empty() || cells.size() - 1 != prio_cols.size()) {
      em.error(lineRef(i) + ": " + std::to_string(cells.size() - 1) + " values under " +
               std::to_string(prio_cols.size()) + " priority columns, row skipped");
      continue;
    }
    bool fits = true;
    for (size_t k = 1; k < cells.size(); ++k) fits = fits && isNumberToken(cells[k]);
    if (!fits) {
      em.error(lineRef(i) + ": non-numeric value in the " + std::string(cells[0]) + " row, skipped");
      continue;
    }
    for (size_t k = 1; k < cells.size(); ++k) {
      Result<uint64_t> v = parseCount(cells[k]);
      std::string_view leaf = rx ? "in-pause-frames" : "out-pause-frames";
      if (v.isOk()) {
        em.counter(priorityCounterPath(*ifname, prio_cols[k - 1], leaf), v.value());
      } else if (v.status().code() != Status::Code::kNotFound) {
        em.badCell(i + 1, "Priority" + std::to_string(prio_cols[k - 1]), v.status());
      }
    }
  }
  return em.finish("per-priority PFC table");
}

}  // namespace rdmagw::southbound::nxos
