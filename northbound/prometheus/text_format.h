#pragma once
// Low-level pieces of the Prometheus text format (version 0.0.4): escaping
// and number rendering. Append-only into a caller's buffer, so the writer
// never builds a temporary string per sample.

#include <cstdint>
#include <string>
#include <string_view>

namespace rdmagw::northbound::prometheus {

// Label values escape `\`, `"` and newline.
void appendLabelValue(std::string* out, std::string_view value);
// HELP text escapes `\` and newline (a `"` is legal there).
void appendHelpText(std::string* out, std::string_view help);

void appendUint(std::string* out, uint64_t v);
void appendInt(std::string* out, int64_t v);
// Shortest text that parses back to the same double; NaN and infinities in
// the spellings Prometheus expects (NaN, +Inf, -Inf).
void appendDouble(std::string* out, double v);

// A valid label name ([a-zA-Z_][a-zA-Z0-9_]*): other characters become '_'
// and a leading digit gets a '_' in front. Empty in, empty out.
std::string sanitizeLabelName(std::string_view name);

// A family's "# HELP" and "# TYPE" lines (counter, else gauge).
std::string familyHeader(std::string_view name, std::string_view help, bool counter);

}  // namespace rdmagw::northbound::prometheus
