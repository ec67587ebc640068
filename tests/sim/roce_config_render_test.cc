// The simulated fabric's RoCE configuration read back by the real parsers
// (southbound/rdma, nxos, esxi): every Linux host file (`dcb -j pfc|app|ets|buffer`,
// the mlx5 ECN knobs, configfs RDMA CM), every ESXi `dcb status get` and
// every leaf's `show running-config ipqos` and `show queuing pfc-queue
// detail`, in the default plan (RoCE on 3) and the recorded N93180FX2 one
// (RoCE on 5, CNPs on 6). Then each misconfiguration scenario: the files
// of the tree that change are exactly those of the one device it names,
// they say what the scenario means once parsed, and stopping the scenario
// writes the original files again.

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "models/roce_path.h"
#include "sim/fabric.h"
#include "sim/tree_writer.h"
#include "southbound/esxi/esxi_dcb_config.h"
#include "southbound/nxos/nxos_ipqos.h"
#include "southbound/nxos/nxos_pfc_watchdog.h"
#include "southbound/rdma/dcb_show.h"
#include "southbound/rdma/ecn_sysfs.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/support/test_support.h"

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;
using rdmagw::roce::DeviceRoceConfig;
using rdmagw::roce::HostPort;
using rdmagw::roce::SwitchQos;
using rdmagw::roce::Trust;
using rdmagw::roce::Tsa;

using Files = std::map<std::string, std::string>;  // path below the tree -> content

// Every file below `root`, read back.
Files readTree(const std::string& root) {
  Files out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), root).string();
    if (rel.front() == '.') continue;  // the writer's staging file
    out[rel] = testing::readFile(e.path().string());
  }
  return out;
}

// Writes the fabric's tree into a fresh directory and reads every file back.
Files render(const Fabric& f) {
  testing::TempDir dir("rdmagw-roce-render");
  EXPECT_TRUE(writeTree(f, dir.path()).isOk());
  return readTree(dir.path());
}

// A tree rewritten in place: after the first write only changed files are
// written again, which keeps a dozen scenario round trips fast.
class Tree {
 public:
  Tree() : writer_(dir_.path()) {}
  Files write(const Fabric& f) {
    EXPECT_TRUE(writer_.write(f).isOk());
    return readTree(dir_.path());
  }
  const std::string& root() const { return dir_.path(); }

 private:
  testing::TempDir dir_{"rdmagw-roce-tree"};
  TreeWriter writer_;
};

std::set<std::string> changed(const Files& a, const Files& b) {
  std::set<std::string> out;
  for (const auto& [path, text] : a) {
    auto it = b.find(path);
    if (it == b.end() || it->second != text) out.insert(path);
  }
  for (const auto& [path, text] : b) {
    if (!a.count(path)) out.insert(path);
  }
  return out;
}

const std::string& at(const Files& files, const std::string& path) {
  static const std::string kNone;
  auto it = files.find(path);
  EXPECT_NE(it, files.end()) << path;
  return it == files.end() ? kNone : it->second;
}

// One Linux netdev as the collectors will read it: the four dcb documents
// and the sysfs knobs under <host>/sys.
HostPort hostPort(const Files& files, const std::string& host_root, const std::string& host, const std::string& netdev) {
  HostPort p;
  p.name = netdev;
  for (const char* object : {"pfc", "app", "ets", "buffer"}) {
    const std::string path = host + "/ethtool/" + netdev + ".dcb-" + object + ".json";
    Status s = southbound::rdma::parseDcbJson(object, at(files, path), p);
    EXPECT_TRUE(s.isOk()) << path << ": " << s.message();
  }
  southbound::rdma::SysfsReaderImpl reader(host_root + "/" + host + "/sys");
  Status s = southbound::rdma::readEcnKnobs(reader, netdev, p);
  EXPECT_TRUE(s.isOk()) << s.message();
  return p;
}

