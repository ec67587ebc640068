#pragma once
// `show running-config ipqos` cut into statements, one per line. Some
// releases (and some terminal captures) print a block collapsed onto one
// long line; such a line is cut again before every keyword that starts a
// statement, and its pieces are marked as of unknown indentation. The
// interface lists of `interface` statements expand here too.

#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::nxos {

struct IpqosStatement {
  std::string text;
  bool top_level = false;  // unindented in real output
  bool known_indent = true;
};

std::vector<IpqosStatement> ipqosStatements(std::string_view text);

// "eth1/51-54", "Ethernet1/1, Ethernet1/3-4", "port-channel10" -> long names;
// an error for a name that is not one or a range wider than 512.
Result<std::vector<std::string>> expandNxosInterfaces(std::string_view list);

}  // namespace rdmagw::southbound::nxos
