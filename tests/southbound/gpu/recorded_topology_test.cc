// The classifier against a real machine: the recorded host's `lspci -tv` is
// rebuilt as a sysfs tree, read back by the reader and classified, and every
// cell compared with the `nvidia-smi topo -m` recorded on that host. The
// GPUs there are PCIe-only RTX 6000 Ada cards, so no cell is NV#.

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim/gpu/lspci_tree.h"
#include "sim/gpu/pci_host.h"
#include "southbound/gpu/gpu_nic_topology.h"
#include "southbound/gpu/pci_tree.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {
namespace {

using southbound::gpu::GpuNicTopology;
using southbound::gpu::PathType;
using southbound::gpu::pathTypeName;

const char kFixture[] = "/tests/fixtures/gpu/topo-m_stelline_asus-esc8000a-e12_4gpu_4nic_with-lspci-vvv.txt";
// The same host's shorter recording: lspci -tv, numactl and topo -m only.
const char kShortFixture[] = "/tests/fixtures/gpu/topo-m_stelline_asus-esc8000a-e12_4gpu_4nic.txt";

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The rest of the ``` block in which `command` is run at a shell prompt.
std::string blockAfter(const std::string& text, const std::string& command) {
  std::string block;
  bool inside = false;
  for (const std::string& line : linesOf(text)) {
    if (!inside) {
      inside = line.find("$ ") != std::string::npos && line.find(command) != std::string::npos;
      continue;
    }
    if (line.rfind("```", 0) == 0) break;
    block += line + "\n";
  }
  return block;
}

struct RecordedMachine {
  std::vector<sim::LspciEntry> lspci;
  std::map<std::string, std::string> class_name;  // "21:00.0" -> "Ethernet controller" (lspci -vvv)
  std::map<std::string, int> numa;                // "21:00.0" -> 0 (lspci -vvv)
  std::vector<std::string> columns;               // GPU0 ... NIC3
  std::map<std::string, std::vector<std::string>> rows;
  std::map<std::string, std::string> nic_legend;  // NIC0 -> mlx5_0
  std::map<int, std::string> gpu_bus_id;          // nvidia-smi's GPU index -> "00000000:41:00.0"
};

RecordedMachine loadRecorded(const char* fixture = kFixture) {
  RecordedMachine machine;
  const std::string text = readFile(std::string(RDMAGW_SOURCE_DIR) + fixture);
  Result<std::vector<sim::LspciEntry>> lspci = sim::parseLspciTree(blockAfter(text, "lspci -tv"));
  EXPECT_TRUE(lspci.isOk()) << lspci.status().toString();
  if (lspci.isOk()) machine.lspci = *lspci;
  const std::regex header(R"(^([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) ([^:]+): )");
  const std::regex numa_line(R"(^\s+NUMA node: (\d+))");
  const std::regex smi_gpu(R"(^\|\s+(\d+)\s+NVIDIA.*\|\s+([0-9A-F]{8}:[0-9A-F]{2}:[0-9A-F]{2}\.[0-7]) )");
  const std::regex legend(R"(^\s+(NIC\d+): (\S+))");
  std::string current;
  std::smatch m;
  for (const std::string& line : linesOf(text)) {
    if (std::regex_search(line, m, header)) {
      current = m[1];
      machine.class_name[current] = m[2];
    } else if (!current.empty() && std::regex_search(line, m, numa_line)) {
      machine.numa[current] = std::stoi(m[1]);
    } else if (std::regex_search(line, m, smi_gpu)) {
      machine.gpu_bus_id[std::stoi(m[1])] = m[2];
    } else if (std::regex_search(line, m, legend)) {
      machine.nic_legend[m[1]] = m[2];
    }
  }
  for (const std::string& line : linesOf(blockAfter(text, "nvidia-smi topo -m"))) {
    std::istringstream words(line);
    std::vector<std::string> cells;
    for (std::string word; words >> word;) cells.push_back(word);
    if (cells.empty()) continue;
    if (cells[0] == "GPU0" && machine.columns.empty()) {
      for (const std::string& cell : cells) {
        if (cell.rfind("GPU", 0) != 0 && cell.rfind("NIC", 0) != 0) break;
        machine.columns.push_back(cell);
      }
    } else if (!machine.columns.empty() && (cells[0].rfind("GPU", 0) == 0 || cells[0].rfind("NIC", 0) == 0) &&
               cells.size() > machine.columns.size()) {
      machine.rows[cells[0]] = std::vector<std::string>(cells.begin() + 1, cells.begin() + 1 + machine.columns.size());
    }
  }
  return machine;
}

