#include "southbound/rdma/remote_dump.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <filesystem>
#include <map>
#include <random>
#include <tuple>

#include "southbound/rdma/device_filter.h"
#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/parsers.h"
#include "southbound/rdma/rdma_collector.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/southbound/rdma/rdma_test_util.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::TempTree;
using rdmagw::testing::anyErrorContains;
using rdmagw::testing::readFixture;
using rdmagw::testing::strAt;
using rdmagw::testing::u64At;

constexpr TimestampNs kTs = 1700000000000000000;
const std::string kRocePort = "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state";
const std::string kIbPort = "/rdma/devices/device[name=mlx5_1]/ports/port[port-num=1]/state";
const std::string kIf = "/interfaces/interface[name=ens1f0np0]";

// A RoCE mlx5 with PFC on priority 3, an IB mlx5 (procfs fixture values) with
// an IPoIB netdev, one counter that fails to read (EIO via /proc/self/mem),
// one that is a directory (EISDIR), empty GID slots before the named one.
void writeHost(TempTree& t) {
  const std::string d = "sys/class/infiniband/mlx5_0/";
  t.write(d + "fw_ver", "22.36.1010\n");
  t.write(d + "hca_type", "MT4125\n");
  t.write(d + "board_id", "MT\\c_%s_0359\n");  // dash echo would eat "\\c"
  t.write(d + "node_guid", "b8ce:f603:00a1:b2c4\n");
  const std::string p = d + "ports/1/";
  t.write(p + "state", "4: ACTIVE\n");
  t.write(p + "phys_state", "5: LinkUp\n");
  t.write(p + "rate", "100 Gb/sec (2X HDR)\n");
  t.write(p + "link_layer", "Ethernet\n");
  t.write(p + "gid_attrs/ndevs/0", "\n");  // empty slot (the kernel says EINVAL)
  t.write(p + "gid_attrs/ndevs/1", "ens1f0np0\n");
  t.write(p + "gid_attrs/ndevs/2", "ens1f0np0\n");
  t.write(p + "counters/port_xmit_data", "250\n");
  t.write(p + "counters/port_rcv_data", "1000\n");
  t.write(p + "counters/symbol_error", "65535\n");
  t.write(p + "counters/link_downed", "3\n");
  t.write(p + "counters/VL15_dropped", "0\n");
  std::filesystem::create_symlink("/proc/self/mem", t.path(p + "counters/port_rcv_errors"));
  t.mkdir(p + "counters/port_xmit_wait");  // a directory where a file belongs
  t.write(p + "hw_counters/np_ecn_marked_roce_packets", "5120\n");
  t.write(p + "hw_counters/np_cnp_sent", "2048\n");
  t.write(p + "hw_counters/out_of_buffer", "4294967290\n");
  t.write(p + "hw_counters/lifespan", "10\n");
  t.write(p + "hw_counters/rx_new_fancy_counter", "9\n");
  // The IB device, from the procfs fixture, plus IPoIB device/net/ib0.
  std::string fixture = readFixture("sysfs_infiniband_mlx5_procfs_fixture.txt");
  size_t pos = 0;
  while (pos < fixture.size()) {
    size_t nl = fixture.find('\n', pos);
    std::string line = fixture.substr(pos, nl - pos);
    pos = nl == std::string::npos ? fixture.size() : nl + 1;
    if (line.empty() || line[0] == '#') continue;
    size_t sep = line.find(": ");
    std::string rel = line.substr(1, sep - 1);  // "sys/class/infiniband/mlx5_0/..."
    rel.replace(rel.find("mlx5_0"), 6, "mlx5_1");
    t.write(rel, line.substr(sep + 2) + "\n");
  }
  t.write("sys/class/infiniband/mlx5_1/device/net/ib0/dev_port", "0\n");
  t.write("ethtool/ens1f0np0.txt",
          "NIC statistics:\n"
          "     rx_packets: 1000\n     tx_packets: 2000\n"
          "     rx_bytes: 640000\n     tx_bytes: 1280000\n"
          "     rx_discards_phy: 7\n"
          "     rx_pause_ctrl_phy: 15\n     tx_pause_ctrl_phy: 16\n"
          "     rx_prio3_pause: 12\n     rx_prio3_pause_duration: 3400\n"
          "     tx_prio3_pause: 11\n     tx_prio3_pause_duration: 2200\n"
          "     rx_prio3_pause_transition: 6\n     rx_prio3_discards: 2\n"
          "     a line the driver added\n"
          "     tx_pause_storm_warning_events: 1\n     tx_pause_storm_error_events: 0\n");
  // ib0 has no stats file: the fake ethtool fails for it, as EthtoolText does.
  t.write("bin/ethtool",
          "#!/bin/sh\n[ \"$1\" = -S ] || exit 64\n"
          "f=\"$FAKE_ETHTOOL_DIR/$2.txt\"\n"
          "[ -f \"$f\" ] || { echo \"no stats for $2\" >&2; exit 94; }\ncat \"$f\"\n");
  ::chmod(t.path("bin/ethtool").c_str(), 0755);
  // DCB configuration: MTU, DCQCN knobs (NP off on priority 3), dcb pfc.
  t.write("sys/class/net/ens1f0np0/mtu", "9000\n");
  for (int p = 0; p < 8; ++p) {
    t.write("sys/class/net/ens1f0np0/ecn/roce_np/enable/" + std::to_string(p), p == 3 ? "0\n" : "1\n");
    t.write("sys/class/net/ens1f0np0/ecn/roce_rp/enable/" + std::to_string(p), "1\n");
  }
  t.write("ethtool/ens1f0np0.dcb-pfc.json",
          "{\"pfc_cap\":8,\"macsec_bypass\":false,\"delay\":0,"
          "\"prio_pfc\":[false,false,false,true,false,false,false,false]}\n");
  t.write("ethtool/ens1f0np0.dcb-app.json", "{\"dscp_prio\":[[\"AF31\",3]]}\n");
  // The RoCE configuration: ETS, receive buffers, CNP knobs, RDMA CM defaults.
  t.write("ethtool/ens1f0np0.dcb-ets.json",
          "{\"willing\":false,\"ets_cap\":8,\"tc_bw\":[10,10,10,60,10,0,0,0],"
          "\"tc_tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"strict\",\"strict\"],"
          "\"prio_tc\":[0,1,2,3,4,5,6,7]}\n");
  t.write("ethtool/ens1f0np0.dcb-buffer.json",
          "{\"prio_buffer\":[0,0,0,1,0,0,0,0],\"buffer_size\":[130944,262144,0,0,0,0,0,0],\"total_size\":393088}\n");
  t.write("sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp", "48\n");
  t.write("sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio", "6\n");
  t.write("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "106\n");
  t.write("sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode", "RoCE v2\n");
  // ib0 has no DCB: the fake dcb fails for it as the real one does (quietly).
  t.write("bin/dcb",
          "#!/bin/sh\ncase \"$1 $2 $3 $4\" in \"-j pfc show dev\"|\"-j app show dev\"|\"-j ets show dev\"|\"-j buffer show dev\") ;; "
          "*) exit 64;; esac\n"
          "f=\"$FAKE_ETHTOOL_DIR/$5.dcb-$2.json\"\n"
          "[ -f \"$f\" ] || { echo \"Attribute read: Operation not supported\" >&2; exit 1; }\ncat \"$f\"\n");
  ::chmod(t.path("bin/dcb").c_str(), 0755);
}

// Runs the command line the way the SSH session would hand it to a shell.
std::string runCommand(TempTree& t, const std::string& cmd, int* status = nullptr) {
  const std::string full = "PATH=" + shellQuote(t.path("bin")) + ":\"$PATH\" FAKE_ETHTOOL_DIR=" +
                           shellQuote(t.path("ethtool")) + " timeout 30 " + cmd;
  FILE* f = ::popen(full.c_str(), "r");
  EXPECT_NE(f, nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  int st = f ? ::pclose(f) : -1;
  if (status) *status = st;
  return out;
}

RdmaConfig configFor(TempTree& t) {
  RdmaConfig c;
  c.sysfs_root = t.path("sys");
  c.ethtool = RdmaConfig::EthtoolMode::kText;
  c.ethtool_dir = t.path("ethtool");
  return c;
}

PollBatch localPoll(TempTree& t, const RdmaConfig& c) {
  RdmaCollector local(std::make_unique<SysfsReaderImpl>(c.sysfs_root),
                      DeviceFilter(c.include_devices, c.exclude_devices),
                      c.ethtool == RdmaConfig::EthtoolMode::kNone
                          ? nullptr
                          : std::make_unique<EthtoolText>(c.ethtool_dir),
                      [] { return TimestampNs{1}; });
  PollBatch b;
  EXPECT_TRUE(local.poll(b).isOk());
  return b;
}

void expectSameUpdates(const PollBatch& local, const PollBatch& remote) {
  ASSERT_EQ(local.updates.size(), remote.updates.size());
  for (size_t i = 0; i < local.updates.size(); ++i) {
    const Update& a = local.updates[i];
    const Update& b = remote.updates[i];
    EXPECT_EQ(a.path, b.path) << i;
    EXPECT_EQ(a.value, b.value) << a.path;
    EXPECT_EQ(std::tie(a.source.bits, a.source.saturates),
              std::tie(b.source.bits, b.source.saturates))
        << a.path;
  }
}

TEST(RemoteDumpTest, RealShellMatchesTheLocalCollector) {
  TempTree t;
  writeHost(t);
  RdmaConfig c = configFor(t);
  int status = 0;
  const std::string dump = runCommand(t, remoteDumpCommand(c), &status);
  ASSERT_EQ(status, 0) << dump;
  PollBatch remote;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, remote).isOk()) << dump;
  PollBatch local = localPoll(t, c);
  expectSameUpdates(local, remote);
  for (const Update& u : remote.updates) EXPECT_EQ(u.timestamp_ns, kTs);

  // The values themselves, so "identical" is not "identically empty".
  EXPECT_EQ(u64At(remote, kRocePort + "/counters/port-xmit-octets"), 1000u);
  EXPECT_EQ(u64At(remote, kRocePort + "/hw-counters/out-of-buffer"), 4294967290u);
  EXPECT_EQ(strAt(remote, kRocePort + "/netdev"), "ens1f0np0");
  EXPECT_EQ(strAt(remote, "/rdma/devices/device[name=mlx5_0]/state/board-id"), "MT\\c_%s_0359");
  EXPECT_EQ(strAt(remote, kIbPort + "/netdev"), "ib0");
  EXPECT_EQ(u64At(remote, kIbPort + "/counters/port-xmit-octets"), 11523046035392ULL);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/"
                                "in-pause-frames"),
            12u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/pfc/state/counters/pause-storm-warning-events"), 1u);
  EXPECT_FALSE(u64At(remote, kRocePort + "/counters/port-rcv-errors"));
  // The netdev's DCB configuration, through the same code as the local read.
  EXPECT_EQ(u64At(remote, kIf + "/state/mtu"), 9000u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcqcn/state/np-enabled-priorities"), 0xf7u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcqcn/state/rp-enabled-priorities"), 0xffu);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/pfc/state/enabled-priorities"), 0x08u);
  EXPECT_FALSE(u64At(remote, "/interfaces/interface[name=ib0]/ethernet/pfc/state/enabled-priorities"));
  EXPECT_EQ(strAt(remote, kIf + "/ethernet/dcb/state/trust"), "dscp");
  EXPECT_FALSE(strAt(remote, "/interfaces/interface[name=ib0]/ethernet/dcb/state/trust"));
  // The RoCE configuration rides in the same round trip.
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcqcn/state/cnp-dscp"), 48u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcqcn/state/cnp-802p-priority"), 6u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/dscp-priorities/dscp-priority[dscp=26]/state/priority"), 3u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/priorities/priority[id=3]/state/traffic-class"), 3u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/priorities/priority[id=3]/state/receive-buffer-bytes"), 262144u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/priorities/priority[id=0]/state/receive-buffer-bytes"), 130944u);
  EXPECT_EQ(strAt(remote, kIf + "/ethernet/dcb/traffic-classes/traffic-class[id=6]/state/tsa"), "strict");
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/traffic-classes/traffic-class[id=3]/state/bandwidth-percent"), 60u);
  EXPECT_EQ(u64At(remote, kRocePort + "/default-roce-tos"), 106u);
  EXPECT_EQ(strAt(remote, kRocePort + "/default-roce-mode"), "RoCE v2");
  EXPECT_FALSE(strAt(remote, kIbPort + "/default-roce-mode"));

  // The same failures, reported once each, on both sides.
  EXPECT_EQ(local.errors.size(), remote.errors.size());
  EXPECT_TRUE(anyErrorContains(remote, "counters/port_rcv_errors"));
  EXPECT_TRUE(anyErrorContains(remote, "counters/port_xmit_wait"));
  EXPECT_TRUE(anyErrorContains(remote, "ethtool -S ib0"));
  EXPECT_TRUE(anyErrorContains(remote, "a line the driver added"));
  EXPECT_FALSE(anyErrorContains(remote, "ndevs/0"));  // empty slots stay quiet
  EXPECT_NE(dump.find("/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors: "
                      "<read error>\n"),
            std::string::npos);
}