SwitchQos switchQos(const Files& files, const std::string& leaf) {
  SwitchQos q;
  Status s = southbound::nxos::parseNxosIpqos(at(files, leaf + "/cli/show_running_config_ipqos"), q);
  EXPECT_TRUE(s.isOk()) << leaf << ": " << s.message();
  s = southbound::nxos::parseNxosPfcWatchdog(at(files, leaf + "/cli/show_queuing_pfc_queue_detail"), q);
  EXPECT_TRUE(s.isOk()) << leaf << ": " << s.message();
  return q;
}

uint8_t bit(int n) { return uint8_t(1u << n); }

// Everything the default plan promises, on every device, through the parsers.
void expectPlan(const Fabric& f) {
  const RoceQosPlan plan = f.roceQos();
  const int r = plan.roce_priority, c = plan.cnp_priority;
  Tree tree;
  const Files files = tree.write(f);
  for (const Host& h : f.hosts()) {
    DeviceRoceConfig device;
    for (const Device& d : h.devices) {
      SCOPED_TRACE(h.name + ":" + d.netdev);
      HostPort p = hostPort(files, tree.root(), h.name, d.netdev);
      EXPECT_EQ(p.trust, Trust::kDscp);
      EXPECT_EQ(p.dscp_priority, (std::map<uint32_t, uint32_t>{{kRoceDscp, r}, {kCnpDscp, c}}));
      EXPECT_EQ(p.pfc_enabled, bit(r)) << "PFC on the RoCE priority alone";
      ASSERT_TRUE(p.priority_tc[r].has_value());
      const uint32_t tc = *p.priority_tc[r];
      EXPECT_EQ(p.tc[tc].tsa, Tsa::kEts);
      EXPECT_EQ(p.tc[tc].bandwidth_percent, kRoceQueuePercent) << "RoCE has the ETS share the leaves give it";
      uint32_t sum = 0;
      for (int t = 0; t < 8; ++t) {
        EXPECT_EQ(p.tc[t].tsa, Tsa::kEts) << "no strict class to starve RoCE: tc " << t;
        sum += p.tc[t].bandwidth_percent.value_or(0);
      }
      EXPECT_EQ(sum, 100u);
      EXPECT_EQ(p.priority_buffer[r], 1u);
      EXPECT_EQ(p.buffer_bytes[1], kPfcBufferBytes);
      EXPECT_EQ(p.dcqcn.np_enabled, 0xff);
      EXPECT_EQ(p.dcqcn.rp_enabled, 0xff);
      EXPECT_EQ(p.dcqcn.cnp_dscp, kCnpDscp);
      EXPECT_EQ(p.dcqcn.cnp_802p_prio, uint32_t(c));
      device.ports[d.netdev] = p;
    }
    southbound::rdma::SysfsReaderImpl reader(tree.root() + "/" + h.name + "/sys");
    ASSERT_TRUE(southbound::rdma::readRdmaCmDefaults(reader, device.rdma_cm).isOk());
    ASSERT_EQ(device.rdma_cm.size(), h.devices.size());
    for (const rdmagw::roce::RdmaCmPort& cm : device.rdma_cm) {
      EXPECT_EQ(cm.port, 1u);
      EXPECT_EQ(cm.default_roce_tos, 106u) << "DSCP 26 << 2 | ECT(0)";
      EXPECT_EQ(cm.default_roce_mode, "RoCE v2");
    }
    // The host's own path: the CM's ToS lands on the no-drop priority, the
    // CNPs on theirs.
    const rdmagw::roce::RocePath path = rdmagw::roce::hostRocePath(device, h.devices[0].netdev);
    ASSERT_TRUE(path.roce && path.cnp);
    EXPECT_EQ(path.roce->priority, uint32_t(r));
    EXPECT_TRUE(path.roce->lossless);
    EXPECT_EQ(path.roce->receive_buffer_bytes, kPfcBufferBytes);
    EXPECT_EQ(path.roce->dcqcn_np, true);
    EXPECT_EQ(path.cnp->priority, uint32_t(c));
    EXPECT_FALSE(path.cnp->lossless);
  }
  for (const EsxiHost& esx : f.esxiHosts()) {
    for (const Vmnic& nic : esx.nics) {
      SCOPED_TRACE(esx.name + ":" + nic.name);
      HostPort p;
      const std::string path = esx.name + "/cli/esxcli_network_nic_dcb_status_get_n_" + nic.name;
      ASSERT_TRUE(southbound::esxi::parseEsxiDcbConfig(at(files, path), p).isOk());
      EXPECT_EQ(p.pfc_enabled, bit(r));
      EXPECT_EQ(p.priority_tc[r], uint32_t(r));
      EXPECT_EQ(p.tc[r].tsa, Tsa::kEts);
      EXPECT_EQ(p.tc[r].bandwidth_percent, kRoceQueuePercent);
    }
  }
  for (const Switch& sw : f.switches()) {
    SCOPED_TRACE(sw.name);
    const SwitchQos q = switchQos(files, sw.name);
    const rdmagw::roce::RoceHop roce = rdmagw::roce::switchHop(q, kRoceDscp);
    EXPECT_EQ(roce.classified_by, "RoCEv2-DATA");
    EXPECT_EQ(roce.qos_group, uint32_t(r)) << "DSCP 26 -> qos-group R";
    EXPECT_EQ(roce.priority, uint32_t(r)) << "-> pause pfc-cos R";
    EXPECT_TRUE(roce.lossless);
    EXPECT_EQ(roce.mtu, 9216u);
    EXPECT_EQ(roce.egress_queue, "c-out-8q-q" + std::to_string(r));
    EXPECT_EQ(roce.bandwidth_percent, kRoceQueuePercent);
    ASSERT_TRUE(roce.wred.has_value());
    EXPECT_TRUE(roce.wred->ecn);
    EXPECT_EQ(roce.wred->min_threshold, 150u);
    EXPECT_EQ(roce.wred->max_threshold, 3000u);
    EXPECT_EQ(roce.wred->unit, "kbytes");
    EXPECT_EQ(roce.wred->drop_probability, 7u);
    EXPECT_EQ(roce.wred->weight, 0u);
    ASSERT_TRUE(roce.ingress_pause.has_value());
    EXPECT_EQ(roce.ingress_pause->buffer_size, kPauseBufferSize);
    EXPECT_EQ(roce.ingress_pause->pause_threshold, kPauseThreshold);
    EXPECT_EQ(roce.ingress_pause->resume_threshold, kResumeThreshold);
    const rdmagw::roce::RoceHop cnp = rdmagw::roce::switchHop(q, kCnpDscp);
    EXPECT_EQ(cnp.qos_group, uint32_t(c));
    EXPECT_EQ(cnp.priority_level, 1u) << "CNPs in the strict queue";
    EXPECT_FALSE(cnp.lossless);
    EXPECT_EQ(rdmagw::roce::switchPausedPriorities(q), bit(r)) << "no other CoS paused";
    EXPECT_EQ(rdmagw::roce::switchLosslessDscps(q), std::vector<uint32_t>{kRoceDscp});
    EXPECT_EQ(q.global_watchdog_interval, "on");
    EXPECT_TRUE(q.forward_nonecn);
    int ports = 0;
    for (const SwitchPort& p : sw.ports) {
      if (p.kind == PortKind::kInternal) continue;
      ++ports;
      auto it = q.interfaces.find(p.name);
      ASSERT_NE(it, q.interfaces.end()) << p.name;
      EXPECT_EQ(it->second.pfc_mode, "on") << p.name;
      EXPECT_EQ(it->second.watchdog_interval, "on") << p.name;
      EXPECT_EQ(rdmagw::roce::switchHop(q, kRoceDscp, p.name).lossless, true) << p.name;
      ASSERT_TRUE(q.watchdog.count(p.name)) << p.name;
      EXPECT_EQ(q.watchdog.at(p.name).enabled, true) << p.name;
      ASSERT_EQ(q.watchdog.at(p.name).queues.size(), 1u) << p.name;
      EXPECT_EQ(q.watchdog.at(p.name).queues[0].qos_group, uint32_t(r));
      EXPECT_EQ(q.watchdog.at(p.name).queues[0].pfc_cos, uint32_t(r));
    }
    EXPECT_EQ(int(q.interfaces.size()), ports);
    // `show policy-map system type network-qos` is the same policy.
    SwitchQos nq;
    ASSERT_TRUE(southbound::nxos::parseNxosIpqos(
                    at(files, sw.name + "/cli/show_policy_map_system_type_network_qos"), nq)
                    .isOk());
    ASSERT_TRUE(nq.policy_maps.count("QOS-NETWORK"));
    const rdmagw::roce::PolicyClass* shown = nq.policy_maps.at("QOS-NETWORK").find("c-8q-nq" + std::to_string(r));
    const rdmagw::roce::PolicyClass* running = q.policy_maps.at("QOS-NETWORK").find("c-8q-nq" + std::to_string(r));
    ASSERT_TRUE(shown && running);
    EXPECT_EQ(shown->pause_pfc_cos, running->pause_pfc_cos);
    EXPECT_EQ(shown->mtu, running->mtu);
  }
}

