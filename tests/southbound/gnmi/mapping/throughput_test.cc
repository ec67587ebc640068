// Throughput of mapNotification on prefix-form notifications (the client's
// goal: >= 1M updates/s per core). Printed; the assertion is a floor far
// below the goal so a loaded CI machine does not fail it, while a quadratic
// or allocation-per-byte regression still does.

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

double rate(const std::vector<::gnmi::Notification>& ns, size_t per, int rounds) {
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
  double oc_rate = rate(oc, 14, 300);

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
  double blob_rate = rate(blobs, 56, 30);
  std::printf("mapNotification: %.2fM updates/s (OpenConfig, prefix form, uint_val), "
              "%.2fM leaves/s (native QueuingStats json_val blobs)\n",
              oc_rate / 1e6, blob_rate / 1e6);
  EXPECT_GT(oc_rate, 100e3);
  EXPECT_GT(blob_rate, 50e3);
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
