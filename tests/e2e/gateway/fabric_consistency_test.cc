// End to end through every real part: the simulated fabric is written once
// (a frozen tick), the simulated Nexus and ESXi hosts answer over a real
// sshd, the RDMA hosts are read from sysfs, and the gateway's collectors and
// parsers fill the store. The switch's view and the hosts' view of the same
// congestion must then agree leaf for leaf:
//   ECN marks on the leaf's egress queue toward a host == that host's
//   np_ecn_marked_roce_packets; PFC frames the leaf port receives == the
//   pause frames the host NIC sends, and the other way round.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "gateway/demo/demo_config.h"
#include "gateway/runtime/pipeline.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "tests/support/test_support.h"

namespace rdmagw::gateway {
namespace {

namespace fs = std::filesystem;

uint64_t counter(const Store& store, const std::string& target, const std::string& path) {
  auto s = store.get(target, path);
  EXPECT_TRUE(s.has_value()) << target << " " << path;
  return s.has_value() ? std::get<uint64_t>(s->value) : 0;
}

TEST(FabricConsistencyTest, SwitchAndHostsAgreeThroughTheGateway) {
  if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
  testing::TempDir tmp("rdmagw-consistency");
  const fs::path dir = tmp.path();

  sim::FabricConfig fc;  // 4 hosts x 2 devices, 1 leaf, 2 ESXi hosts
  sim::Fabric fabric(fc);
  for (int i = 0; i < 40; ++i) fabric.step();
  ASSERT_TRUE(sim::writeTree(fabric, dir.string()).isOk());

  auto cfg = demoConfig(dir.string(), "127.0.0.1:0", std::chrono::milliseconds(60000));
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  sim::SshdLauncher sshd;
  ASSERT_TRUE(addSimSshDevices(dir.string(), std::chrono::milliseconds(60000), sshd, cfg.value()).isOk());
  ASSERT_EQ(cfg->targets.size(), 4u + 1u + 2u);

  Pipeline pipeline(std::move(cfg).value());
  ASSERT_TRUE(pipeline.start().isOk());
  const Store& store = pipeline.store();
  const bool all = testing::waitUntil([&] {
    bool polled = true;
    for (const TargetStatus& ts : store.targets()) polled = polled && ts.health.polls >= 1;
    return polled;
  });
  ASSERT_TRUE(all) << "not every target was polled";
  for (const TargetStatus& ts : store.targets()) {
    EXPECT_TRUE(ts.health.up) << ts.name << ": " << ts.health.last_error;
    EXPECT_EQ(ts.rejected_updates, 0u) << ts.name;
  }

  const int prio = fc.roce_priority;
  const std::string p = std::to_string(prio);
  uint64_t total_marks = 0, total_pauses = 0;
  for (const sim::Host& host : fabric.hosts()) {
    for (size_t d = 0; d < host.devices.size(); ++d) {
      const sim::Device& dev = host.devices[d];
      const int e = int(&host - &fabric.hosts()[0]) * fc.devices_per_host + int(d);
      const sim::Attachment& att = fabric.attachment(e);
      const sim::Switch& sw = fabric.switches()[size_t(att.sw)];
      const std::string port = sw.ports[size_t(att.port)].name;
      SCOPED_TRACE(host.name + " " + dev.name + " <-> " + sw.name + " " + port);

      const std::string hw = "/rdma/devices/device[name=" + dev.name + "]/ports/port[port-num=1]/state/hw-counters/";
      const uint64_t host_marks = counter(store, host.name, hw + "np-ecn-marked-roce-packets");
      const std::string queue = "/qos/interfaces/interface[interface-id=" + port + "]/output/queues/queue[name=" + p + "]/state/";
      EXPECT_EQ(counter(store, sw.name, queue + "ecn-marked-pkts"), host_marks);
      total_marks += host_marks;

      const std::string nic_prio = "/interfaces/interface[name=" + dev.netdev +
                                   "]/ethernet/pfc/priorities/priority[id=" + p + "]/state/counters/";
      const std::string sw_prio = "/interfaces/interface[name=" + port +
                                  "]/ethernet/pfc/priorities/priority[id=" + p + "]/state/counters/";
      const uint64_t nic_sent = counter(store, host.name, nic_prio + "out-pause-frames");
      const uint64_t nic_got = counter(store, host.name, nic_prio + "in-pause-frames");
      EXPECT_EQ(counter(store, sw.name, sw_prio + "in-pause-frames"), nic_sent);
      EXPECT_EQ(counter(store, sw.name, sw_prio + "out-pause-frames"), nic_got);
      total_pauses += nic_sent + nic_got;

      // `show interface counters errors` reaches the model over SSH: the
      // simulated port's CRC errors, and the columns it counts as zero.
      const sim::SwitchPort& swp = sw.ports[size_t(att.port)];
      const std::string ifc = "/interfaces/interface[name=" + port + "]/state/counters/";
      const std::string eth = "/interfaces/interface[name=" + port + "]/ethernet/state/counters/";
      EXPECT_EQ(counter(store, sw.name, ifc + "in-fcs-errors"), swp.in_error);
      EXPECT_EQ(counter(store, sw.name, eth + "in-stomped-crc-errors"), 0u);
      EXPECT_EQ(counter(store, sw.name, eth + "in-symbol-error"), 0u);
      EXPECT_FALSE(store.get(sw.name, eth + "out-sqe-test-errors").has_value()) << "`--` is no leaf";
    }
  }
  EXPECT_GT(total_marks, 0u) << "40 ticks of the congested fabric should have marked packets";
  EXPECT_GT(total_pauses, 0u) << "and paused some ports";
  pipeline.stop();
  sshd.stop();
}

}  // namespace
}  // namespace rdmagw::gateway
