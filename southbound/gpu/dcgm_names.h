#pragma once
// The names NVIDIA's dcgm-exporter gives GPU series, so the gateway's GPU
// series can be joined to its series (or stand in for them) without a
// relabelling rule. The label names are set in dcgm-exporter's
// render_metrics.go (they are not in its counters CSV); the metric names are
// rows of its etc/default-counters.csv.

#include <string_view>

namespace rdmagw::southbound::gpu::dcgm {

// Labels. Join on kUuidLabel or kPciBusIdLabel: kGpuLabel and kDeviceLabel
// are DCGM's enumeration ("nvidia<dcgm id>"), not the /dev minor nor NVML's
// index, and differ between tools on one host.
inline constexpr std::string_view kGpuLabel = "gpu";
inline constexpr std::string_view kUuidLabel = "UUID";
inline constexpr std::string_view kPciBusIdLabel = "pci_bus_id";  // NVML form, "00000000:8D:00.0"
inline constexpr std::string_view kDeviceLabel = "device";
inline constexpr std::string_view kModelNameLabel = "modelName";
// dcgm-exporter renamed it to "hostname" in May 2026; dashboards built on
// older releases still select "Hostname".
inline constexpr std::string_view kHostnameLabel = "hostname";
inline constexpr std::string_view kLegacyHostnameLabel = "Hostname";

// Metrics for the GpuSample fields dcgm-exporter exports by default.
inline constexpr std::string_view kGpuTemperature = "DCGM_FI_DEV_GPU_TEMP";              // °C
inline constexpr std::string_view kGpuUtilization = "DCGM_FI_DEV_GPU_UTIL";              // %
inline constexpr std::string_view kMemoryCopyUtilization = "DCGM_FI_DEV_MEM_COPY_UTIL";  // %
inline constexpr std::string_view kFramebufferUsed = "DCGM_FI_DEV_FB_USED";              // MiB
inline constexpr std::string_view kPowerUsage = "DCGM_FI_DEV_POWER_USAGE";               // W
inline constexpr std::string_view kPcieTxBytes = "DCGM_FI_PROF_PCIE_TX_BYTES";           // bytes/s
inline constexpr std::string_view kPcieRxBytes = "DCGM_FI_PROF_PCIE_RX_BYTES";           // bytes/s
inline constexpr std::string_view kXidErrors = "DCGM_FI_DEV_XID_ERRORS";                 // the last XID, not a count

// Every metric name above, for checks against the counters CSV.
inline constexpr std::string_view kMetricNames[] = {
    kGpuTemperature, kGpuUtilization, kMemoryCopyUtilization, kFramebufferUsed,
    kPowerUsage,     kPcieTxBytes,    kPcieRxBytes,           kXidErrors,
};

}  // namespace rdmagw::southbound::gpu::dcgm
