#include "southbound/nxos/nxos_table.h"

#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {

std::vector<std::string> headerColumns(std::string_view line) {
  std::vector<std::string> cols;
  int open = 0;
  for (std::string_view tok : splitWs(line)) {
    bool join = open > 0 || (!cols.empty() && iequals(tok, "Group") && iequals(cols.back(), "QOS"));
    if (join) {
      cols.back() += " ";
      cols.back() += tok;
    } else {
      cols.emplace_back(tok);
    }
    for (char c : tok) {
      if (c == '(') ++open;
      if (c == ')' && open > 0) --open;
    }
  }
  return cols;
}

std::vector<std::string> rowCells(std::string_view line) {
  std::vector<std::string> cells;
  for (std::string_view tok : splitWs(line)) {
    if (!cells.empty() && tok.front() == '(') {
      cells.back() += " ";
      cells.back() += tok;
    } else {
      cells.emplace_back(tok);
    }
  }
  return cells;
}

int findColumn(const std::vector<std::string>& columns, std::string_view name) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (iequals(columns[i], name)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace rdmagw::southbound::nxos
