// The mlx5 DCQCN knobs and RDMA CM defaults read from a sysfs tree: a tree
// written from the values the spiderpool rdma-qos.sh documentation prints
// for one host (every knob file it shows, in a temp dir, read through the
// real SysfsReaderImpl), and failures the kernel produces.

#include "southbound/rdma/ecn_sysfs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/southbound/roce_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::roce::HostPort;
using rdmagw::roce::RdmaCmPort;
using testing::roceFixture;

// "... /sys/class/net/eth0/ecn/roce_np/enable/0 = 1" lines of the fixture as
// files under root; returns how many were written.
int writeKnobsFromDoc(const std::string& doc, const std::string& root) {
  std::istringstream in(doc);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find("/sys/class/net/");
    const size_t eq = line.find(" = ");
    if (at == std::string::npos || eq == std::string::npos || eq < at) continue;
    const std::string rel = line.substr(at + 5, eq - at - 5);
    std::filesystem::create_directories(std::filesystem::path(root + "/" + rel).parent_path());
    if (rdmagw::testing::writeFile(root + "/" + rel, line.substr(eq + 3) + "\n")) ++n;
  }
  return n;
}

TEST(EcnSysfsTest, SpiderpoolDocHostFieldByField) {
  rdmagw::testing::TempDir dir("roce-ecn");
  const std::string doc = roceFixture("linux_rdma-qos.sh_q_ecn-sysfs__spiderpool-docs.txt");
  // 16 enable files (np and rp, priorities 0-7) and cnp_dscp.
  ASSERT_EQ(writeKnobsFromDoc(doc, dir.path()), 17);
  // The script prints the RDMA CM ToS of mlx5_0 ("cma_roce_tos: 160"); configfs
  // holds it per port with the mode the kernel writes there.
  const std::string cm = dir.path() + "/kernel/config/rdma_cm/mlx5_0/ports/1";
  std::filesystem::create_directories(cm);
  ASSERT_TRUE(rdmagw::testing::writeFile(cm + "/default_roce_tos", "160\n"));
  ASSERT_TRUE(rdmagw::testing::writeFile(cm + "/default_roce_mode", "RoCE v2\n"));

  rdma::SysfsReaderImpl reader(dir.path());
  HostPort p;
  Status s = readEcnKnobs(reader, "eth0", p);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(p.dcqcn.np_enabled, uint8_t(0xff));
  EXPECT_EQ(p.dcqcn.rp_enabled, uint8_t(0xff));
  EXPECT_EQ(p.dcqcn.cnp_dscp, 48u);
  EXPECT_FALSE(p.dcqcn.cnp_802p_prio);  // the doc shows none: unknown, not 0

  std::vector<RdmaCmPort> ports;
  s = readRdmaCmDefaults(reader, ports);
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(ports.size(), 1u);
  EXPECT_EQ(ports[0].device, "mlx5_0");
  EXPECT_EQ(ports[0].port, 1u);
  EXPECT_EQ(ports[0].default_roce_tos, 160u);  // DSCP 40
  EXPECT_EQ(ports[0].default_roce_mode, "RoCE v2");
}

rdma::MemorySysfsReader knobTree() {
  rdma::MemorySysfsReader r;
  for (const char* point : {"roce_np", "roce_rp"}) {
    for (int prio = 0; prio < 8; ++prio) {
      r.addFile("class/net/ens1/ecn/" + std::string(point) + "/enable/" + std::to_string(prio),
                prio == 3 || (prio == 5 && std::string(point) == "roce_rp") ? "1\n" : "0\n");
    }
  }
  r.addFile("class/net/ens1/ecn/roce_np/cnp_dscp", "48\n");
  r.addFile("class/net/ens1/ecn/roce_np/cnp_802p_prio", "6\n");
  return r;
}

TEST(EcnSysfsTest, PriorityBitmapsAndCnpTagging) {
  rdma::MemorySysfsReader r = knobTree();
  HostPort p;
  ASSERT_TRUE(readEcnKnobs(r, "ens1", p).isOk());
  EXPECT_EQ(p.dcqcn.np_enabled, uint8_t(0x08));
  EXPECT_EQ(p.dcqcn.rp_enabled, uint8_t(0x28));
  EXPECT_EQ(p.dcqcn.cnp_dscp, 48u);
  EXPECT_EQ(p.dcqcn.cnp_802p_prio, 6u);
}

TEST(EcnSysfsTest, BadValuesAndFailedReadsAreNamed) {
  rdma::MemorySysfsReader r = knobTree();
  r.addFile("class/net/ens1/ecn/roce_np/enable/5", "2\n");
  r.failRead("class/net/ens1/ecn/roce_rp/enable/1", Status::ioError("read failed (EIO)"));
  r.addFile("class/net/ens1/ecn/roce_np/cnp_dscp", "64\n");
  r.addFile("class/net/ens1/ecn/roce_np/cnp_802p_prio", "six\n");
  HostPort p;
  Status s = readEcnKnobs(r, "ens1", p);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  for (const char* part : {"roce_np/enable/5: 2 is out of range 0..1", "roce_rp/enable/1: read failed (EIO)",
                           "cnp_dscp: 64 is out of range 0..63", "cnp_802p_prio: 'six' is not a number"}) {
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " in " << s.message();
  }
  EXPECT_FALSE(p.dcqcn.np_enabled);
  EXPECT_FALSE(p.dcqcn.rp_enabled);
  EXPECT_FALSE(p.dcqcn.cnp_dscp);
}

TEST(EcnSysfsTest, NoKnobsOrNoConfigfsIsNotFound) {
  rdma::MemorySysfsReader r;
  r.addFile("class/net/eth0/mtu", "1500\n");
  HostPort p;
  EXPECT_EQ(readEcnKnobs(r, "eth0", p).code(), Status::Code::kNotFound);
  std::vector<RdmaCmPort> ports;
  EXPECT_EQ(readRdmaCmDefaults(r, ports).code(), Status::Code::kNotFound);
  EXPECT_TRUE(ports.empty());
}

TEST(EcnSysfsTest, BadRdmaCmValues) {
  rdma::MemorySysfsReader r;
  r.addFile("kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "256\n");
  r.addFile("kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode", "RoCE v3\n");
  r.addFile("kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos", "106\n");
  std::vector<RdmaCmPort> ports;
  Status s = readRdmaCmDefaults(r, ports);
  ASSERT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("256 is out of range 0..255"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("'RoCE v3' is neither"), std::string::npos) << s.message();
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_FALSE(ports[0].default_roce_tos);
  EXPECT_EQ(ports[1].device, "mlx5_1");
  EXPECT_EQ(ports[1].default_roce_tos, 106u);
  EXPECT_FALSE(ports[1].default_roce_mode);
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
