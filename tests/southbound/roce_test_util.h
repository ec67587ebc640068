#pragma once
// Fixture access for the RoCE configuration reader tests.

#include <fstream>
#include <sstream>
#include <string>

namespace rdmagw::testing {
using namespace rdmagw::southbound;  // the helpers speak the vocabulary of the code they test

inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string roceFixture(const std::string& name) { return fixture("roce-config/" + name); }

// The fixture without its '#' lines (the "# Source:" header of a JSON file).
inline std::string withoutHashLines(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with('#')) out += line + "\n";
  }
  return out;
}

}  // namespace rdmagw::testing
