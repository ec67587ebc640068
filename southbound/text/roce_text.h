#pragma once
// Small helpers shared by the RoCE configuration parsers: strict numbers
// with a range, DSCP names, TSA words, re-cutting text whose line breaks
// were lost, and the error list every parser returns.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/roce_config.h"
#include "models/status.h"

namespace rdmagw::southbound::text {

using rdmagw::roce::Tsa;

// Collects the problems of one parse; the parse keeps going after each.
class Problems {
 public:
  explicit Problems(std::string what) : what_(std::move(what)) {}
  void add(std::string msg) { msgs_.push_back(std::move(msg)); }
  bool empty() const { return msgs_.empty(); }
  // ok, or kInvalidArgument naming every problem ("<what>: a; b").
  Status status() const;

 private:
  std::string what_;
  std::vector<std::string> msgs_;
};

// Strict unsigned decimal in [0, max] (blanks around allowed). The message
// says what was wrong: "'x' is not a number", "70000 is out of range 0..63".
Result<uint64_t> parseBounded(std::string_view token, uint64_t max);

// A DSCP as iproute2 and NX-OS write it: 0..63, or a name (CS0-CS7, AF11-
// AF43, EF, VA, default; any case).
std::optional<uint32_t> dscpFromToken(std::string_view token);

// "strict", "ets", "cbs", "vendor" (any case) -> TSA.
std::optional<Tsa> tsaFromWord(std::string_view word);

// Text whose line breaks were lost: a new line is started before each
// label (in list order, the earlier label wins at a position; a label is
// consumed whole so a shorter one inside it does not cut it). Lines that
// already start with a label stay as they are.
std::vector<std::string> cutBeforeLabels(std::string_view text, const std::vector<std::string_view>& labels);

std::string_view trimBlanks(std::string_view s);
std::vector<std::string_view> words(std::string_view line);

}  // namespace rdmagw::southbound::text