// "0000:21:00.0" -> "21:00.0", the form lspci -vvv prints in domain 0.
std::string shortAddress(const std::string& address) { return address.substr(5); }

// NVML's "00000000:C1:00.0" (8-digit domain, upper case) as sysfs spells it.
std::string sysfsAddress(const std::string& nvml_bus_id) {
  std::string out = nvml_bus_id.substr(4);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The host rebuilt from the drawing: every root bus on the NUMA node lspci
// -vvv reports for a function below it, and the RDMA devices named in
// probe order. ASSUMPTION (the recording does not link an ibdev to an
// address): mlx5_core numbers its devices in the order it probes the
// functions, which at boot is ascending PCI address, so 21:00.0/.1 are
// mlx5_0/1 and 81:00.0/.1 mlx5_2/3. ibv_devinfo agrees as far as it can:
// mlx5_0/1 share one card's sys_image_guid, mlx5_2/3 the other's.
sim::SimPciHost rebuild(const RecordedMachine& machine) {
  std::map<std::string, int> numa_by_root;
  for (const sim::LspciEntry& entry : machine.lspci) {
    const auto numa = machine.numa.find(shortAddress(entry.address));
    if (numa != machine.numa.end()) numa_by_root[entry.root] = numa->second;
  }
  sim::SimPciHost host = sim::hostFromLspci(machine.lspci, numa_by_root);
  int next_ibdev = 0;
  for (sim::SimPciFunction& function : host.functions) {
    if (function.vendor == sim::kVendorMellanox) function.rdma_devices = {"mlx5_" + std::to_string(next_ibdev++)};
  }
  return host;
}

TEST(RecordedTopology, DrawingParsesIntoTheTreeLspciVvvDescribes) {
  const RecordedMachine machine = loadRecorded();
  ASSERT_GT(machine.lspci.size(), 150u);
  ASSERT_EQ(machine.class_name.size(), 8u) << "4 GPUs, 2 NICs, 2 RAID cards in lspci -vvv";
  const std::map<std::string, uint32_t> expected_class = {
      {"VGA compatible controller", sim::kClassVga},
      {"Ethernet controller", sim::kClassEthernet},
      {"RAID bus controller", 0x010400},
  };
  for (const auto& described : machine.class_name) {
    bool found = false;
    for (const sim::LspciEntry& entry : machine.lspci) {
      if (shortAddress(entry.address) != described.first) continue;
      found = true;
      ASSERT_EQ(expected_class.count(described.second), 1u) << described.second;
      EXPECT_EQ(sim::classFromLspciName(entry), expected_class.at(described.second))
          << entry.address << " " << entry.name;
    }
    EXPECT_TRUE(found) << described.first << " is in lspci -vvv but not in the drawing";
  }
  // The switch chain below 0000:60:01.1 is drawn on one line: its parents
  // must come out as the drawing's nesting, not as columns of the page.
  bool checked_switch = false;
  for (const sim::LspciEntry& entry : machine.lspci) {
    if (entry.address == "0000:65:00.0") {
      EXPECT_EQ(entry.parent, "0000:64:10.0");
      checked_switch = true;
    }
    if (entry.address == "0000:64:10.0") {
      EXPECT_EQ(entry.parent, "0000:63:00.0");
    }
    if (entry.address == "0000:63:00.0") {
      EXPECT_EQ(entry.parent, "0000:62:00.0");
    }
    if (entry.address == "0000:6c:00.0") {
      EXPECT_EQ(entry.parent, "0000:6a:04.0");
    }
  }
  EXPECT_TRUE(checked_switch);
}

// Rebuilds `machine`, reads and classifies it, and compares every cell of
// its recorded matrix.
void expectEveryCellMatches(const RecordedMachine& machine) {
  ASSERT_EQ(machine.columns.size(), 8u);
  ASSERT_EQ(machine.rows.size(), 8u);
  TempDir root("gpu-recorded");
  ASSERT_TRUE(sim::writePciHost(rebuild(machine), root.path()).isOk());
  Result<southbound::gpu::PciTree> tree = southbound::gpu::readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk()) << tree.status().toString();
  EXPECT_TRUE(tree->problems.empty()) << tree->problems.front();
  const GpuNicTopology topology = southbound::gpu::buildTopology(*tree);
  ASSERT_EQ(topology.gpus.size(), 4u);
  ASSERT_EQ(topology.nics.size(), 4u);
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < topology.gpus.size(); ++i) {
    index[topology.gpus[i].name] = i;
    // nvidia-smi's own table, where recorded, says which bus ID each GPU index is.
    if (machine.gpu_bus_id.empty()) continue;
    ASSERT_EQ(machine.gpu_bus_id.count(static_cast<int>(i)), 1u);
    EXPECT_EQ(topology.gpus[i].address, sysfsAddress(machine.gpu_bus_id.at(static_cast<int>(i))))
        << topology.gpus[i].name;
  }
  for (size_t i = 0; i < topology.nics.size(); ++i) {
    index[topology.nics[i].name] = topology.gpus.size() + i;
    EXPECT_EQ(topology.nics[i].rdma_device, machine.nic_legend.at(topology.nics[i].name));
  }
  size_t compared = 0;
  for (const std::string& row : machine.columns) {
    ASSERT_EQ(machine.rows.count(row), 1u) << row;
    for (size_t c = 0; c < machine.columns.size(); ++c) {
      const std::string& column = machine.columns[c];
      const PathType ours = topology.cells[index.at(row)][index.at(column)];
      EXPECT_EQ(pathTypeName(ours), machine.rows.at(row)[c]) << "cell " << row << " x " << column;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 64u);
}

