#pragma once
// One GPU's metrics at one poll, whichever way they were read (NVML or
// nvidia-smi). Every field is optional: a value the driver reports as not
// supported ("[N/A]", NVML_ERROR_NOT_SUPPORTED) is absent, never zero, so a
// consumer cannot mistake "this GPU has no ECC" for "no ECC errors".

#include <cstdint>
#include <optional>
#include <string>

namespace rdmagw::southbound::gpu {

// ECC error counts. Volatile counts restart at driver load; aggregate ones
// persist across reboots (kept in the InfoROM).
struct GpuEccCounts {
  std::optional<uint64_t> volatile_corrected;
  std::optional<uint64_t> volatile_uncorrected;
  std::optional<uint64_t> aggregate_corrected;
  std::optional<uint64_t> aggregate_uncorrected;
};

// Pages the driver took out of service: after repeated single-bit errors,
// after a double-bit error, and whether a retirement waits for a reset.
struct GpuRetiredPages {
  std::optional<uint64_t> single_bit;
  std::optional<uint64_t> double_bit;
  std::optional<bool> pending;
};

// Row remapping, which replaced page retirement from Ampere on: rows
// remapped after correctable and after uncorrectable errors, a remap
// waiting for a GPU reset, and whether a remap ever failed (the GPU then
// needs service).
struct GpuRemappedRows {
  std::optional<uint64_t> correctable;
  std::optional<uint64_t> uncorrectable;
  std::optional<bool> pending;
  std::optional<bool> failure;
};

// The PCIe link as trained now and the most the GPU can do. GPUs lower
// their link generation at idle, so current < max alone is no fault.
struct GpuPcieLink {
  std::optional<uint32_t> gen_current;
  std::optional<uint32_t> gen_max;
  std::optional<uint32_t> width_current;
  std::optional<uint32_t> width_max;
};

struct GpuSample {
  std::optional<uint32_t> index;    // NVML's enumeration order, as nvidia-smi's "GPU 0"
  std::optional<std::string> uuid;  // "GPU-…": what the device plugin hands to pods
  // NVML form "00000000:3B:00.0": 8 hex digits of domain, upper case. The
  // join key with dcgm-exporter's pci_bus_id label; gpu_bus_id.h converts
  // to and from sysfs's "0000:3b:00.0".
  std::optional<std::string> pci_bus_id;
  std::optional<std::string> model_name;  // free text, may hold spaces

  std::optional<int32_t> temperature_c;
  std::optional<uint32_t> utilization_gpu_pct;
  std::optional<uint32_t> utilization_memory_pct;
  std::optional<uint64_t> memory_used_bytes;
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint64_t> power_draw_mw;
  std::optional<uint64_t> power_limit_mw;  // the enforced limit
  // NVML samples these over 20 ms; nvidia-smi's query-gpu has no such field.
  std::optional<uint64_t> pcie_tx_bytes_per_s;
  std::optional<uint64_t> pcie_rx_bytes_per_s;

  GpuEccCounts ecc;
  GpuRetiredPages retired_pages;
  GpuRemappedRows remapped_rows;
  GpuPcieLink pcie_link;
  std::optional<bool> mig_enabled;  // the current mode, not the pending one

  // Set when this GPU could not be read at all (it fell off the bus, NVML
  // says "GPU is lost"): the other GPUs of the poll are still reported.
  std::optional<std::string> read_error;
};

}  // namespace rdmagw::southbound::gpu
