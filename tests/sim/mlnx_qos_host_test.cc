// A simulated Linux host with NVIDIA's `mlnx_qos` and no iproute2 `dcb`
// (FabricConfig::mlnx_qos_hosts): the real collector (southbound/rdma/
// netdev_dcb.h) reads its `mlnx_qos -i` text and writes the same leaves it
// writes for a `dcb` host of the same plan, calm and under each scenario that
// changes a host's DCB. Once from the tree's text files, once by running the
// programs: the real `dcb` (which has no DCB for the simulated netdev, or is
// not installed) and a `mlnx_qos` on PATH that prints the simulator's text.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sim/fabric.h"
#include "sim/scenario.h"
#include "sim/tree_writer.h"
#include "southbound/rdma/ethtool_ioctl.h"
#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/netdev_dcb.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/support/test_support.h"

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;
using Leaves = std::map<std::string, Value>;  // path -> value

constexpr TimestampNs kTs = 1700000000000000000;

// What the collector writes for one netdev of `host` in the tree at `root`,
// its DCB read through `source`; each subtree it declares read whole (rows
// it no longer writes get deleted) as a "replaced <path>" entry, compared
// like a leaf. Error lines fail the test: the rendered text must parse
// cleanly.
Leaves collect(const std::string& root, const Host& host, const Device& dev, southbound::rdma::EthtoolSource& source) {
  southbound::rdma::SysfsReaderImpl reader(root + "/" + host.name + "/sys");
  PollBatch b;
  southbound::rdma::appendNetdevDcb(reader, &source, dev.netdev, kTs, b);
  for (const std::string& e : b.errors) ADD_FAILURE() << host.name << ":" << dev.netdev << ": " << e;
  Leaves out;
  for (const Update& u : b.updates) {
    EXPECT_TRUE(out.emplace(u.path, u.value).second) << "written twice: " << u.path;
  }
  for (const std::string& r : b.replaced) {
    EXPECT_TRUE(out.emplace("replaced " + r, Value{std::string()}).second) << "replaced twice: " << r;
  }
  return out;
}

Leaves collectText(const std::string& root, const Host& host, const Device& dev) {
  southbound::rdma::EthtoolText source(root + "/" + host.name + "/ethtool");
  return collect(root, host, dev, source);
}

// dcb prints a bandwidth for every traffic class, 0 for a strict one;
// mlnx_qos prints "bw:" on ETS classes only. That is the one difference the
// two tools may show: anything else is a leaf the fallback gets wrong.
void expectSameLeaves(const Leaves& dcb, const Leaves& mlnx, int* strict_seen) {
  for (const auto& [path, value] : dcb) {
    auto it = mlnx.find(path);
    if (it != mlnx.end()) {
      EXPECT_EQ(it->second, value) << path;
      continue;
    }
    const std::string bw = "/state/bandwidth-percent";
    const bool strict_bw = path.ends_with(bw) &&
                           dcb.count(path.substr(0, path.size() - bw.size()) + "/state/tsa") &&
                           dcb.at(path.substr(0, path.size() - bw.size()) + "/state/tsa") == Value{std::string("strict")};
    EXPECT_TRUE(strict_bw && value == Value{uint64_t(0)}) << "only the dcb host has " << path;
    *strict_seen += strict_bw;
  }
  for (const auto& entry : mlnx) EXPECT_TRUE(dcb.count(entry.first)) << "only the mlnx_qos host has " << entry.first;
}

FabricConfig small(int roce_priority, int cnp_priority) {
  FabricConfig c;
  c.hosts = 2;
  c.esxi_hosts = 0;
  c.calm = true;
  c.roce_priority = roce_priority;
  c.cnp_priority = cnp_priority;
  return c;
}

