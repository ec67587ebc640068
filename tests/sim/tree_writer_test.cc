// The written tree: kernel layout, newline-terminated values, ethtool text,
// atomic replacement.

#include "sim/tree_writer.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TreeWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "rdmagw-sim-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path ib(const std::string& host, const std::string& dev) const {
    return dir_ / host / "sys/class/infiniband" / dev;
  }

  fs::path dir_;
};

const char* const kPmaNames[] = {
    "port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets",
    "unicast_xmit_packets", "unicast_rcv_packets", "multicast_xmit_packets",
    "multicast_rcv_packets", "port_xmit_wait", "symbol_error", "link_error_recovery",
    "link_downed", "port_rcv_errors", "port_rcv_remote_physical_errors",
    "port_rcv_switch_relay_errors", "port_xmit_discards", "port_xmit_constraint_errors",
    "port_rcv_constraint_errors", "local_link_integrity_errors",
    "excessive_buffer_overrun_errors", "VL15_dropped"};

const char* const kHwNames[] = {
    "np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
    "rx_icrc_encapsulated", "out_of_buffer", "out_of_sequence", "duplicate_request",
    "rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
    "req_cqe_error", "resp_cqe_error", "req_cqe_flush_error", "resp_cqe_flush_error",
    "req_remote_access_errors", "resp_remote_access_errors", "rx_write_requests",
    "rx_read_requests", "rx_atomic_requests", "roce_adp_retrans", "roce_slow_restart",
    "lifespan"};

TEST_F(TreeWriterTest, WritesTheKernelLayout) {
  Fabric f(FabricConfig{});
  for (int t = 0; t < 5; ++t) f.step();
  ASSERT_TRUE(writeTree(f, dir_.string()).isOk());

  for (const char* host : {"host01", "host02", "host03", "host04"}) {
    for (int d = 0; d < 2; ++d) {
      const std::string dev = "mlx5_" + std::to_string(d);
      const std::string netdev = "ens1f" + std::to_string(d) + "np" + std::to_string(d);
      const fs::path base = ib(host, dev);
      EXPECT_EQ(slurp(base / "fw_ver"), "22.39.1002\n");
      EXPECT_EQ(slurp(base / "hca_type"), "MT4125\n");
      EXPECT_EQ(slurp(base / "board_id"), "MT_0000000359\n");
      EXPECT_TRUE(std::regex_match(slurp(base / "node_guid"),
                                   std::regex("([0-9a-f]{4}:){3}[0-9a-f]{4}\n")));
      EXPECT_EQ(slurp(base / "ports/1/state"), "4: ACTIVE\n");
      EXPECT_EQ(slurp(base / "ports/1/phys_state"), "5: LinkUp\n");
      EXPECT_EQ(slurp(base / "ports/1/rate"), "100 Gb/sec (4X EDR)\n");
      EXPECT_EQ(slurp(base / "ports/1/link_layer"), "Ethernet\n");
      EXPECT_EQ(slurp(base / "ports/1/gid_attrs/ndevs/0"), netdev + "\n");
      const fs::path net = base / "device/net" / netdev;
      EXPECT_TRUE(fs::is_directory(net));
      EXPECT_TRUE(fs::is_empty(net));
      for (const char* name : kPmaNames) {
        EXPECT_TRUE(std::regex_match(slurp(base / "ports/1/counters" / name),
                                     std::regex("[0-9]+\n")))
            << host << " " << dev << " counters/" << name;
      }
      for (const char* name : kHwNames) {
        EXPECT_TRUE(std::regex_match(slurp(base / "ports/1/hw_counters" / name),
                                     std::regex("[0-9]+\n")))
            << host << " " << dev << " hw_counters/" << name;
      }
      EXPECT_TRUE(fs::exists(dir_ / host / "ethtool" / (netdev + ".txt")));
    }
  }
  // Values are the model's, and no temporary file is left behind.
  const PortCounters& p = f.device(1).port;
  EXPECT_EQ(slurp(ib("host01", "mlx5_1") / "ports/1/counters/port_xmit_data"),
            std::to_string(p.port_xmit_data) + "\n");
  EXPECT_EQ(slurp(ib("host01", "mlx5_1") / "ports/1/hw_counters/np_ecn_marked_roce_packets"),
            std::to_string(p.np_ecn_marked_roce_packets) + "\n");
  EXPECT_EQ(slurp(ib("host01", "mlx5_0") / "ports/1/hw_counters/rx_write_requests"),
            std::to_string(f.device(0).port.rx_write_requests) + "\n");
  for (const auto& e : fs::recursive_directory_iterator(dir_)) {
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
    if (e.is_regular_file() && e.path().parent_path().filename() != "ethtool") {
      const std::string s = slurp(e.path());
      ASSERT_FALSE(s.empty()) << e.path();
      EXPECT_EQ(s.back(), '\n') << e.path();
    }
  }
}

