#pragma once
// Blank-separated CLI tables whose columns are found by header name, never
// by position: a row is read only when it has exactly as many cells as the
// header has columns, so an extra, missing or shifted cell is an error line
// rather than a value from the wrong column.

#include <string>
#include <string_view>
#include <vector>

namespace rdmagw::southbound::nxos {

// "Port  Mode Oper(VL bmap)  RxPPP" -> {Port, Mode, Oper(VL bmap), RxPPP}:
// a '(' group stays one column, and so does "QOS Group".
std::vector<std::string> headerColumns(std::string_view line);

// Cells of a data row; a cell that starts with '(' belongs to the one before
// it ("On  (8)" -> "On (8)").
std::vector<std::string> rowCells(std::string_view line);

// Index of the column named `name` (case-insensitive), or -1.
int findColumn(const std::vector<std::string>& columns, std::string_view name);

}  // namespace rdmagw::southbound::nxos
