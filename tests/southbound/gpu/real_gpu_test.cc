// The GPU collector against a real NVIDIA driver, where one exists: NVML's
// values beside nvidia-smi's for the same GPUs, and the GPU<->NIC matrix
// read from this host's /sys beside `nvidia-smi topo -m`, cell by cell
// (GPU x NIC, NIC x NIC, and GPU x GPU but for NVLink's NV# cells, which
// sysfs cannot know).
// Everything else in tests/southbound/gpu runs on fakes and recordings;
// this is what says whether those were right. Skipped (with the reason)
// on a host without /dev/nvidiactl or where NVML does not start.
//
// Both nvidia-smi outputs are saved as fixtures for tests/fixtures/gpu/:
// into $RDMAGW_SAVE_FIXTURES if set, else into a directory under the test
// temp dir that is kept and printed.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "southbound/gpu/gpu_bus_id.h"
#include "southbound/gpu/gpu_nic_topology.h"
#include "southbound/gpu/host_topology.h"
#include "southbound/gpu/nvidia_smi_csv.h"
#include "southbound/gpu/nvml_source.h"
#include "southbound/rdma/local_tool.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;
using southbound::gpu::GpuSample;

// The directory fixtures go to, made on first use; empty if it cannot be.
const std::string& fixtureDir() {
  static const std::string dir = [] {
    const char* env = std::getenv("RDMAGW_SAVE_FIXTURES");
    std::string d;
    if (env != nullptr && *env != '\0') {
      d = env;
      std::error_code ec;
      fs::create_directories(d, ec);
      if (ec) return std::string();
    } else {
      d = ::testing::TempDir() + "rdmagw-real-gpu-XXXXXX";
      if (mkdtemp(d.data()) == nullptr) return std::string();
    }
    return d;
  }();
  return dir;
}

void saveFixture(const std::string& name, const std::string& content) {
  const std::string& dir = fixtureDir();
  ASSERT_FALSE(dir.empty()) << "no directory for the fixtures";
  const std::string path = dir + "/" + name;
  ASSERT_TRUE(writeFile(path, content)) << path;
  std::cout << "[ fixture  ] " << path << std::endl;
}

Result<std::string> runShell(const std::string& command) {
  return southbound::rdma::runLocalTool({"/bin/sh", "-c", command}, "nvidia-smi");
}

std::vector<std::string> wordsOf(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// `nvidia-smi topo -m` as printed: its GPU and NIC columns, each row's
// cells under them, and the NIC legend (NIC0 -> mlx5_0).
struct TopoM {
  std::vector<std::string> columns;
  std::map<std::string, std::vector<std::string>> rows;
  std::map<std::string, std::string> nic_legend;
};

// "GPU0", "NIC12": not "NIC0:" (the legend's) nor "GPU NUMA ID"'s words.
bool isDeviceName(const std::string& word) {
  if ((word.rfind("GPU", 0) != 0 && word.rfind("NIC", 0) != 0) || word.size() == 3) return false;
  for (size_t i = 3; i < word.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(word[i]))) return false;
  }
  return true;
}

TopoM parseTopoM(const std::string& text) {
  TopoM m;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> words = wordsOf(line);
    if (words.size() == 2 && words[0].back() == ':' && isDeviceName(words[0].substr(0, words[0].size() - 1))) {
      m.nic_legend[words[0].substr(0, words[0].size() - 1)] = words[1];
    } else if (words.empty() || !isDeviceName(words[0])) {
      continue;
    } else if (m.columns.empty()) {
      // The header: device names, then the affinity columns' titles.
      for (const std::string& w : words) {
        if (!isDeviceName(w)) break;
        m.columns.push_back(w);
      }
    } else if (words.size() > m.columns.size()) {
      m.rows[words[0]] = std::vector<std::string>(words.begin() + 1, words.begin() + 1 + m.columns.size());
    }
  }
  return m;
}