// writeHost's DCB configuration as `mlnx_qos -i ens1f0np0` prints it (the
// layout of a recorded ConnectX-7, tests/fixtures/roce-config/).
constexpr const char* kMlnxQosText =
    "DCBX mode: OS controlled\n"
    "Priority trust state: dscp\n"
    "dscp2prio mapping:\n"
    "        prio:3 dscp:26,\n"
    "default priority:\n"
    "Receive buffer size (bytes): 130944,262144,0,0,0,0,0,0,max_buffer_size=393088\n"
    "Cable len: 7\n"
    "PFC configuration:\n"
    "        priority    0   1   2   3   4   5   6   7\n"
    "        enabled     0   0   0   1   0   0   0   0   \n"
    "        buffer      0   0   0   1   0   0   0   0   \n"
    "tc: 0 ratelimit: unlimited, tsa: ets, bw: 10%\n         priority:  0\n"
    "tc: 1 ratelimit: unlimited, tsa: ets, bw: 10%\n         priority:  1\n"
    "tc: 2 ratelimit: unlimited, tsa: ets, bw: 10%\n         priority:  2\n"
    "tc: 3 ratelimit: unlimited, tsa: ets, bw: 60%\n         priority:  3\n"
    "tc: 4 ratelimit: unlimited, tsa: ets, bw: 10%\n         priority:  4\n"
    "tc: 5 ratelimit: unlimited, tsa: strict\n         priority:  5\n"
    "tc: 6 ratelimit: unlimited, tsa: strict\n         priority:  6\n"
    "tc: 7 ratelimit: unlimited, tsa: strict\n         priority:  7\n";