TEST(MlnxQosHostTest, TheLastHostsHaveMlnxQosTextAndNoDcb) {
  FabricConfig c = small(3, -1);
  c.mlnx_qos_hosts = 1;
  ASSERT_TRUE(c.validate().isOk());
  Fabric f(c);
  f.step();
  testing::TempDir dir("rdmagw-mlnx-qos");
  ASSERT_TRUE(writeTree(f, dir.path()).isOk());
  ASSERT_EQ(f.hosts().size(), 2u);
  for (const Host& h : f.hosts()) {
    for (const Device& d : h.devices) {
      const std::string base = dir.path() + "/" + h.name + "/ethtool/" + d.netdev;
      EXPECT_EQ(fs::exists(base + ".mlnx_qos.txt"), h.mlnx_qos) << base;
      EXPECT_NE(fs::exists(base + ".dcb-pfc.json"), h.mlnx_qos) << base;
      EXPECT_NE(fs::exists(base + ".dcb-app.json"), h.mlnx_qos) << base;
    }
  }
  EXPECT_FALSE(f.hosts()[0].mlnx_qos);
  EXPECT_TRUE(f.hosts()[1].mlnx_qos);
  // The recorded ConnectX-7's layout: its labels, in its order.
  const std::string text =
      testing::readFile(dir.path() + "/" + f.hosts()[1].name + "/ethtool/" + f.hosts()[1].devices[0].netdev +
                            ".mlnx_qos.txt");
  size_t at = 0;
  for (const char* label : {"DCBX mode: OS controlled\n", "Priority trust state: dscp\n", "dscp2prio mapping:\n",
                            "        prio:3 dscp:26,\n", "        prio:6 dscp:48,\n", "default priority:\n",
                            "Receive buffer size (bytes): 19872,220896,0,0,0,0,0,0,max_buffer_size=4151520\n",
                            "PFC configuration:\n", "        priority    0   1   2   3   4   5   6   7\n",
                            "        enabled     0   0   0   1   0   0   0   0   \n",
                            "        buffer      0   0   0   1   0   0   0   0   \n",
                            "tc: 3 ratelimit: unlimited, tsa: ets, bw: 60%\n         priority:  3\n"}) {
    const size_t found = text.find(label, at);
    EXPECT_NE(found, std::string::npos) << "no '" << label << "' after offset " << at << " in\n" << text;
    if (found != std::string::npos) at = found;
  }

  FabricConfig bad = small(3, -1);
  bad.mlnx_qos_hosts = 3;
  EXPECT_FALSE(bad.validate().isOk());
}

// The same plan twice, once every host with dcb, once every host with
// mlnx_qos: the collector's leaves agree port by port.
TEST(MlnxQosHostTest, SamePlanTwoToolsSameLeaves) {
  for (const auto& [roce, cnp] : {std::pair{3, -1}, std::pair{5, 6}}) {
    FabricConfig with_dcb = small(roce, cnp);
    FabricConfig with_mlnx = with_dcb;
    with_mlnx.mlnx_qos_hosts = with_mlnx.hosts;
    Fabric a(with_dcb), b(with_mlnx);
    a.step();
    b.step();
    testing::TempDir da("rdmagw-dcb-tree"), db("rdmagw-mlnx-tree");
    TreeWriter wa(da.path()), wb(db.path());
    int strict_seen = 0;
    for (ScenarioKind kind : {ScenarioKind::kNone, ScenarioKind::kTrustMismatch, ScenarioKind::kRoceEtsZero,
                              ScenarioKind::kStrictStarve, ScenarioKind::kPfcMismatch}) {
      SCOPED_TRACE(std::string(scenarioName(kind)) + " roce " + std::to_string(roce));
      a.setScenario({kind, 0});
      b.setScenario({kind, 0});
      ASSERT_TRUE(wa.write(a).isOk());
      ASSERT_TRUE(wb.write(b).isOk());
      for (size_t h = 0; h < a.hosts().size(); ++h) {
        ASSERT_FALSE(a.hosts()[h].mlnx_qos);
        ASSERT_TRUE(b.hosts()[h].mlnx_qos);
        for (size_t d = 0; d < a.hosts()[h].devices.size(); ++d) {
          SCOPED_TRACE(a.hosts()[h].name + ":" + a.hosts()[h].devices[d].netdev);
          const Leaves dcb = collectText(da.path(), a.hosts()[h], a.hosts()[h].devices[d]);
          const Leaves mlnx = collectText(db.path(), b.hosts()[h], b.hosts()[h].devices[d]);
          // Not "equal because both empty": the RoCE configuration is there.
          EXPECT_TRUE(mlnx.count("/interfaces/interface[name=" + a.hosts()[h].devices[d].netdev +
                                 "]/ethernet/dcb/state/trust"));
          EXPECT_TRUE(mlnx.count("/interfaces/interface[name=" + a.hosts()[h].devices[d].netdev +
                                 "]/ethernet/dcb/traffic-classes/traffic-class[id=0]/state/tsa"));
          EXPECT_TRUE(mlnx.count("replaced /interfaces/interface[name=" + a.hosts()[h].devices[d].netdev +
                                 "]/ethernet/dcb/dscp-priorities"));
          expectSameLeaves(dcb, mlnx, &strict_seen);
        }
      }
    }
    EXPECT_GT(strict_seen, 0) << "strict-starve shows strict classes";
  }
}

