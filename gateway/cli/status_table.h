#pragma once
// `rdmagw status` output: the admin socket's JSON reply
// (northbound/admin/status_report.h) as one screen of tables, and the exit
// status it calls for.

#include <string>

#include "models/status.h"

namespace rdmagw::gateway {

struct StatusView {
  std::string table;    // the text screen, ending in '\n'
  int exit_code = 0;    // 0: every target up; 1: any target down
  size_t targets = 0;
  size_t targets_down = 0;
};

// Fails on a reply that is not a status object: not JSON, the server's
// {"error": "..."} (its message returned), or a shape this client does not
// know.
Result<StatusView> viewStatus(const std::string& reply);

// "4s", "5m12s", "3h04m", "2d03h": how long ago, for a table cell.
std::string shortDuration(double seconds);

}  // namespace rdmagw::gateway