// A fake mlnx_qos: the netdev's text from FAKE_ETHTOOL_DIR, a failure for a
// netdev it has none of (ib0), as the real one fails off mlx5 Ethernet.
void writeFakeMlnxQos(TempTree& t) {
  t.write("bin/mlnx_qos",
          "#!/bin/sh\n[ \"$1\" = -i ] || exit 64\n"
          "f=\"$FAKE_ETHTOOL_DIR/$2.mlnx_qos.txt\"\n"
          "[ -f \"$f\" ] || { echo \"Netlink error\" >&2; exit 1; }\ncat \"$f\"\n");
  ::chmod(t.path("bin/mlnx_qos").c_str(), 0755);
}

std::map<std::string, Value> leavesOf(const PollBatch& b) {
  std::map<std::string, Value> out;
  for (const Update& u : b.updates) out[u.path] = u.value;
  return out;
}

TEST(RemoteDumpTest, MlnxQosWhereDcbShowsNothingInTheSameRoundTrip) {
  TempTree t;
  writeHost(t);
  RdmaConfig c = configFor(t);
  PollBatch with_dcb;
  ASSERT_TRUE(parseRemoteDump(runCommand(t, remoteDumpCommand(c)), kTs, with_dcb).isOk());
  // dcb has nothing of ens1f0np0 any more (its objects unsupported); mlnx_qos has.
  for (const char* o : {"pfc", "app", "ets", "buffer"}) {
    std::filesystem::remove(t.path(std::string("ethtool/ens1f0np0.dcb-") + o + ".json"));
  }
  t.write("ethtool/ens1f0np0.mlnx_qos.txt", kMlnxQosText);
  writeFakeMlnxQos(t);
  int status = 0;
  const std::string dump = runCommand(t, remoteDumpCommand(c), &status);
  ASSERT_EQ(status, 0) << dump;
  EXPECT_NE(dump.find("### mlnx_qos -i ens1f0np0\nDCBX mode: OS controlled\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("### mlnx_qos-failed ib0 1\n"), std::string::npos) << dump;
  PollBatch remote;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, remote).isOk()) << dump;
  expectSameUpdates(localPoll(t, c), remote);
  EXPECT_FALSE(anyErrorContains(remote, "mlnx_qos")) << "ib0's failure stays quiet";

  // The same leaves as the dcb read, but the strict classes' bandwidth: dcb
  // prints 0 % for them, mlnx_qos prints no bw on a strict class.
  std::map<std::string, Value> a = leavesOf(with_dcb), b = leavesOf(remote);
  for (int tc : {5, 6, 7}) {
    const std::string bw = kIf + "/ethernet/dcb/traffic-classes/traffic-class[id=" + std::to_string(tc) +
                           "]/state/bandwidth-percent";
    EXPECT_EQ(a.erase(bw), 1u) << bw;
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(strAt(remote, kIf + "/ethernet/dcb/state/trust"), "dscp");
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/pfc/state/enabled-priorities"), 0x08u);
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/priorities/priority[id=3]/state/receive-buffer-bytes"), 262144u);
}

TEST(RemoteDumpTest, MlnxQosNeverRunsForANetdevDcbAnswers) {
  TempTree t;
  writeHost(t);
  t.write("ethtool/ens1f0np0.mlnx_qos.txt", kMlnxQosText);
  writeFakeMlnxQos(t);
  RdmaConfig c = configFor(t);
  const std::string dump = runCommand(t, remoteDumpCommand(c));
  EXPECT_EQ(dump.find("### mlnx_qos -i ens1f0np0"), std::string::npos) << dump;
  EXPECT_NE(dump.find("### mlnx_qos -i ib0"), std::string::npos) << "dcb has nothing of ib0";
  PollBatch remote;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, remote).isOk());
  // dcb's 0 % on the strict classes: the leaves came from dcb alone.
  EXPECT_EQ(u64At(remote, kIf + "/ethernet/dcb/traffic-classes/traffic-class[id=7]/state/bandwidth-percent"), 0u);
}

