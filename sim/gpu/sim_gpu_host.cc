#include "sim/gpu/sim_gpu_host.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/gpu/pci_host.h"

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;

// Prints each requested field of each GPU file in order, [N/A] where the
// file has none; refuses any other form, as a stand-in must not accept
// what the real tool would not.
constexpr char kNvidiaSmiScript[] = R"(#!/bin/sh
dir=$(dirname "$0")/smi
query=""
format=""
for arg in "$@"; do
  case "$arg" in
    --query-gpu=*) query="${arg#--query-gpu=}" ;;
    --format=*) format="${arg#--format=}" ;;
    *) echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help."; exit 2 ;;
  esac
done
if [ -z "$query" ] || [ "$format" != "csv,noheader,nounits" ]; then
  echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help."
  exit 2
fi
for f in "$dir"/gpu*; do
  [ -f "$f" ] || continue
  awk -v q="$query" 'BEGIN { FS = "=" }
    { v[$1] = substr($0, length($1) + 2) }
    END { n = split(q, k, ","); line = "";
          for (i = 1; i <= n; i++) { x = (k[i] in v) ? v[k[i]] : "[N/A]"; line = line (i > 1 ? ", " : "") x }
          print line }' "$f"
done
)";

Status writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  return out ? Status::ok() : Status::ioError("cannot write " + path.string());
}

std::string hex2(size_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02zx", v & 0xff);
  return buf;
}

}  // namespace

SimGpuHost::SimGpuHost(std::string host_dir, const Host& host, SimGpuHostOptions options)
    : dir_(std::move(host_dir) + "/gpu"), host_(host), options_(options) {}

std::string SimGpuHost::uuid(size_t i) const {
  // Stable per host and GPU: the host's number in the first group.
  unsigned number = 0;
  for (char c : host_.name) number = number * 31 + static_cast<unsigned char>(c);
  char buf[48];
  std::snprintf(buf, sizeof buf, "GPU-%08x-0000-4000-8000-%012zx", number, i);
  return buf;
}

Status SimGpuHost::write() const {
  // Device i on its own root complex (bus 0x20*i), switch below it: the
  // GPU on one downstream port, the NIC on the other.
  SimPciHost tree;
  for (size_t i = 0; i < host_.devices.size(); ++i) {
    const size_t bus = 0x20 * i;
    const int numa = static_cast<int>(i * 2 / std::max<size_t>(host_.devices.size(), 1));
    const std::string bridge = "pci0000:" + hex2(bus);
    auto addr = [](size_t b, const char* df) { return "0000:" + hex2(b) + ":" + df; };
    SimPciFunction port{addr(bus, "01.1"), "", bridge, kClassPciBridge, 0x1022, 0x14ab, numa, {}, "", 0, false};
    SimPciFunction up{
        addr(bus + 1, "00.0"), port.address, bridge, kClassPciBridge, 0x1000, 0xc030, numa, {}, "", 0, false};
    SimPciFunction gpu_port{
        addr(bus + 2, "00.0"), up.address, bridge, kClassPciBridge, 0x1000, 0xc030, numa, {}, "", 0, false};
    SimPciFunction nic_port{addr(bus + 2, "01.0"),
                            up.address,
                            bridge,
                            kClassPciBridge,
                            0x1000,
                            0xc030,
                            numa,
                            {},
                            "",
                            0,
                            static_cast<int>(i) == options_.acs_redirect_device};
    SimPciFunction gpu{addr(bus + 3, "00.0"),
                       gpu_port.address,
                       bridge,
                       kClass3d,
                       kVendorNvidia,
                       0x2330,
                       numa,
                       {},
                       "32.0 GT/s PCIe",
                       16,
                       false};
    SimPciFunction nic{addr(bus + 4, "00.0"),   nic_port.address, bridge, kClassEthernet, kVendorMellanox, 0x1021, numa,
                       {host_.devices[i].name}, "32.0 GT/s PCIe", 16,     false};
    for (const SimPciFunction& f : {port, up, gpu_port, nic_port, gpu, nic}) tree.functions.push_back(f);
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
  if (Status s = writePciHost(tree, dir_); !s.isOk()) return s;
  fs::create_directories(fs::path(dir_) / "smi", ec);
  if (ec) return Status::ioError("cannot create " + dir_ + "/smi: " + ec.message());
  for (size_t i = 0; i < host_.devices.size(); ++i) {
    char bus_id[32];
    std::snprintf(bus_id, sizeof bus_id, "00000000:%02zX:00.0", 0x20 * i + 3);
    const std::string values = "index=" + std::to_string(i) + "\nuuid=" + uuid(i) + "\npci.bus_id=" + bus_id +
                               "\ntemperature.gpu=" + std::to_string(55 + 3 * i) +
                               "\nutilization.gpu=87\nutilization.memory=41\nmemory.used=61440\nmemory.total=81559"
                               "\npower.draw=612.40\nenforced.power.limit=700.00"
                               "\necc.errors.corrected.aggregate.total=0\necc.errors.uncorrected.aggregate.total=0"
                               "\npcie.link.gen.current=5\npcie.link.gen.max=5\npcie.link.width.current=16"
                               "\npcie.link.width.max=16\nmig.mode.current=Disabled\nname=NVIDIA H100 80GB HBM3\n";
    if (Status s = writeText(fs::path(dir_) / "smi" / ("gpu" + std::to_string(i)), values); !s.isOk()) return s;
  }
  if (Status s = writeText(nvidiaSmi(), kNvidiaSmiScript); !s.isOk()) return s;
  if (::chmod(nvidiaSmi().c_str(), 0755) != 0) return Status::ioError("cannot make " + nvidiaSmi() + " executable");
  return Status::ok();
}

}  // namespace rdmagw::sim
