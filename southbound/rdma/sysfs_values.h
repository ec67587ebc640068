#pragma once
// Pure parsers for the text of single sysfs attributes. No I/O: the reason a
// value is refused comes back as a Status message for the caller's error line.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/status.h"

namespace rdmagw::southbound::rdma {

// Strips the trailing newline and surrounding blanks sysfs adds.
std::string_view trimValue(std::string_view s);

// A decimal counter ("18126345378"). Refuses empty, "N/A (no PMA)", signs,
// trailing junk and values beyond 64 bits.
Result<uint64_t> parseCounter(std::string_view text);

// A numbered state: "4: ACTIVE", "5: LinkUp". A bare number or a bare name is
// kept as far as it goes; "4:" (cut off) is refused.
struct IbEnum {
  std::optional<uint64_t> id;
  std::optional<std::string> name;
};
Result<IbEnum> parseIbEnum(std::string_view text);

// "100 Gb/sec (4X EDR)", "2.5 Gb/sec", "40 Mb/sec" -> bits per second.
Result<uint64_t> parseRateBps(std::string_view text);

}  // namespace rdmagw::southbound::rdma