TEST(RemoteDumpTest, ExcludedDevicesAreNeverRead) {
  TempTree t;
  writeHost(t);
  // A device whose every read would hang: fw_ver is a FIFO nobody writes.
  t.mkdir("sys/class/infiniband/mlx5_bad/ports/1/counters");
  ASSERT_EQ(::mkfifo(t.path("sys/class/infiniband/mlx5_bad/fw_ver").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo(t.path("sys/class/infiniband/mlx5_bad/ports/1/counters/x").c_str(), 0644), 0);
  RdmaConfig c = configFor(t);
  c.exclude_devices = {"mlx5_b[a]d", "nothing*"};
  int status = 0;
  const std::string dump = runCommand(t, remoteDumpCommand(c), &status);
  ASSERT_EQ(status, 0) << "the FIFO was opened (timeout) or the script failed:\n" << dump;
  EXPECT_EQ(dump.find("mlx5_bad"), std::string::npos);
  PollBatch remote;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, remote).isOk());
  expectSameUpdates(localPoll(t, c), remote);

  c.exclude_devices.clear();
  c.include_devices = {"mlx5_[0-1]"};
  const std::string only = runCommand(t, remoteDumpCommand(c), &status);
  ASSERT_EQ(status, 0);
  EXPECT_EQ(only.find("mlx5_bad"), std::string::npos);
  PollBatch inc;
  ASSERT_TRUE(parseRemoteDump(only, kTs, inc).isOk());
  expectSameUpdates(localPoll(t, c), inc);
}