FabricConfig small() {
  FabricConfig c;
  c.hosts = 2;  // x 2 devices, then 2 ESXi hosts: endpoints 4..7 are their vmnics
  c.calm = true;
  c.switches = 2;  // device d of every host on leaf d % 2: a fault on one leaf must stay there
  return c;
}

TEST(RoceConfigRenderTest, TheDefaultPlanParsesOnEveryDevice) {
  Fabric f(small());
  f.step();
  EXPECT_EQ(f.roceQos().roce_priority, 3);
  EXPECT_EQ(f.roceQos().cnp_priority, 6);
  expectPlan(f);
}

TEST(RoceConfigRenderTest, TheRecordedVariantRunsRoceOnFiveAndCnpsOnSix) {
  FabricConfig c = small();
  c.roce_priority = 5;
  c.cnp_priority = 6;
  ASSERT_TRUE(c.validate().isOk());
  Fabric f(c);
  f.step();
  expectPlan(f);
  const Files files = render(f);
  const std::string ipqos = at(files, "leaf01/cli/show_running_config_ipqos");
  for (const char* line : {"\n    set qos-group 5\n", "\n    set qos-group 6\n", "\n    pause pfc-cos 5\n",
                           "\n  class type queuing c-out-8q-q6\n    priority level 1\n",
                           "\n  class type queuing c-in-q5\n"}) {
    EXPECT_NE(ipqos.find(line), std::string::npos) << line;
  }
}

