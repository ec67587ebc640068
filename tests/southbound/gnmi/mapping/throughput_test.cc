// mapNotification on bulk prefix-form notifications: every leaf of every
// notification must map, round after round (buffers reused). The rate is
// printed as a figure for the log; tests never assert wall-clock speed (the
// benchmarks in bench/ report it).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "gnmi_builders.h"
#include "southbound/gnmi/mapping/notification_mapper.h"

namespace rdmagw::southbound::gnmi {
namespace {

using testing::addUpdate;
using testing::gpath;
using testing::uintVal;

double rate(const std::vector<::gnmi::Notification>& ns, size_t per, int rounds, size_t* mapped) {
  MappedNotification out;
  out.updates.reserve(per * ns.size());
  auto start = std::chrono::steady_clock::now();
  size_t total = 0;
  for (int r = 0; r < rounds; ++r) {
    for (const ::gnmi::Notification& n : ns) {
      mapNotification(n, 1, out);
    }
    total += out.updates.size();
    out.clear();
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  *mapped = total;
  return double(total) / s;
}

TEST(MapperThroughput, PrefixFormCountersAndJsonBlobs) {
  const char* leaves[] = {"in-octets", "out-octets", "in-pkts", "out-pkts", "in-unicast-pkts", "out-unicast-pkts",
                          "in-multicast-pkts", "out-multicast-pkts", "in-broadcast-pkts", "out-broadcast-pkts",
                          "in-discards", "out-discards", "in-errors", "out-errors"};
  std::vector<::gnmi::Notification> oc;
  for (int port = 1; port <= 64; ++port) {
    ::gnmi::Notification n;
    n.set_timestamp(1);
    *n.mutable_prefix() = gpath("openconfig:/interfaces/interface[name=eth1/" + std::to_string(port) + "]/state/counters");
    for (const char* l : leaves) addUpdate(n, gpath(l), uintVal(123456789));
    oc.push_back(std::move(n));
  }
  size_t oc_mapped = 0, blob_mapped = 0;
  double oc_rate = rate(oc, 14, 300, &oc_mapped);

  std::vector<::gnmi::Notification> blobs;
  for (int port = 1; port <= 64; ++port) {
    ::gnmi::Notification n;
    for (int q = 0; q < 8; ++q) {
      addUpdate(n,
                gpath("device:/System/ipqos-items/queuing-items/policy-items/out-items/intf-items/If-list[name=eth1/" +
                      std::to_string(port) + "]/queCmap-items/QueuingStats-list[cmapName=c-out-8q-q" +
                      std::to_string(q) + "][statType=ucast]"),
                testing::jsonVal(R"({"txPackets":"123456","txBytes":"7890123","dropPackets":"0","dropBytes":"0",)"
                                 R"("randEcnMarkedPackets":"12","pfcTxPpp":"3","pfcRxPpp":"4"})"));
    }
    blobs.push_back(std::move(n));
  }
  double blob_rate = rate(blobs, 56, 30, &blob_mapped);
  std::printf("mapNotification: %.2fM updates/s (OpenConfig, prefix form, uint_val), "
              "%.2fM leaves/s (native QueuingStats json_val blobs)\n",
              oc_rate / 1e6, blob_rate / 1e6);
  EXPECT_EQ(oc_mapped, size_t{300} * 64 * 14);
  EXPECT_EQ(blob_mapped, size_t{30} * 64 * 8 * 7);
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
