#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/file_text.h"
#include "gateway/cli/command_spec.h"
#include "gateway/runtime/registry.h"

namespace rdmagw::gateway {

// Prints "path = value" per update, in the order the parser produced them;
// parse errors go to stderr. Exit 0 when the text parsed (even partly),
// 1 when the parser rejected it, 2 on usage errors.
namespace {

const CommandSpec kParseSpec{
    "usage: rdmagw parse --format FORMAT FILE\n"
    "       rdmagw parse --list-formats\n"
    "\n"
    "Runs one southbound parser on a saved device output (an NX-OS `show`\n"
    "command, esxcli or vsish output, a sysfs dump, `ethtool -S`) and prints\n"
    "the normalized updates as `path = value`; parse warnings go to stderr.\n"
    "Exit 0 when the text parsed (even partly), 1 when the parser rejected it.\n"
    "\n"
    "options:\n"
    "  --format FORMAT   the parser to run (see --list-formats)\n"
    "  --list-formats    list the parser formats with what each reads\n"
    "  -h, --help        this help\n",
    {"--format"},
    {"--list-formats"},
    1};

}  // namespace

int parseCommand(const Args& args) {
  if (int rc = checkArgs(args, kParseSpec, "parse"); rc >= 0) return rc;
  if (hasFlag(args, "--list-formats")) {
    for (const ParserEntry& p : parserFormats()) {
      std::printf("%-24.*s %.*s\n", int(p.name.size()), p.name.data(), int(p.help.size()), p.help.data());
    }
    return 0;
  }
  std::string format;
  if (!flagValue(args, "--format", &format) || args.empty() || args.back().starts_with("-") ||
      args.back() == format) {
    std::fprintf(stderr, "rdmagw parse: --format FORMAT and FILE are required\n\n%s", kParseSpec.usage);
    return 2;
  }
  const ParserEntry* parser = findParser(format);
  if (parser == nullptr) {
    std::fprintf(stderr, "rdmagw parse: unknown format '%s' (see --list-formats)\n", format.c_str());
    return 2;
  }
  const std::string& file = args.back();
  const common::FileText text = common::readFileText(file);
  if (!text.ok()) {
    std::fprintf(stderr, "rdmagw parse: %s: %s\n", file.c_str(), std::strerror(text.error_number));
    return 1;
  }
  PollBatch batch;
  Status st = parser->parse(text.text, nowNs(), batch);
  for (const Update& u : batch.updates) std::printf("%s = %s\n", u.path.c_str(), valueToString(u.value).c_str());
  for (const std::string& e : batch.errors) std::fprintf(stderr, "warning: %s\n", e.c_str());
  if (!st.isOk()) {
    std::fprintf(stderr, "rdmagw parse: %s\n", st.toString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace rdmagw::gateway