// The matrix reader on a recorded topo -m, so that on a GPU host a mismatch
// is the collector's and not this file's parser. Runs everywhere.
TEST(TopoMReader, ReadsTheRecordedMatrixAndLegend) {
  const TopoM m = parseTopoM(
      readFile(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/gpu/topo-m_stelline_asus-esc8000a-e12_4gpu_4nic.txt"));
  const std::vector<std::string> columns = {"GPU0", "GPU1", "GPU2", "GPU3", "NIC0", "NIC1", "NIC2", "NIC3"};
  EXPECT_EQ(m.columns, columns);
  ASSERT_EQ(m.rows.size(), 8u);
  EXPECT_EQ(m.rows.at("GPU0"), (std::vector<std::string>{"X", "NODE", "SYS", "SYS", "NODE", "NODE", "SYS", "SYS"}));
  EXPECT_EQ(m.rows.at("NIC3"), (std::vector<std::string>{"SYS", "SYS", "NODE", "NODE", "SYS", "SYS", "PIX", "X"}));
  EXPECT_EQ(m.nic_legend.size(), 4u);
  EXPECT_EQ(m.nic_legend.at("NIC2"), "mlx5_2");
}

class RealGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/dev/nvidiactl", F_OK) != 0) {
      GTEST_SKIP() << "no /dev/nvidiactl: this host has no NVIDIA driver loaded (nothing real to compare)";
    }
    Result<std::vector<GpuSample>> polled = nvml_.poll();
    if (!polled.isOk() || nvml_.stateCode() != southbound::gpu::NvmlState::kReady) {
      GTEST_SKIP() << "NVML (" << southbound::gpu::kNvmlLibraryName << ") does not start: " << nvml_.state();
    }
    samples_ = std::move(polled).value();
    std::cout << "[ nvml     ] " << nvml_.state() << ", " << samples_.size() << " GPUs" << std::endl;
  }

  southbound::gpu::NvmlSource nvml_;  // the default library name, as the gateway loads it
  std::vector<GpuSample> samples_;
};

TEST_F(RealGpuTest, NvmlAgreesWithNvidiaSmiQueryGpu) {
  const std::string command = southbound::gpu::nvidiaSmiQueryCommand();
  Result<std::string> output = runShell(command);
  ASSERT_TRUE(output.isOk()) << command << ": " << output.status().toString();
  saveFixture("nvidia-smi_query-gpu.csv", "# $ " + command + "\n" + *output);
  const southbound::gpu::NvidiaSmiCsv csv = southbound::gpu::parseNvidiaSmiCsv(*output);
  EXPECT_TRUE(csv.errors.empty()) << csv.errors.front();
  ASSERT_EQ(csv.gpus.size(), samples_.size()) << "nvidia-smi and NVML count different GPUs";

  std::map<std::string, const GpuSample*> smi_by_uuid;
  for (const GpuSample& s : csv.gpus) {
    ASSERT_TRUE(s.uuid.has_value()) << "a nvidia-smi row without UUID";
    smi_by_uuid[*s.uuid] = &s;
  }
  for (const GpuSample& n : samples_) {
    ASSERT_FALSE(n.read_error.has_value()) << *n.read_error;
    ASSERT_TRUE(n.uuid.has_value());
    SCOPED_TRACE(*n.uuid);
    const auto found = smi_by_uuid.find(*n.uuid);
    ASSERT_NE(found, smi_by_uuid.end()) << "NVML's UUID is not in nvidia-smi's output";
    const GpuSample& s = *found->second;
    EXPECT_EQ(n.pci_bus_id, s.pci_bus_id);
    EXPECT_EQ(n.index, s.index);
    EXPECT_EQ(n.model_name, s.model_name);
    // nvidia-smi prints MiB: NVML's bytes agree once rounded down the same way.
    ASSERT_EQ(n.memory_total_bytes.has_value(), s.memory_total_bytes.has_value());
    if (n.memory_total_bytes) {
      EXPECT_EQ(*n.memory_total_bytes >> 20, *s.memory_total_bytes >> 20);
    }
    // Read at different moments: a working GPU's temperature moves.
    ASSERT_EQ(n.temperature_c.has_value(), s.temperature_c.has_value());
    if (n.temperature_c) {
      EXPECT_NEAR(*n.temperature_c, *s.temperature_c, 5);
    }
  }
}

