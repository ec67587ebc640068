#include "southbound/nxos/nxos_pfc.h"

#include <vector>

#include "southbound/nxos/nxos_emit.h"
#include "southbound/nxos/nxos_table.h"
#include "southbound/nxos/nxos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::nxos {

using text::JsonParse;
using text::JsonNode;
using text::collectRows;
using text::parseJson;

namespace {

constexpr std::string_view kFormat = "nxos-pfc";

struct PfcRow {
  std::string ifname;
  std::optional<std::string> admin;
  std::optional<PfcOper> oper;
  Result<uint64_t> rx = Status::notFound("");
  Result<uint64_t> tx = Status::notFound("");
};

void emitRow(const PfcRow& r, size_t line_no, Emitter& em) {
  if (r.admin) em.text(pfcStatePath(r.ifname, "admin-mode"), *r.admin);
  if (r.oper) {
    em.text(pfcStatePath(r.ifname, "oper-mode"), r.oper->mode);
    if (r.oper->bitmap) em.gauge(pfcStatePath(r.ifname, "enabled-priorities"), *r.oper->bitmap);
  }
  if (r.rx.isOk()) {
    em.counter(pfcCounterPath(r.ifname, "in-pfc-frames"), r.rx.value());
  } else if (r.rx.status().code() != Status::Code::kNotFound) {
    em.badCell(line_no, "RxPPP", r.rx.status());
  }
  if (r.tx.isOk()) {
    em.counter(pfcCounterPath(r.ifname, "out-pfc-frames"), r.tx.value());
  } else if (r.tx.status().code() != Status::Code::kNotFound) {
    em.badCell(line_no, "TxPPP", r.tx.status());
  }
}

bool isSlotLine(const std::vector<std::string_view>& tokens) {
  return tokens.size() == 2 && iequals(tokens[0], "slot") && isNumberToken(tokens[1]);
}

Status parsePfcText(std::string_view text, Emitter& em) {
  std::vector<std::string> cols;
  int c_port = -1, c_mode = -1, c_oper = -1, c_rx = -1, c_tx = -1;
  std::vector<std::string_view> lines = splitLines(text);
  for (size_t n = 0; n < lines.size(); ++n) {
    size_t line_no = n + 1;
    std::string_view t = trim(lines[n]);
    if (t.empty() || isRuleLine(t) || t == "^") continue;
    if (auto banner = deviceErrorLine(t)) {
      em.deviceError(*banner);
      continue;
    }
    if (isPromptLine(t)) continue;
    std::vector<std::string_view> tokens = splitWs(t);
    if (isSlotLine(tokens)) continue;
    if (iequals(tokens[0], "Port")) {
      cols = headerColumns(t);
      c_port = 0;
      c_mode = findColumn(cols, "Mode");
      c_oper = -1;
      for (size_t i = 0; i < cols.size(); ++i) {
        if (startsWith(toLower(cols[i]), "oper")) c_oper = static_cast<int>(i);
      }
      c_rx = findColumn(cols, "RxPPP");
      c_tx = findColumn(cols, "TxPPP");
      if (c_mode < 0 && c_oper < 0 && c_rx < 0 && c_tx < 0) {
        em.error("line " + std::to_string(line_no) + ": header names no known column: '" +
                 std::string(t.substr(0, 80)) + "'");
        cols.clear();
      }
      continue;
    }
    if (cols.empty()) continue;  // preamble
    std::vector<std::string> cells = rowCells(t);
    if (cells.size() != cols.size()) {
      em.error("line " + std::to_string(line_no) + ": " + std::to_string(cells.size()) +
               " cells under " + std::to_string(cols.size()) + " columns, row skipped: '" +
               std::string(t.substr(0, 80)) + "'");
      continue;
    }
    PfcRow r;
    std::optional<std::string> name = normalizeIfName(cells[c_port]);
    bool fits = name.has_value();
    if (fits && c_mode >= 0) fits = (r.admin = pfcAdminMode(cells[c_mode])).has_value();
    if (fits && c_oper >= 0) fits = (r.oper = pfcOper(cells[c_oper])).has_value();
    if (fits && c_rx >= 0) {
      r.rx = parseCount(cells[c_rx]);
      fits = r.rx.status().code() != Status::Code::kCorrupt;
    }
    if (fits && c_tx >= 0) {
      r.tx = parseCount(cells[c_tx]);
      fits = r.tx.status().code() != Status::Code::kCorrupt;
    }
    if (!fits) {
      em.error("line " + std::to_string(line_no) + ": row does not fit the header, skipped: '" +
               std::string(t.substr(0, 80)) + "'");
      continue;
    }
    r.ifname = *name;
    emitRow(r, line_no, em);
  }
  return em.finish("'Port Mode Oper(VL bmap) RxPPP TxPPP' row");
}

std::optional<std::string_view> scalar(const JsonNode& row, std::string_view key) {
  const JsonNode* v = row.get(key);
  if (v == nullptr || !v->isScalar()) return std::nullopt;
  return std::string_view(v->text);
}

// Keys from code that ran against switches (REFERENCE_NOTES): TABLE_module /
// ROW_module / TABLE_pfc_interface / ROW_pfc_interface {if_name_str, admin,
// oper, rx-stats, tx-stats}; ROW_* may be one object or a list.
Status parsePfcJson(std::string_view text, Emitter& em) {
  JsonParse doc = parseJson(text);
  if (!doc.complete) em.error("JSON damaged (" + doc.error + "); rows read before the damage are kept");
  std::vector<const JsonNode*> rows;
  collectRows(doc.root(), "ROW_pfc_interface", rows);
  size_t n = 0;
  for (const JsonNode* row : rows) {
    ++n;
    std::optional<std::string_view> ifname = scalar(*row, "if_name_str");
    if (!ifname) ifname = scalar(*row, "interface");
    std::optional<std::string> name = ifname ? normalizeIfName(*ifname) : std::nullopt;
    if (!name) {
      em.error("row " + std::to_string(n) + ": no usable if_name_str, skipped");
      continue;
    }
    PfcRow r;
    r.ifname = *name;
    if (auto a = scalar(*row, "admin")) {
      r.admin = pfcAdminMode(*a);
      if (!r.admin) em.error(*name + ": unknown admin mode '" + std::string(a->substr(0, 20)) + "'");
    }
    if (auto o = scalar(*row, "oper")) {
      r.oper = pfcOper(*o);
      if (!r.oper) em.error(*name + ": unknown oper mode '" + std::string(o->substr(0, 20)) + "'");
    }
    if (auto rx = scalar(*row, "rx-stats")) r.rx = parseCount(*rx);
    if (auto tx = scalar(*row, "tx-stats")) r.tx = parseCount(*tx);
    emitRow(r, n, em);
  }
  return em.finish("ROW_pfc_interface row");
}

}  // namespace

