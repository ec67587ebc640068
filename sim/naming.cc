#include "sim/naming.h"

#include <cmath>
#include <cstdio>

namespace rdmagw::sim {

namespace {

std::string padded(const char* prefix, int index, int count) {
  int width = 2;
  for (int c = count; c >= 100; c /= 10) ++width;
  std::string digits = std::to_string(index + 1);
  if (int(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
  return prefix + digits;
}

}  // namespace

std::string hostName(int index, int count) { return padded("host", index, count); }
std::string switchName(int index, int count) { return padded("leaf", index, count); }
std::string esxiName(int index, int count) { return padded("esx", index, count); }

std::string deviceName(int index) { return "mlx5_" + std::to_string(index); }

std::string netdevName(int index) {
  return "ens1f" + std::to_string(index) + "np" + std::to_string(index);
}

std::string rateString(double gbps) {
  // Per-lane speeds the kernel names (ib_verbs.h ib_port_speed).
  struct Lane { double gbps; const char* name; };
  static constexpr Lane kLanes[] = {{2.5, "SDR"}, {5, "DDR"},  {10, "QDR"},  {14, "FDR"},
                                    {25, "EDR"},  {50, "HDR"}, {100, "NDR"}, {200, "XDR"}};
  static constexpr int kWidths[] = {4, 1, 2, 8, 12};  // 4X first: what mlx5 RoCE reports
  auto suffix = [gbps]() -> std::string {
    for (int w : kWidths) {
      for (const Lane& l : kLanes) {
        if (l.gbps * w == gbps) return std::to_string(w) + "X " + l.name;
      }
    }
    return "4X";  // no named lane speed matches: width only
  }();
  char buf[64];
  if (gbps == std::floor(gbps)) {
    std::snprintf(buf, sizeof buf, "%.0f Gb/sec (%s)", gbps, suffix.c_str());
  } else {
    std::snprintf(buf, sizeof buf, "%.1f Gb/sec (%s)", gbps, suffix.c_str());
  }
  return buf;
}

std::string guidString(uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04x:%04x:%04x:%04x", unsigned(guid >> 48) & 0xffff,
                unsigned(guid >> 32) & 0xffff, unsigned(guid >> 16) & 0xffff,
                unsigned(guid) & 0xffff);
  return buf;
}

}  // namespace rdmagw::sim
