#include "models/ethernet_speed.h"

#include <cctype>

#include "models/path.h"

namespace rdmagw {
namespace {

struct SpeedIdentity {
  std::string_view name;
  uint64_t bps;
};

// openconfig-if-ethernet's ETHERNET_SPEED identities (the module's 2.x
// revisions; SPEED_UNKNOWN has no rate).
constexpr uint64_t kM = 1'000'000;
constexpr uint64_t kG = 1'000'000'000;
constexpr SpeedIdentity kSpeeds[] = {
    {"SPEED_10MB", 10 * kM},    {"SPEED_100MB", 100 * kM},  {"SPEED_1GB", 1 * kG},
    {"SPEED_2500MB", 2500 * kM}, {"SPEED_5GB", 5 * kG},      {"SPEED_10GB", 10 * kG},
    {"SPEED_25GB", 25 * kG},    {"SPEED_40GB", 40 * kG},    {"SPEED_50GB", 50 * kG},
    {"SPEED_100GB", 100 * kG},  {"SPEED_200GB", 200 * kG},  {"SPEED_400GB", 400 * kG},
    {"SPEED_600GB", 600 * kG},  {"SPEED_800GB", 800 * kG},  {"SPEED_1600GB", 1600 * kG},
};

Path ifBase(const std::string& ifname) {
  Path p;
  p.add("interfaces").add("interface", {{"name", ifname}});
  return p;
}

}  // namespace

std::string_view bareSpeedIdentity(std::string_view identity) {
  const size_t colon = identity.rfind(':');
  return colon == std::string_view::npos ? identity : identity.substr(colon + 1);
}

std::optional<uint64_t> ethernetSpeedBps(std::string_view identity) {
  const std::string_view bare = bareSpeedIdentity(identity);
  for (const SpeedIdentity& s : kSpeeds) {
    if (s.name == bare) return s.bps;
  }
  return std::nullopt;
}

std::string_view ethernetSpeedIdentity(uint64_t bps) {
  for (const SpeedIdentity& s : kSpeeds) {
    if (s.bps == bps) return s.name;
  }
  return kSpeedUnknown;
}

bool isEthernetSpeedIdentity(std::string_view identity) {
  const std::string_view bare = bareSpeedIdentity(identity);
  return bare == kSpeedUnknown || ethernetSpeedBps(bare).has_value();
}

std::optional<uint64_t> parseSpeedText(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  uint64_t whole = 0;
  uint64_t frac = 0, frac_div = 1;
  size_t digits = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
    if (whole > 1'000'000'000) return std::nullopt;
    whole = whole * 10 + uint64_t(text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && frac_div < 1000; ++i) {
      frac = frac * 10 + uint64_t(text[i] - '0');
      frac_div *= 10;
    }
  }
  if (digits == 0) return std::nullopt;
  while (i < text.size() && text[i] == ' ') ++i;
  std::string unit;
  for (; i < text.size() && text[i] != ' ' && text[i] != ','; ++i) unit += char(std::tolower(static_cast<unsigned char>(text[i])));
  uint64_t scale = 0;
  if (unit == "gb/s" || unit == "gbps" || unit == "g" || unit == "gbit/s" || unit == "gb/sec") scale = kG;
  if (unit == "mb/s" || unit == "mbps" || unit == "m" || unit == "mbit/s" || unit == "mb/sec") scale = kM;
  if (unit == "kb/s" || unit == "kbps" || unit == "kbit" || unit == "kbit/s") scale = 1000;
  if (scale == 0) return std::nullopt;
  return whole * scale + frac * scale / frac_div;
}

std::string interfaceSpeedPath(const std::string& ifname) {
  return ifBase(ifname).add("state").add("speed").toString();
}

std::string portSpeedPath(const std::string& ifname) {
  return ifBase(ifname).add("ethernet").add("state").add("port-speed").toString();
}

std::string negotiatedPortSpeedPath(const std::string& ifname) {
  return ifBase(ifname).add("ethernet").add("state").add("negotiated-port-speed").toString();
}

}  // namespace rdmagw