TEST(RemoteDumpTest, GlobTranslationAgreesWithFnmatch) {
  TempTree t;
  const std::vector<std::string> names = {"mlx5_0", "mlx5_10", "mlx5_bad", "irdma0", "bnxt_re0",
                                          "rxe-x",  "a.b",     "ab",       "MLX5_0", "siw_0"};
  const std::vector<std::string> globs = {
      "mlx5_*", "mlx5_?",  "*0",        "mlx5_[0-9]", "mlx5_[!0-9]*", "mlx5_[^0-9]*",
      "[]a]*",  "a.b",     "a?b",       "*[[:upper:]]*", "rxe\\-x", "bnxt_re[0]",
      "x';x",   "$(id)*",  "`id`",      "*[;&|]*",    "[a-c]*",   "*\"*", "a[",
      "[!]]*",  "[-a]b",   "[a-]b",     "\\*"};
  for (const std::string& g : globs) {
    // Invalid globs ("a[") too: the command must not depend on validate().
    std::string script = "for n in";
    for (const std::string& n : names) script += " " + n;
    script += "; do case $n in " + shellCasePattern(g) + ") echo \"$n 1\";; *) echo \"$n 0\";; esac; done";
    int status = 0;
    const std::string got = runCommand(t, "sh -c " + shellQuote(script), &status);
    ASSERT_EQ(status, 0) << g << " -> " << shellCasePattern(g);
    std::string want;
    DeviceFilter f({g}, {});
    for (const std::string& n : names) want += n + (f.accepts(n) ? " 1\n" : " 0\n");
    EXPECT_EQ(got, want) << "glob " << g << " as " << shellCasePattern(g);
  }
}

