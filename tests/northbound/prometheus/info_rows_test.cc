// Info rows in the exposition: the string leaves of one pod entry come out
// as one rdmagw_rdma_device_pod_info series with every label, whatever order
// the store holds them in, with empty labels for leaves not written, one
// HELP/TYPE for the family and none of the leaves as families of their own.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "northbound/prometheus/exposition.h"
#include "tests/northbound/prometheus/test_util.h"

namespace rdmagw::northbound::prometheus {
namespace {

using testing::put;
using testing::splitLines;

std::string entry(const std::string& device, const std::string& uid) {
  return "/rdma/devices/device[name=" + device + "]/pods/pod[uid=" + uid + "]/state/";
}

std::vector<std::string> linesStarting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& l : splitLines(text)) {
    if (l.rfind(prefix, 0) == 0) out.push_back(l);
  }
  return out;
}

TEST(InfoRowsTest, OneSeriesPerEntryWithEveryLabelInSchemaOrder) {
  Store store;
  const std::string a = entry("mlx5_3", "uid-a");
  // Written out of schema order, and another entry's leaves in between.
  put(&store, "node01", a + "mode", std::string("exclusive"));
  put(&store, "node01", a + "container", std::string("trainer"));
  put(&store, "node01", a + "namespace", std::string("ml"));
  const std::string b = entry("0000:3b:00.3", "uid-b");
  put(&store, "node01", b + "pod", std::string("job-1"));
  put(&store, "node01", a + "pod", std::string("train-0"));
  put(&store, "node01", a + "resource", std::string("nvidia.com/sriov_rdma_vf"));
  put(&store, "node01", a + "device-id", std::string("0000:3b:00.2"));
  put(&store, "node01", a + "pci", std::string("0000:3b:00.2"));
  put(&store, "node01", a + "pf", std::string("0000:3b:00.0"));
  put(&store, "node01", a + "vf", std::string("0"));
  put(&store, "node01", a + "netdev", std::string("net1"));

  const std::string text = ExpositionWriter().build(store);
  const std::vector<std::string> rows = linesStarting(text, "rdmagw_rdma_device_pod_info{");
  ASSERT_EQ(rows.size(), 2u) << text;
  EXPECT_EQ(rows[0],
            "rdmagw_rdma_device_pod_info{target=\"node01\",device=\"mlx5_3\",uid=\"uid-a\",container=\"trainer\","
            "namespace=\"ml\",pod=\"train-0\",resource=\"nvidia.com/sriov_rdma_vf\",device_id=\"0000:3b:00.2\","
            "pci=\"0000:3b:00.2\",pf=\"0000:3b:00.0\",vf=\"0\",netdev=\"net1\",mode=\"exclusive\",uplink=\"\",pf_device=\"\"} 1");
  // Leaves never written are empty labels: every row has the same label set.
  EXPECT_EQ(rows[1],
            "rdmagw_rdma_device_pod_info{target=\"node01\",device=\"0000:3b:00.3\",uid=\"uid-b\","
            "container=\"\",namespace=\"\",pod=\"job-1\",resource=\"\",device_id=\"\",pci=\"\",pf=\"\","
            "vf=\"\",netdev=\"\",mode=\"\",uplink=\"\",pf_device=\"\"} 1");
  EXPECT_EQ(linesStarting(text, "# HELP rdmagw_rdma_device_pod_info ").size(), 1u);
  EXPECT_EQ(linesStarting(text, "# TYPE rdmagw_rdma_device_pod_info gauge").size(), 1u);
  // No leaf of the row is a family of its own.
  EXPECT_TRUE(linesStarting(text, "rdmagw_rdma_device_pod_info ").empty());
  EXPECT_EQ(text.find("_namespace_info"), std::string::npos);
}

TEST(InfoRowsTest, EachTargetKeepsItsOwnRowsAndLabelsAreEscaped) {
  Store store;
  const std::string a = entry("mlx5_0", "u1");
  put(&store, "node01", a + "pod", std::string("p\"1"));
  put(&store, "node02", a + "pod", std::string("p2"));
  const std::string text = ExpositionWriter().build(store);
  const std::vector<std::string> rows = linesStarting(text, "rdmagw_rdma_device_pod_info{");
  ASSERT_EQ(rows.size(), 2u) << text;
  EXPECT_NE(rows[0].find("target=\"node01\""), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("pod=\"p\\\"1\""), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find("target=\"node02\""), std::string::npos) << rows[1];
  EXPECT_NE(rows[1].find("pod=\"p2\""), std::string::npos) << rows[1];
}

TEST(InfoRowsTest, ATargetLabelNamedLikeARowLabelStaysEverywhereButInTheRow) {
  Store store;
  TargetHealth health;
  health.kind = "rdma-host";
  health.up = true;
  health.labels = {{"pod", "a"}, {"rack", "r1"}};  // a rack's "pod", as examples/rdmagw.yaml labels one
  store.setHealth("node01", health);
  put(&store, "node01", entry("mlx5_0", "u1") + "pod", std::string("train-0"));
  put(&store, "node01", "/rdma/devices/device[name=mlx5_0]/state/fw-version", std::string("28.39"));
  const std::string text = ExpositionWriter().build(store);
  const std::vector<std::string> rows = linesStarting(text, "rdmagw_rdma_device_pod_info{");
  ASSERT_EQ(rows.size(), 1u) << text;
  EXPECT_NE(rows[0].find("pod=\"train-0\""), std::string::npos) << rows[0];
  EXPECT_EQ(rows[0].find("pod=\"a\""), std::string::npos) << rows[0];
  EXPECT_NE(rows[0].find("rack=\"r1\"} 1"), std::string::npos) << rows[0];
  const std::vector<std::string> fw = linesStarting(text, "rdmagw_rdma_device_fw_version_info{");
  ASSERT_EQ(fw.size(), 1u) << text;
  EXPECT_NE(fw[0].find("pod=\"a\""), std::string::npos) << fw[0];
}

TEST(InfoRowsTest, NoEntryNoFamilyAndRowsCountAsSeries) {
  Store store;
  put(&store, "node01", "/rdma/devices/device[name=mlx5_0]/state/fw-version", std::string("28.39"));
  ExpositionStats stats;
  std::string text = ExpositionWriter().build(store, &stats);
  EXPECT_EQ(text.find("rdmagw_rdma_device_pod_info"), std::string::npos) << text;
  EXPECT_EQ(stats.series, 1u);

  put(&store, "node01", entry("mlx5_0", "u1") + "pod", std::string("p"));
  put(&store, "node01", entry("mlx5_0", "u1") + "mode", std::string("shared"));
  text = ExpositionWriter().build(store, &stats);
  EXPECT_EQ(linesStarting(text, "rdmagw_rdma_device_pod_info{").size(), 1u) << text;
  EXPECT_EQ(stats.series, 2u);  // the firmware and one row, not one per leaf
}

}  // namespace
}  // namespace rdmagw::northbound::prometheus