TEST_F(TreeWriterTest, EthtoolTextIsWhatMlx5Prints) {
  Fabric f(FabricConfig{});
  for (int t = 0; t < 5; ++t) f.step();
  ASSERT_TRUE(writeTree(f, dir_.string()).isOk());
  const std::string text = slurp(dir_ / "host01/ethtool/ens1f1np1.txt");
  EXPECT_EQ(text, ethtoolText(f.device(1), 3));
  ASSERT_EQ(text.rfind("NIC statistics:\n", 0), 0u);
  std::istringstream in(text.substr(16));
  std::string line;
  std::map<std::string, uint64_t> stats;
  const std::regex row("     ([a-z0-9_]+): ([0-9]+)");
  while (std::getline(in, line)) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, row)) << "'" << line << "'";
    EXPECT_TRUE(stats.emplace(m[1], std::stoull(m[2])).second) << "duplicate " << m[1];
  }
  const PortCounters& p = f.device(1).port;
  EXPECT_EQ(stats.at("rx_bytes"), p.rx_bytes);
  EXPECT_EQ(stats.at("tx_bytes"), p.tx_bytes);
  EXPECT_EQ(stats.at("rx_packets"), p.rx_packets);
  EXPECT_EQ(stats.at("tx_packets"), p.tx_packets);
  EXPECT_EQ(stats.at("tx_prio3_pause"), p.tx_roce_prio_pause);
  EXPECT_EQ(stats.at("tx_prio3_pause_duration"), p.tx_roce_prio_pause_duration);
  EXPECT_EQ(stats.at("rx_prio3_pause"), p.rx_roce_prio_pause);
  EXPECT_EQ(stats.at("rx_prio3_bytes"), p.rx_prio_bytes[3]);
  EXPECT_EQ(stats.at("tx_prio0_packets"), p.tx_prio_packets[0]);
  for (const char* name : {"rx_discards_phy", "rx_pause_ctrl_phy", "tx_pause_ctrl_phy",
                           "rx_prio3_pause_duration", "rx_prio3_pause_transition",
                           "tx_pause_storm_warning_events", "tx_pause_storm_error_events",
                           "rx_prio7_packets", "tx_prio7_bytes"}) {
    EXPECT_TRUE(stats.count(name)) << name;
  }
  // Pause counters exist only for the PFC-enabled priority.
  EXPECT_FALSE(stats.count("rx_prio0_pause"));
  // The RoCE priority's bytes are the RoCE traffic the PMA counts, in words.
  EXPECT_EQ(stats.at("tx_prio3_bytes"), p.port_xmit_data * 4);
}

TEST_F(TreeWriterTest, PauseNamesFollowTheRocePriority) {
  FabricConfig c;
  c.roce_priority = 5;
  Fabric f(c);
  const std::string text = ethtoolText(f.device(0), 5);
  EXPECT_NE(text.find("     rx_prio5_pause: 0\n"), std::string::npos);
  EXPECT_NE(text.find("     tx_prio5_pause_duration: 0\n"), std::string::npos);
  EXPECT_EQ(text.find("prio3_pause"), std::string::npos);
}