std::optional<std::string> pfcAdminMode(std::string_view cell) {
  std::string m = toLower(trim(cell));
  if (m == "on" || m == "off" || m == "auto") return m;
  return std::nullopt;
}

std::optional<uint64_t> pfcBitmap(std::string_view cell) {
  std::string_view t = trim(cell);
  if (!t.empty() && t.front() == '(') {
    if (t.back() != ')') return std::nullopt;
    t = trim(t.substr(1, t.size() - 2));
  }
  if (t.empty() || t.size() > 16) return std::nullopt;
  uint64_t v = 0;
  for (char c : t) {
    int d = (c >= '0' && c <= '9')   ? c - '0'
            : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                     : -1;
    if (d < 0) return std::nullopt;
    v = v * 16 + static_cast<uint64_t>(d);
  }
  return v;
}

std::optional<PfcOper> pfcOper(std::string_view cell) {
  std::string_view t = trim(cell);
  size_t paren = t.find('(');
  std::string mode = toLower(trim(t.substr(0, paren)));
  if (mode != "on" && mode != "off") return std::nullopt;
  PfcOper out{mode, std::nullopt};
  if (paren != std::string_view::npos) {
    out.bitmap = pfcBitmap(t.substr(paren));
    if (!out.bitmap) return std::nullopt;
  } else if (mode == "off") {
    out.bitmap = 0;
  }
  return out;
}

Status parsePfc(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  size_t js = jsonStart(text);
  if (js != std::string_view::npos) return parsePfcJson(text.substr(js), em);
  return parsePfcText(text, em);
}

}  // namespace rdmagw::southbound::nxos
