// The store's path parser (models/path.h) and the gNMI server's wildcard
// matcher (northbound/gnmi/path_pattern.h), with the properties both promise:
//   - Path::parse(p.toString()) == p for every path parse accepts;
//   - a pattern built from a request matches a store path the way
//     Path::hasPrefix and the change filter (change_interest.h) agree with.
//
// Input: up to three lines: a pattern in path string form ("*" and "..."
// elements, "*" key values), a store path, and the prefix's target.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "models/path.h"
#include "northbound/gnmi/change_interest.h"
#include "northbound/gnmi/path_pattern.h"

using namespace rdmagw;
using namespace rdmagw::northbound::gnmi;

namespace {

std::string_view nextLine(std::string_view& in) {
  size_t nl = in.find('\n');
  std::string_view line = in.substr(0, nl);
  in.remove_prefix(nl == std::string_view::npos ? in.size() : nl + 1);
  return line;
}

void checkRoundTrip(const Path& p) {
  const std::string text = p.toString();
  Result<Path> again = Path::parse(text);
  if (!again.isOk() || !(*again == p) || again->toString() != text) __builtin_trap();
  (void)p.keylessString();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::string_view pattern_text = nextLine(in);
  const std::string_view path_text = nextLine(in);
  const std::string_view target = nextLine(in);

  Result<Path> pattern_path = Path::parse(pattern_text);
  Result<Path> path = Path::parse(path_text);
  if (pattern_path.isOk()) checkRoundTrip(*pattern_path);
  if (path.isOk()) checkRoundTrip(*path);
  if (!pattern_path.isOk()) return 0;

  // The request the pattern came in: its origin and elements as a client
  // sends them, the target in the prefix.
  gnmi::Path prefix, request;
  prefix.set_target(std::string(target));
  toGnmiPath(*pattern_path, &request);
  request.set_origin(pattern_path->origin());
  Result<PathPattern> pattern = PathPattern::fromRequest(prefix, request);
  if (!pattern.isOk()) return 0;
  (void)pattern->toString();
  if (!path.isOk()) return 0;

  std::optional<size_t> matched = pattern->match(*path);
  if (matched) {
    if (*matched > path->elems().size()) __builtin_trap();
    Path head = leadingElems(*path, *matched);
    // What a Get or a subscription answers with is a prefix of the leaf.
    if (!path->hasPrefix(head)) __builtin_trap();
    // The writers' cheap filter must never drop a change the pattern wants.
    SubscriptionSpec spec;
    spec.entries.push_back(SubscriptionEntry{*pattern, SubscriptionEntry::Mode::kOnChange});
    ChangeInterest interest(interestOf(spec));
    const std::string t = target.empty() || target == "*" ? std::string("sw1") : std::string(target);
    if (!interest.wants(t, path->toString())) __builtin_trap();
  }
  return 0;
}
