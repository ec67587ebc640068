// The peer copy's rows (gateway/fleet/mirror_paths.h): every analytics
// input row is copied one way or another (everywhere, per needed target, or
// per needed port), so a row added to the analytics cannot silently miss
// the copy; the keyed paths name their port and parse back.

#include "gateway/fleet/mirror_paths.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analytics/fabric_reader.h"
#include "models/path.h"

namespace rdmagw::gateway {
namespace {

// The path with its keys dropped, in the row form inputRowPaths uses.
std::string unkeyed(const std::string& text) {
  Result<Path> p = Path::parse(text);
  EXPECT_TRUE(p.isOk()) << text;
  std::string out;
  if (!p.isOk()) return out;
  for (const PathElem& e : p->elems()) out += "/" + e.name;
  return out;
}

bool coveredBy(const std::string& row, const std::vector<std::string>& paths) {
  return std::any_of(paths.begin(), paths.end(), [&](const std::string& p) {
    const std::string head = unkeyed(p);
    return row == head || row.rfind(head + "/", 0) == 0;
  });
}

TEST(MirrorPathsTest, EveryAnalyticsInputRowIsCopiedOneWayOrAnother) {
  const std::vector<std::string> port = portPaths("Ethernet1/5");
  const std::vector<std::string> rdma = rdmaPortPaths("mlx5_0", "1");
  for (const std::string& row : analytics::inputRowPaths()) {
    const bool everywhere = coveredBy(row, everywhereRows());
    const bool target = coveredBy(row, targetLevelRows());
    const bool per_port = coveredBy(row, port) || coveredBy(row, rdma);
    EXPECT_TRUE(everywhere || target || per_port) << row << " is copied by no rule";
    EXPECT_FALSE(target && per_port) << row << " is copied both whole and per port";
  }
  // The rows every member copies from every peer target stay few.
  EXPECT_EQ(everywhereRows().size(), 6u);
}

TEST(MirrorPathsTest, PortPathsNameThePortInTheirListsKeyAndParseBack) {
  const std::vector<std::string> paths = portPaths("Ethernet1/5");
  ASSERT_FALSE(paths.empty());
  for (const std::string& p : paths) {
    Result<Path> parsed = Path::parse(p);
    ASSERT_TRUE(parsed.isOk()) << p;
    EXPECT_EQ(parsed->toString(), p);
    const auto keyed =
        std::find_if(parsed->elems().begin(), parsed->elems().end(), [](const PathElem& e) { return !e.keys.empty(); });
    ASSERT_NE(keyed, parsed->elems().end()) << p;
    EXPECT_EQ(keyed->keys.begin()->second, "Ethernet1/5") << p;
  }
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/interfaces/interface[name=Ethernet1/5]/ethernet/pfc"), paths.end());
  const std::vector<std::string> rdma = rdmaPortPaths("mlx5_0", "1");
  EXPECT_NE(
      std::find(rdma.begin(), rdma.end(), "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters"),
      rdma.end());
}

TEST(MirrorPathsTest, ASubscriptionAsksForWholeSwitchesWholeAndNamedPortsByName) {
  analytics::MirrorNeeds needs;
  needs.ports["host02"] = {"ens1f0np0"};
  needs.rdma_ports["host02"] = {{"mlx5_0", "1"}};
  needs.ports["leaf01"] = {"Ethernet1/1"};
  needs.whole = {"leaf01"};
  const southbound::gnmi::PeerSubscription s = mirrorSubscription(needs, std::chrono::seconds(10));
  EXPECT_EQ(s.sample_interval, std::chrono::seconds(10));
  EXPECT_EQ(s.everywhere, everywhereRows());
  ASSERT_EQ(s.per_target.size(), 2u);
  EXPECT_EQ(s.per_target.at("leaf01"), analytics::inputRowPaths());
  const std::vector<std::string>& host = s.per_target.at("host02");
  EXPECT_EQ(host.size(),
            targetLevelRows().size() + portPaths("ens1f0np0").size() + rdmaPortPaths("mlx5_0", "1").size());
  EXPECT_NE(
      std::find(host.begin(), host.end(), "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/hw-counters"),
      host.end());
  EXPECT_TRUE(mirrorSubscription({}, std::chrono::seconds(1)).per_target.empty());
}

}  // namespace
}  // namespace rdmagw::gateway