TEST(RoceConfigRenderTest, CnpPriorityIsValidated) {
  FabricConfig c;
  c.cnp_priority = 3;  // the RoCE priority
  EXPECT_FALSE(c.validate().isOk());
  c.cnp_priority = 0;  // the lossy one
  EXPECT_FALSE(c.validate().isOk());
  c.cnp_priority = 8;
  EXPECT_NE(c.validate().message().find("sim.cnp_priority"), std::string::npos);
  c.cnp_priority = 7;
  EXPECT_TRUE(c.validate().isOk());
  c.roce_priority = 6;
  c.cnp_priority = -1;
  EXPECT_EQ(Fabric(c).cnpPriority(), 7) << "automatic: off the RoCE priority";
}

// ----- scenarios -----

struct ScenarioCase {
  ScenarioKind kind;
  int receiver;
  // The files (below the tree) the scenario changes: the one device's.
  std::function<std::set<std::string>(const Fabric&)> files;
  std::string target;  // Fabric::scenarioTarget
  // What the changed files say, parsed (the tree's root for sysfs reads).
  std::function<void(const Fabric&, const Files&, const std::string& root)> check;
};

// host0N of endpoint e and its netdev.
std::string hostOf(const Fabric& f, int e) { return f.hosts()[size_t(e / f.config().devices_per_host)].name; }
std::string netdevOf(const Fabric& f, int e) { return f.device(e).netdev; }
std::string leafOf(const Fabric& f, int e) { return f.switches()[size_t(f.attachment(e).sw)].name; }

std::set<std::string> leafFiles(const Fabric& f, int e, std::initializer_list<const char*> slugs) {
  std::set<std::string> out;
  for (const char* s : slugs) out.insert(leafOf(f, e) + "/cli/" + s);
  return out;
}

