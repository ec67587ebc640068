#include "southbound/esxi/esxi_nic_list.h"

#include <optional>

#include "southbound/esxi/esxi_text_util.h"

namespace rdmagw::southbound::esxi {
namespace {

struct Column {
  std::string folded;  // esxiFoldName of the header text: "linkstatus"
  size_t begin = 0;
  size_t end = 0;      // exclusive; npos for the last column
};

struct Table {
  std::vector<Column> columns;
  size_t first_row = 0;  // index into lines
};

bool isDashesLine(std::string_view t) {
  bool any = false;
  for (char c : t) {
    if (c == '-') {
      any = true;
    } else if (c != ' ') {
      return false;
    }
  }
  return any;
}

std::optional<Table> findTable(const std::vector<EsxiLine>& lines) {
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    std::string_view dashes = lines[i + 1].text;
    if (!isDashesLine(dashes)) continue;
    std::string_view header = lines[i].text;
    Table table;
    size_t pos = 0;
    while ((pos = dashes.find('-', pos)) != std::string_view::npos) {
      size_t end = dashes.find(' ', pos);
      Column c;
      c.begin = pos;
      c.end = end;
      std::string_view label =
          pos < header.size() ? header.substr(pos, end == std::string_view::npos ? end : end - pos)
                              : std::string_view();
      c.folded = esxiFoldName(esxiTrim(label));
      table.columns.push_back(std::move(c));
      if (end == std::string_view::npos) break;
      pos = end;
    }
    if (table.columns.empty() || table.columns.front().folded != "name") continue;
    table.columns.back().end = std::string_view::npos;  // Description: rest of the line
    table.first_row = i + 2;
    return table;
  }
  return std::nullopt;
}

int columnIndex(const Table& t, std::string_view folded_prefix) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].folded.compare(0, folded_prefix.size(), folded_prefix) == 0) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// The cell of one column; nullopt when the row does not line up: a non-blank
// character just before the column or in the gap after it means shifted text.
std::optional<std::string_view> cell(std::string_view row, const Column& c) {
  if (c.begin > 0 && c.begin <= row.size() && row[c.begin - 1] != ' ') return std::nullopt;
  if (c.begin >= row.size()) return std::string_view();
  if (c.end == std::string_view::npos) return esxiTrim(row.substr(c.begin));
  if (c.end < row.size() && row[c.end] != ' ') return std::nullopt;
  return esxiTrim(row.substr(c.begin, c.end - c.begin));
}

struct Row {
  size_t line = 0;
  std::string name;
  std::vector<std::string_view> cells;
};

// Every aligned data row; misaligned ones become lines in *problems.
std::vector<Row> readRows(const std::vector<EsxiLine>& lines, const Table& t,
                          std::vector<std::string>* problems) {
  std::vector<Row> rows;
  for (size_t i = t.first_row; i < lines.size(); ++i) {
    std::string_view text = lines[i].text;
    if (esxiTrim(text).empty()) continue;
    Row r;
    r.line = lines[i].number;
    bool ok = true;
    for (const Column& c : t.columns) {
      std::optional<std::string_view> v = cell(text, c);
      if (!v) {
        ok = false;
        break;
      }
      r.cells.push_back(*v);
    }
    if (ok && !lines[i].terminated) {
      if (problems) {
        problems->push_back("line " + std::to_string(r.line) +
                            ": last line has no line break (output cut off?); dropped");
      }
      continue;
    }
    if (!ok || !esxiValidNicName(r.cells.front())) {
      if (problems) {
        problems->push_back("line " + std::to_string(r.line) + ": row does not fit the columns: " +
                            std::string(esxiTrim(text).substr(0, 80)));
      }
      continue;
    }
    r.name = std::string(r.cells.front());
    rows.push_back(std::move(r));
  }
  return rows;
}

constexpr uint64_t kBitsPerMbit = 1000000;

}  // namespace

Status parseEsxiNicList(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::vector<EsxiLine> lines = esxiLines(text);
  std::optional<Table> table = findTable(lines);
  if (!table) {
    std::string err = esxiErrorLine(text);
    return Status::corrupt("esxcli nic list: no table with a 'Name' column and a dashes line" +
                           (err.empty() ? std::string() : " (device said: " + err + ")"));
  }
  std::vector<std::string> problems;
  std::vector<Row> rows = readRows(lines, *table, &problems);
  const int driver = columnIndex(*table, "driver");
  const int link = columnIndex(*table, "linkstatus");
  const int speed = columnIndex(*table, "speed");
  // Optional columns (IF-MIB ifAdminStatus, ifMtu): older releases print none.
  const int admin = columnIndex(*table, "adminstatus");
  const int mtu = columnIndex(*table, "mtu");
  if (driver < 0) problems.push_back("no 'Driver' column");
  if (link < 0) problems.push_back("no 'Link Status' column");
  if (speed < 0) problems.push_back("no 'Speed' column");
  for (const Row& r : rows) {
    if (driver >= 0 && !r.cells[driver].empty()) {
      out.add(esxiNicStatePath(r.name, "driver"), std::string(r.cells[driver]), ts);
    }
    if (link >= 0 && !r.cells[link].empty()) {
      out.add(esxiNicStatePath(r.name, "link-state"), std::string(r.cells[link]), ts);
    }
    if (admin >= 0 && !r.cells[admin].empty()) {
      out.add(esxiNicStatePath(r.name, "admin-status"), std::string(r.cells[admin]), ts);
    }
    if (mtu >= 0) {
      Result<uint64_t> bytes = esxiParseUnsigned(r.cells[mtu]);
      if (bytes.isOk()) {
        out.add(esxiNicStatePath(r.name, "mtu"), bytes.value(), ts);
      } else {
        problems.push_back("line " + std::to_string(r.line) + " (" + r.name + " MTU): " + bytes.status().message());
      }
    }
    if (speed >= 0) {
      Result<uint64_t> mbps = esxiParseUnsigned(r.cells[speed]);
      if (!mbps.isOk()) {
        problems.push_back("line " + std::to_string(r.line) + " (" + r.name +
                           " speed): " + mbps.status().message());
      } else if (mbps.value() > UINT64_MAX / kBitsPerMbit) {
        problems.push_back("line " + std::to_string(r.line) + " (" + r.name +
                           " speed): too large");
      } else {
        out.add(esxiNicStatePath(r.name, "speed"), mbps.value() * kBitsPerMbit, ts);
      }
    }
  }
  if (rows.empty()) {
    std::string msg = "esxcli nic list: no NIC row";
    if (!problems.empty()) msg += "; " + problems.front();
    return Status::corrupt(msg);
  }
  if (!problems.empty()) {
    std::string msg = "esxcli nic list: " + std::to_string(problems.size()) + " problem(s)";
    for (size_t i = 0; i < problems.size() && i < 5; ++i) msg += "; " + problems[i];
    out.error(std::move(msg));
  }
  return Status::ok();
}

std::vector<std::string> nicNames(std::string_view nic_list_text) {
  std::vector<EsxiLine> lines = esxiLines(nic_list_text);
  std::optional<Table> table = findTable(lines);
  std::vector<std::string> names;
  if (!table) return names;
  for (Row& r : readRows(lines, *table, nullptr)) names.push_back(std::move(r.name));
  return names;
}

}  // namespace rdmagw::southbound::esxi