TEST(RecordedTopology, EveryCellMatchesNvidiaSmiTopoM) { expectEveryCellMatches(loadRecorded()); }

// The matrix printed as nvidia-smi prints it reads back, word for word, as
// the recorded one (its affinity columns aside).
TEST(RecordedTopology, FormattedMatrixReadsAsTheRecordedOne) {
  const RecordedMachine machine = loadRecorded();
  TempDir root("gpu-recorded");
  ASSERT_TRUE(sim::writePciHost(rebuild(machine), root.path()).isOk());
  Result<southbound::gpu::PciTree> tree = southbound::gpu::readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  const std::string text = southbound::gpu::formatTopoMatrix(southbound::gpu::buildTopology(*tree));
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : linesOf(text)) {
    std::istringstream words(line);
    std::vector<std::string> cells;
    for (std::string word; words >> word;) cells.push_back(word);
    if (!cells.empty()) rows.push_back(cells);
  }
  ASSERT_GE(rows.size(), 1 + machine.columns.size());
  EXPECT_EQ(rows[0], machine.columns);
  for (size_t r = 0; r < machine.columns.size(); ++r) {
    const std::vector<std::string>& row = rows[r + 1];
    ASSERT_EQ(row.size(), 1 + machine.columns.size());
    EXPECT_EQ(std::vector<std::string>(row.begin() + 1, row.end()), machine.rows.at(row[0])) << row[0];
  }
  EXPECT_NE(text.find("NIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n"), std::string::npos) << text;
}

TEST(RecordedTopology, ShortRecordingMatchesWithTheNodesOfTheLongOne) {
  RecordedMachine machine = loadRecorded(kShortFixture);
  ASSERT_TRUE(machine.numa.empty()) << "the short recording has no lspci -vvv";
  // Its numactl does not say which node each root bus is on; the same
  // host's lspci -vvv does.
  machine.numa = loadRecorded().numa;
  expectEveryCellMatches(machine);
}

TEST(RecordedTopology, NearestNicsAreTheTwoPortsOfTheCardOnTheGpusNode) {
  const RecordedMachine machine = loadRecorded();
  TempDir root("gpu-recorded");
  ASSERT_TRUE(sim::writePciHost(rebuild(machine), root.path()).isOk());
  Result<southbound::gpu::PciTree> tree = southbound::gpu::readPciTree(root.file("sys"));
  ASSERT_TRUE(tree.isOk());
  const GpuNicTopology topology = southbound::gpu::buildTopology(*tree);
  const std::vector<southbound::gpu::NearestNics> nearest = southbound::gpu::nearestNics(topology);
  ASSERT_EQ(nearest.size(), 4u);
  for (const southbound::gpu::NearestNics& entry : nearest) {
    EXPECT_EQ(entry.path, PathType::kNode) << topology.gpus[entry.gpu].name;
    EXPECT_FALSE(entry.gdr_by_default) << "NODE is beyond NCCL's default GPUDirect level";
    ASSERT_EQ(entry.nics.size(), 2u) << topology.gpus[entry.gpu].name;
    EXPECT_EQ(topology.nics[entry.nics[0]].card, topology.nics[entry.nics[1]].card);
    EXPECT_EQ(topology.nics[entry.nics[0]].numa_node, topology.gpus[entry.gpu].numa_node);
  }
}

}  // namespace
}  // namespace rdmagw::testing