std::vector<ScenarioCase> cases() {
  constexpr int kHostPort = 3;  // host02:mlx5_1, cabled to leaf02
  constexpr int kVmnic = 5;     // esx01:vmnic1
  return {
      {ScenarioKind::kTrustMismatch, kHostPort,
       [](const Fabric& f) { return std::set<std::string>{hostOf(f, 3) + "/ethtool/" + netdevOf(f, 3) + ".dcb-app.json"}; },
       "host02:mlx5_1 (ens1f1np1)",
       [](const Fabric& f, const Files& files, const std::string& root) {
         const HostPort p = hostPort(files, root, hostOf(f, 3), netdevOf(f, 3));
         EXPECT_EQ(p.trust, Trust::kPcp);
         EXPECT_FALSE(rdmagw::roce::hostHop(p, kRoceDscp).priority.has_value());
       }},
      {ScenarioKind::kCnpLossy, kHostPort,
       [](const Fabric& f) { return leafFiles(f, 3, {"show_running_config_ipqos"}); }, "leaf02",
       [](const Fabric&, const Files& files, const std::string&) {
         const SwitchQos q = switchQos(files, "leaf02");
         const rdmagw::roce::RoceHop cnp = rdmagw::roce::switchHop(q, kCnpDscp);
         EXPECT_EQ(cnp.classified_by, "class-default");
         EXPECT_EQ(cnp.qos_group, 0u);
         EXPECT_EQ(cnp.egress_queue, "c-out-8q-q-default");
         EXPECT_FALSE(cnp.priority_level.has_value()) << "not strict";
         EXPECT_FALSE(cnp.lossless);
         EXPECT_TRUE(rdmagw::roce::switchHop(q, kRoceDscp).lossless) << "RoCE itself untouched";
       }},
      {ScenarioKind::kEcnOff, kHostPort,
       [](const Fabric& f) { return leafFiles(f, 3, {"show_running_config_ipqos"}); }, "leaf02",
       [](const Fabric&, const Files& files, const std::string&) {
         const rdmagw::roce::RoceHop roce = rdmagw::roce::switchHop(switchQos(files, "leaf02"), kRoceDscp);
         ASSERT_TRUE(roce.wred.has_value());
         EXPECT_FALSE(roce.wred->ecn);
         EXPECT_EQ(roce.wred->max_threshold, 3000u) << "WRED stays: it drops instead of marking";
       }},
      {ScenarioKind::kEcnLate, kHostPort,
       [](const Fabric& f) { return leafFiles(f, 3, {"show_running_config_ipqos"}); }, "leaf02",
       [](const Fabric&, const Files& files, const std::string&) {
         const rdmagw::roce::RoceHop roce = rdmagw::roce::switchHop(switchQos(files, "leaf02"), kRoceDscp);
         ASSERT_TRUE(roce.wred.has_value());
         EXPECT_TRUE(roce.wred->ecn) << "it still marks, only later";
         EXPECT_EQ(roce.wred->min_threshold, 1500u);
         EXPECT_EQ(roce.wred->max_threshold, 6000u);
         const rdmagw::roce::RoceHop other = rdmagw::roce::switchHop(switchQos(files, "leaf01"), kRoceDscp);
         ASSERT_TRUE(other.wred.has_value());
         EXPECT_EQ(other.wred->min_threshold, 150u) << "the other leaf as before";
       }},
      {ScenarioKind::kPauseCosMissing, kHostPort,
       [](const Fabric& f) {
         return leafFiles(f, 3, {"show_running_config_ipqos", "show_policy_map_system_type_network_qos",
                                 "show_queuing_pfc_queue_detail"});
       },
       "leaf02",
       [](const Fabric&, const Files& files, const std::string&) {
         const SwitchQos q = switchQos(files, "leaf02");
         EXPECT_EQ(rdmagw::roce::switchPausedPriorities(q), 0);
         const rdmagw::roce::RoceHop roce = rdmagw::roce::switchHop(q, kRoceDscp);
         EXPECT_EQ(roce.qos_group, 3u);
         EXPECT_FALSE(roce.lossless);
         EXPECT_EQ(roce.mtu, 9216u) << "the class keeps its MTU";
         for (const auto& [port, wd] : q.watchdog) EXPECT_TRUE(wd.queues.empty()) << port;
       }},
      {ScenarioKind::kRoceEtsZero, kHostPort,
       [](const Fabric& f) { return std::set<std::string>{hostOf(f, 3) + "/ethtool/" + netdevOf(f, 3) + ".dcb-ets.json"}; },
       "host02:mlx5_1 (ens1f1np1)",
       [](const Fabric& f, const Files& files, const std::string& root) {
         const HostPort p = hostPort(files, root, hostOf(f, 3), netdevOf(f, 3));
         EXPECT_EQ(p.tc[3].tsa, Tsa::kEts);
         EXPECT_EQ(p.tc[3].bandwidth_percent, 0u);
         EXPECT_EQ(p.pfc_enabled, bit(3)) << "still lossless";
       }},
      {ScenarioKind::kRoceEtsZero, kVmnic,
       [](const Fabric&) { return std::set<std::string>{"esx01/cli/esxcli_network_nic_dcb_status_get_n_vmnic1"}; },
       "esx01:vmnic1",
       [](const Fabric&, const Files& files, const std::string&) {
         HostPort p;
         ASSERT_TRUE(southbound::esxi::parseEsxiDcbConfig(
                         at(files, "esx01/cli/esxcli_network_nic_dcb_status_get_n_vmnic1"), p)
                         .isOk());
         EXPECT_EQ(p.tc[3].bandwidth_percent, 0u);
       }},
      {ScenarioKind::kStrictStarve, kHostPort,
       [](const Fabric& f) { return std::set<std::string>{hostOf(f, 3) + "/ethtool/" + netdevOf(f, 3) + ".dcb-ets.json"}; },
       "host02:mlx5_1 (ens1f1np1)",
       [](const Fabric& f, const Files& files, const std::string& root) {
         const HostPort p = hostPort(files, root, hostOf(f, 3), netdevOf(f, 3));
         for (int tc = 0; tc < 8; ++tc) {
           EXPECT_EQ(p.tc[tc].tsa, tc >= 3 ? Tsa::kStrict : Tsa::kEts) << tc;
         }
         EXPECT_EQ(p.tc[3].bandwidth_percent, 0u);
         EXPECT_EQ(p.tc[0].bandwidth_percent, 100u);
       }},
      {ScenarioKind::kWatchdogOff, kHostPort,
       [](const Fabric& f) { return leafFiles(f, 3, {"show_running_config_ipqos", "show_queuing_pfc_queue_detail"}); },
       "leaf02 Ethernet1/2",
       [](const Fabric& f, const Files& files, const std::string&) {
         const SwitchQos q = switchQos(files, "leaf02");
         const std::string port = f.switchPortOf(3).name;
         for (const auto& [name, i] : q.interfaces) {
           EXPECT_EQ(i.watchdog_interval, name == port ? "off" : "on") << name;
           EXPECT_EQ(q.watchdog.at(name).enabled, name != port) << name;
         }
         EXPECT_EQ(q.global_watchdog_interval, "on");
       }},
      {ScenarioKind::kMtuSmall, kHostPort,
       [](const Fabric& f) { return leafFiles(f, 3, {"show_interface", "show_interface_json"}); },
       "leaf02 Ethernet1/2",
       [](const Fabric& f, const Files& files, const std::string&) {
         const std::string& text = at(files, "leaf02/cli/show_interface");
         const std::string port = f.switchPortOf(3).name;
         const size_t block = text.find("\n" + port + " is up\n");
         ASSERT_NE(block, std::string::npos);
         EXPECT_EQ(text.find("  MTU ", block), text.find("  MTU 1500 bytes", block));
         size_t jumbo = 0;
         for (size_t at = text.find("MTU 9216 bytes"); at != std::string::npos; at = text.find("MTU 9216 bytes", at + 1)) {
           ++jumbo;
         }
         EXPECT_EQ(jumbo, f.switches()[1].ports.size() - 1) << "every other port keeps 9216";
         const std::string& json = at(files, "leaf02/cli/show_interface_json");
         size_t small_mtu = 0;
         for (size_t at = json.find("\"eth_mtu\": \"1500\""); at != std::string::npos;
              at = json.find("\"eth_mtu\": \"1500\"", at + 1)) {
           ++small_mtu;
         }
         EXPECT_EQ(small_mtu, 2u) << "mgmt0 and the port";
       }},
  };
}