// Runs the programs as the live collector does: the real `dcb` finds no DCB
// on the simulated netdev (or is not installed), so a `mlnx_qos` on PATH is
// asked; where a `dcb` answers, mlnx_qos is never run.
TEST(MlnxQosHostTest, LiveCollectorRunsMlnxQosOnlyWhereDcbHasNothing) {
  FabricConfig with_dcb = small(5, 6);
  FabricConfig with_mlnx = with_dcb;
  with_mlnx.mlnx_qos_hosts = with_mlnx.hosts;
  Fabric a(with_dcb), b(with_mlnx);
  a.step();
  b.step();
  testing::TempDir da("rdmagw-dcb-tree"), db("rdmagw-mlnx-tree"), bin("rdmagw-fake-bin");
  ASSERT_TRUE(writeTree(a, da.path()).isOk());
  ASSERT_TRUE(writeTree(b, db.path()).isOk());
  const Host& ha = a.hosts()[0];
  const Host& hb = b.hosts()[0];
  const Device& dev = hb.devices[0];
  // The fake prints the simulator's text for `mlnx_qos -i <netdev>` and
  // leaves a mark, so that a run where it must not be asked can tell.
  const std::string fake = bin.path() + "/mlnx_qos";
  ASSERT_TRUE(testing::writeFile(fake, "#!/bin/sh\n[ \"$1\" = -i ] || exit 64\n: > \"$FAKE_MLNX_QOS_DIR/ran\"\n"
                                           "f=\"$FAKE_MLNX_QOS_DIR/$2.mlnx_qos.txt\"\n"
                                           "[ -f \"$f\" ] || { echo \"netlink error\" >&2; exit 1; }\ncat \"$f\"\n"));
  ASSERT_EQ(::chmod(fake.c_str(), 0755), 0);
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (bin.path() + ":" + old_path).c_str(), 1);
  ::setenv("FAKE_MLNX_QOS_DIR", (db.path() + "/" + hb.name + "/ethtool").c_str(), 1);
  const std::string mark = db.path() + "/" + hb.name + "/ethtool/ran";

  southbound::rdma::EthtoolIoctl live;
  const Leaves ran = collect(db.path(), hb, dev, live);
  EXPECT_TRUE(fs::exists(mark)) << "mlnx_qos was asked";
  int strict_seen = 0;
  expectSameLeaves(collectText(da.path(), ha, ha.devices[0]), ran, &strict_seen);
  EXPECT_EQ(ran.count("/interfaces/interface[name=" + dev.netdev + "]/ethernet/pfc/state/enabled-priorities"), 1u);

  // A `dcb` that answers (the dcb host's documents): dcb alone, mlnx_qos never runs.
  fs::remove(mark);
  const std::string fake_dcb = bin.path() + "/dcb";
  ASSERT_TRUE(testing::writeFile(fake_dcb, "#!/bin/sh\nf=\"" + da.path() + "/" + ha.name +
                                                   "/ethtool/$5.dcb-$2.json\"\n[ -f \"$f\" ] || exit 1\ncat \"$f\"\n"));
  ASSERT_EQ(::chmod(fake_dcb.c_str(), 0755), 0);
  const Leaves dcb_ran = collect(db.path(), hb, dev, live);
  EXPECT_FALSE(fs::exists(mark)) << "mlnx_qos ran although dcb answered";
  EXPECT_EQ(dcb_ran, collectText(da.path(), ha, ha.devices[0]));

  ::setenv("PATH", old_path.c_str(), 1);
  ::unsetenv("FAKE_MLNX_QOS_DIR");
}

}  // namespace
}  // namespace rdmagw::sim