TEST(RemoteDumpTest, CommandIsOneQuotedLine) {
  RdmaConfig c;
  c.exclude_devices = {"it's*"};
  c.sysfs_root = "/host/sys with 'quotes' $(x)";
  const std::string cmd = remoteDumpCommand(c);
  EXPECT_EQ(cmd.find('\n'), std::string::npos);
  EXPECT_EQ(cmd.rfind("sh -c '", 0), 0u);
  EXPECT_NE(cmd.find("2>/dev/null"), std::string::npos);
  // No ethtool sections when ethtool is off.
  c.ethtool = RdmaConfig::EthtoolMode::kNone;
  EXPECT_EQ(remoteDumpCommand(c).find("ethtool -S \\\"$x"), std::string::npos);
  TempTree t;
  t.mkdir("bin");
  int status = 0;
  const std::string out = runCommand(t, remoteDumpCommand(c), &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("cannot enter the sysfs root"), std::string::npos) << out;
  PollBatch b;
  EXPECT_FALSE(parseRemoteDump(out, kTs, b).isOk());
}

TEST(RemoteDumpTest, NoEthtoolAndNoDevices) {
  TempTree t;
  writeHost(t);
  RdmaConfig c = configFor(t);
  c.ethtool = RdmaConfig::EthtoolMode::kNone;
  int status = 0;
  const std::string dump = runCommand(t, remoteDumpCommand(c), &status);
  EXPECT_EQ(dump.find("### ethtool -S"), std::string::npos);
  PollBatch remote;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, remote).isOk());
  expectSameUpdates(localPoll(t, c), remote);

  TempTree empty;
  empty.mkdir("sys/class/infiniband");
  empty.mkdir("bin");
  c.sysfs_root = empty.path("sys");
  PollBatch none;
  EXPECT_TRUE(parseRemoteDump(runCommand(empty, remoteDumpCommand(c)), kTs, none).isOk());
  EXPECT_TRUE(none.updates.empty());
  TempTree noib;
  noib.mkdir("sys/class");
  noib.mkdir("bin");
  c.sysfs_root = noib.path("sys");
  EXPECT_EQ(parseRemoteDump(runCommand(noib, remoteDumpCommand(c)), kTs, none).code(),
            Status::Code::kUnavailable);
}