TEST(RoceConfigRenderTest, EachMisconfigurationChangesOneDeviceAndStopsCleanly) {
  for (const ScenarioCase& c : cases()) {
    SCOPED_TRACE(std::string(scenarioName(c.kind)) + " on endpoint " + std::to_string(c.receiver));
    Fabric f(small());
    f.step();
    Tree tree;
    const Files before = tree.write(f);
    f.setScenario({c.kind, c.receiver});
    EXPECT_EQ(f.scenarioTarget(), c.target);
    const Files during = tree.write(f);
    EXPECT_EQ(changed(before, during), c.files(f));
    c.check(f, during, tree.root());
    f.setScenario({});
    EXPECT_TRUE(changed(before, tree.write(f)).empty()) << "stopped: every file as before";
  }
}

TEST(RoceConfigRenderTest, PfcOnALossyPriorityCountsAtOneLeafPortOnly) {
  // The same calm fabric twice, one with the fault: it adds no traffic, so
  // every counter but the faulty port's lossy CoS matches tick for tick.
  Fabric plain(small());
  Fabric faulty(small());
  faulty.setScenario({ScenarioKind::kPfcLossyPrio, 3});
  EXPECT_EQ(faulty.scenarioTarget(), "leaf02 Ethernet1/2");
  for (int t = 0; t < 5; ++t) {
    plain.step();
    faulty.step();
  }
  EXPECT_EQ(changed(render(plain), render(faulty)),
            leafFiles(faulty, 3, {"show_interface_priority_flow_control", "show_queuing_interface",
                                  "show_queuing_interface_json"}));
  const int lossy = faulty.lossyPriority();
  const SwitchPort& port = faulty.switchPortOf(3);
  EXPECT_EQ(port.rx_ppp[lossy], 5u * 1200u);
  std::array<uint64_t, kPriorities> want = plain.switchPortOf(3).rx_ppp;
  want[lossy] += 5u * 1200u;
  EXPECT_EQ(port.rx_ppp, want) << "every other CoS as without the fault";
  // No network-qos class pauses it.
  const SwitchQos q = switchQos(render(faulty), "leaf02");
  EXPECT_EQ(rdmagw::roce::switchPausedPriorities(q, port.name) & bit(lossy), 0);
  // Stopped, the count stays where it was.
  faulty.setScenario({});
  faulty.step();
  EXPECT_EQ(faulty.switchPortOf(3).rx_ppp[lossy], 5u * 1200u);
}