TEST_F(TreeWriterTest, RewriteReplacesValues) {
  Fabric f(FabricConfig{});
  ASSERT_TRUE(writeTree(f, dir_.string()).isOk());
  const fs::path file = ib("host02", "mlx5_0") / "ports/1/counters/port_rcv_data";
  EXPECT_EQ(slurp(file), "0\n");
  f.step();
  ASSERT_TRUE(writeTree(f, dir_.string()).isOk());
  EXPECT_EQ(slurp(file), std::to_string(f.device(2).port.port_rcv_data) + "\n");
  EXPECT_NE(slurp(file), "0\n");
}

TEST_F(TreeWriterTest, TreeWriterReplacesOnlyChangedFilesAndByRename) {
  Fabric f(FabricConfig{});
  TreeWriter writer(dir_.string());
  ASSERT_TRUE(writer.write(f).isOk());
  const fs::path changing = ib("host01", "mlx5_0") / "ports/1/counters/port_rcv_packets";
  const fs::path fixed = ib("host01", "mlx5_0") / "fw_ver";
  const fs::path zero = ib("host01", "mlx5_0") / "ports/1/counters/symbol_error";
  auto inode = [](const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(stat(p.c_str(), &st), 0) << p;
    return st.st_ino;
  };
  const auto changing_ino = inode(changing), fixed_ino = inode(fixed), zero_ino = inode(zero);
  f.step();
  ASSERT_TRUE(writer.write(f).isOk());
  // A changed value arrives as a new file renamed over the old one (atomic);
  // unchanged files are left alone.
  EXPECT_NE(inode(changing), changing_ino);
  EXPECT_EQ(slurp(changing), std::to_string(f.device(0).port.port_rcv_packets) + "\n");
  EXPECT_EQ(inode(fixed), fixed_ino);
  EXPECT_EQ(inode(zero), zero_ino);
  EXPECT_EQ(slurp(zero), "0\n");
}

TEST_F(TreeWriterTest, HiddenDeviceDisappearsAndReturnsWhole) {
  Fabric f(FabricConfig{});
  TreeWriter writer(dir_.string());
  ASSERT_TRUE(writer.write(f).isOk());
  const fs::path fw = ib("host02", "mlx5_1") / "fw_ver";  // written once, never changes
  ASSERT_TRUE(fs::exists(fw));

  writer.setDeviceHidden("host02", "mlx5_1", true);
  f.step();
  ASSERT_TRUE(writer.write(f).isOk());
  EXPECT_FALSE(fs::exists(ib("host02", "mlx5_1")));
  EXPECT_TRUE(fs::exists(ib("host02", "mlx5_0") / "fw_ver"));  // its neighbour stays
  EXPECT_TRUE(fs::exists(dir_ / "host02/ethtool/ens1f1np1.txt"));  // so does the netdev
  f.step();
  ASSERT_TRUE(writer.write(f).isOk());  // still hidden: nothing comes back
  EXPECT_FALSE(fs::exists(ib("host02", "mlx5_1")));

  writer.setDeviceHidden("host02", "mlx5_1", false);
  f.step();
  ASSERT_TRUE(writer.write(f).isOk());
  // Back with every file, the unchanged ones too, and current counters.
  EXPECT_EQ(slurp(fw), "22.39.1002\n");
  EXPECT_EQ(slurp(ib("host02", "mlx5_1") / "ports/1/counters/symbol_error"), "0\n");
  EXPECT_EQ(slurp(ib("host02", "mlx5_1") / "ports/1/counters/port_rcv_packets"),
            std::to_string(f.device(3).port.port_rcv_packets) + "\n");
  EXPECT_TRUE(fs::is_directory(ib("host02", "mlx5_1") / "device/net/ens1f1np1"));
}

TEST_F(TreeWriterTest, UnwritableDirectoryIsAnError) {
  std::ofstream(dir_ / "file") << "x";
  const Status s = writeTree(Fabric(FabricConfig{}), (dir_ / "file").string());
  EXPECT_EQ(s.code(), Status::Code::kIoError);
}

}  // namespace
}  // namespace rdmagw::sim