TEST_F(RealGpuTest, SysfsMatrixAgreesWithNvidiaSmiTopoM) {
  Result<std::string> topo_text = runShell("nvidia-smi topo -m");
  ASSERT_TRUE(topo_text.isOk()) << topo_text.status().toString();
  saveFixture("nvidia-smi_topo-m.txt", "# $ nvidia-smi topo -m\n" + *topo_text);
  // nvidia-smi's GPU<n> is its index: the query says which bus id that is.
  Result<std::string> query = runShell(southbound::gpu::nvidiaSmiQueryCommand());
  ASSERT_TRUE(query.isOk()) << query.status().toString();
  std::map<std::string, std::string> address_of;  // "GPU0" -> "0000:3b:00.0"
  for (const GpuSample& s : southbound::gpu::parseNvidiaSmiCsv(*query).gpus) {
    ASSERT_TRUE(s.index && s.pci_bus_id);
    const std::optional<std::string> sysfs = southbound::gpu::sysfsBusIdFromNvml(*s.pci_bus_id);
    ASSERT_TRUE(sysfs.has_value()) << *s.pci_bus_id;
    address_of["GPU" + std::to_string(*s.index)] = *sysfs;
  }

  Result<southbound::gpu::HostTopology> host = southbound::gpu::readHostTopology({});
  ASSERT_TRUE(host.isOk()) << host.status().toString();
  const southbound::gpu::GpuNicTopology& ours = host->topology;
  saveFixture("rdmagw_topo-matrix.txt", southbound::gpu::formatTopoMatrix(ours));
  if (ours.distances_unknown) GTEST_SKIP() << "a virtual machine: our paths are unknown (" << ours.why_unknown << ")";
  for (const std::string& problem : host->tree.problems) ADD_FAILURE() << "sysfs: " << problem;

  // Each of nvidia-smi's names as our matrix's row/column index.
  const TopoM theirs = parseTopoM(*topo_text);
  ASSERT_FALSE(theirs.columns.empty()) << "no matrix in:\n" << *topo_text;
  std::map<std::string, size_t> index;
  for (const std::string& name : theirs.columns) {
    if (name.rfind("GPU", 0) == 0) {
      ASSERT_EQ(address_of.count(name), 1u) << name << " is not in nvidia-smi's query";
      size_t i = 0;
      while (i < ours.gpus.size() && ours.gpus[i].address != address_of.at(name)) ++i;
      ASSERT_LT(i, ours.gpus.size()) << name << " (" << address_of.at(name) << ") is not a GPU of our tree";
      index[name] = i;
    } else {
      ASSERT_EQ(theirs.nic_legend.count(name), 1u) << name << " is not in the NIC legend";
      const std::string& ibdev = theirs.nic_legend.at(name);
      size_t i = 0;
      while (i < ours.nics.size() && ours.nics[i].rdma_device != ibdev) ++i;
      ASSERT_LT(i, ours.nics.size()) << name << " (" << ibdev << ") is not an RDMA NIC of our tree";
      index[name] = ours.gpus.size() + i;
    }
  }
  EXPECT_EQ(index.size(), ours.gpus.size() + ours.nics.size()) << "devices we list that nvidia-smi does not";

  size_t compared = 0, nvlink = 0;
  for (const std::string& row : theirs.columns) {
    ASSERT_EQ(theirs.rows.count(row), 1u) << "no row " << row;
    for (size_t c = 0; c < theirs.columns.size(); ++c) {
      const std::string& column = theirs.columns[c];
      const std::string& cell = theirs.rows.at(row)[c];
      if (cell.rfind("NV", 0) == 0) {
        ++nvlink;  // NVLink: not in sysfs
        continue;
      }
      const std::string_view mine = southbound::gpu::pathTypeName(ours.cells[index.at(row)][index.at(column)]);
      EXPECT_EQ(mine, cell) << "cell " << row << " x " << column;
      ++compared;
    }
  }
  std::cout << "[ topo -m  ] " << compared << " cells compared, " << nvlink << " NV# cells skipped, "
            << ours.gpus.size() << " GPUs, " << ours.nics.size() << " NICs" << std::endl;
}

}  // namespace
}  // namespace rdmagw::testing