TEST(RoceConfigRenderTest, ACnpLossyLeafQueuesCnpsInTheDefaultQueue) {
  // The congested default fabric on two leaves: CNPs flow on both.
  FabricConfig c;
  c.switches = 2;
  Fabric f(c);
  f.setScenario({ScenarioKind::kCnpLossy, 3});  // leaf02
  auto cnpQueue = [&](int leaf) {
    uint64_t sum = 0;
    for (const SwitchPort& p : f.switches()[size_t(leaf)].ports) sum += p.queues[size_t(f.cnpPriority())].uc_tx_pkts;
    return sum;
  };
  const uint64_t cnps = f.totals().cnps;
  const uint64_t leaf01 = cnpQueue(0), leaf02 = cnpQueue(1);
  for (int t = 0; t < 16; ++t) f.step();
  ASSERT_GT(f.totals().cnps, cnps);
  EXPECT_GT(cnpQueue(0), leaf01) << "leaf01 keeps its CNP class";
  EXPECT_EQ(cnpQueue(1), leaf02) << "leaf02 sends every CNP from the default queue";
  f.setScenario({});
  for (int t = 0; t < 16; ++t) f.step();
  EXPECT_GT(cnpQueue(1), leaf02) << "stopped: the CNP queue counts again";
}

}  // namespace
}  // namespace rdmagw::sim