TEST(RemoteDumpTest, TruncatedAndForeignText) {
  const std::string dump =
      "### rdmagw-remote-dump 1 ethtool=1\n"
      "/sys/class/infiniband/\n"
      "/sys/class/infiniband/mlx5_0/\n"
      "/sys/class/infiniband/mlx5_0/ports/1/\n"
      "/sys/class/infiniband/mlx5_0/ports/1/link_layer: Ethernet\n"
      "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0: eth0\n"
      "/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_packets: 93\n"
      "/sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_packets: 12";  // cut
  PollBatch b;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, b).isOk());
  EXPECT_EQ(u64At(b, "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/counters/"
                     "port-xmit-packets"),
            93u);
  EXPECT_FALSE(u64At(b, "/rdma/devices/device[name=mlx5_0]/ports/port[port-num=1]/state/"
                        "counters/port-rcv-packets"));
  EXPECT_TRUE(anyErrorContains(b, "cut off"));
  EXPECT_TRUE(anyErrorContains(b, "no '### rdmagw-end'"));
  EXPECT_TRUE(anyErrorContains(b, "ethtool -S eth0"));  // its section never came

  PollBatch c;
  EXPECT_FALSE(parseRemoteDump("sh: 1: ethtool: not found\n", kTs, c).isOk());
  EXPECT_FALSE(parseRemoteDump("", kTs, c).isOk());
}

TEST(RemoteDumpTest, MutatedDumpsNeverCrash) {
  TempTree t;
  writeHost(t);
  const std::string dump = runCommand(t, remoteDumpCommand(configFor(t)));
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::string s = dump;
    for (int e = 0; e < 3; ++e) {
      size_t at = rng() % (s.size() + 1);
      switch (rng() % 3) {
        case 0: s.erase(at, rng() % 50); break;
        case 1: s.insert(at, std::vector<std::string>{"### ethtool -S x\n", "### rdmagw-end\n",
                                                       ": <read error>", "\n", "/sys/"}[rng() % 5]);
                break;
        default: if (at < s.size()) s[at] = char(rng() % 256); break;
      }
    }
    PollBatch b;
    (void)parseRemoteDump(s, kTs, b);
    for (const Update& u : b.updates) ASSERT_TRUE(Path::parse(u.path).isOk()) << u.path;
  }
}

// lldpd on the remote host: its `lldpctl -f json0` rides in the dump and
// becomes the same LLDP leaves as the local collector's; without lldpctl
// the dump has no section and nothing else changes.
TEST(RemoteDumpTest, LldpctlRidesInTheDumpWhenInstalled) {
  TempTree t;
  writeHost(t);
  RdmaConfig c = configFor(t);
  c.lldp = RdmaConfig::LldpMode::kOn;
  int status = 0;
  std::string dump = runCommand(t, remoteDumpCommand(c), &status);
  ASSERT_EQ(status, 0) << dump;
  EXPECT_EQ(dump.find("### lldpctl"), std::string::npos) << "no lldpctl on PATH: no section";
  PollBatch without;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, without).isOk());

  t.write("lldp.json", readFixture("RECONSTRUCTED_lldpctl_json0_two_ports.json"));
  t.write("bin/lldpctl", "#!/bin/sh\n[ \"$1 $2\" = '-f json0' ] || exit 64\ncat '" + t.path("lldp.json") + "'\n");
  ::chmod(t.path("bin/lldpctl").c_str(), 0755);
  dump = runCommand(t, remoteDumpCommand(c), &status);
  ASSERT_EQ(status, 0) << dump;
  PollBatch with;
  ASSERT_TRUE(parseRemoteDump(dump, kTs, with).isOk()) << dump;
  EXPECT_EQ(with.errors, without.errors);
  EXPECT_EQ(strAt(with, "/lldp/interfaces/interface[name=ens1f0np0]/neighbors/neighbor[id=00:de:fb:01:00:00]/state/"
                        "system-name"),
            "leaf01.fabric.example");
  EXPECT_EQ(with.updates.size(), without.updates.size() + 10);
  // The ethtool sections before it are intact.
  EXPECT_EQ(u64At(with, kIf + "/ethernet/pfc/priorities/priority[id=3]/state/counters/in-pause-frames"), 12u);
  // Not wanted (auto on a copied tree): not even asked for.
  c.lldp = RdmaConfig::LldpMode::kAuto;
  EXPECT_EQ(remoteDumpCommand(c).find("lldpctl"), std::string::npos);
}

TEST(RemoteDumpTest, RegisteredAsAFormat) {
  const ParserFormat* f = nullptr;
  for (const ParserFormat& x : rdmaParserFormats()) {
    if (x.name == "rdma-remote-dump") f = &x;
  }
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->parse, &parseRemoteDump);
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
