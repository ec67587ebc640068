#include "gateway/cli/command_spec.h"

#include <algorithm>
#include <cstdio>

namespace rdmagw::gateway {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

int usageError(const CommandSpec& spec, const char* command, const std::string& why) {
  std::fprintf(stderr, "rdmagw %s: %s\n\n%s", command, why.c_str(), spec.usage);
  return 2;
}

}  // namespace

int checkArgs(const Args& args, const CommandSpec& spec, const char* command) {
  // Help wins over everything else on the line, wherever it stands.
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::fputs(spec.usage, stdout);
      return 0;
    }
  }
  size_t positionals = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') {
      if (++positionals > spec.max_positionals) return usageError(spec, command, "unexpected argument '" + a + "'");
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    if (contains(spec.bool_flags, name) && eq == std::string::npos) continue;
    if (!contains(spec.value_flags, name)) return usageError(spec, command, "unknown option '" + name + "'");
    if (eq != std::string::npos) continue;
    if (i + 1 >= args.size()) return usageError(spec, command, "option " + name + " needs a value");
    ++i;  // its value
  }
  return -1;
}

}  // namespace rdmagw::gateway
