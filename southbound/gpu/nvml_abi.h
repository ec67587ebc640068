#pragma once
// The part of NVML's C ABI (nvml.h, which no distribution package ships)
// the gateway calls, written from NVIDIA's documented layouts: the library
// is loaded at run time, so nothing here links against it.

namespace rdmagw::southbound::gpu::nvml {

using Return = int;                // nvmlReturn_t, a C enum
using Device = struct DeviceTag*;  // nvmlDevice_t, opaque

inline constexpr Return kSuccess = 0;
inline constexpr Return kUninitialized = 1;
inline constexpr Return kNotSupported = 3;
inline constexpr Return kNoPermission = 4;
inline constexpr Return kInsufficientSize = 7;
inline constexpr Return kDriverNotLoaded = 9;
inline constexpr Return kGpuIsLost = 15;
inline constexpr Return kLibRmVersionMismatch = 18;
inline constexpr Return kUnknown = 999;

inline constexpr unsigned kTemperatureGpu = 0;  // nvmlTemperatureSensors_t
inline constexpr unsigned kPcieTxBytes = 0;     // nvmlPcieUtilCounter_t
inline constexpr unsigned kPcieRxBytes = 1;
inline constexpr unsigned kCorrected = 0;  // nvmlMemoryErrorType_t
inline constexpr unsigned kUncorrected = 1;
inline constexpr unsigned kVolatileEcc = 0;  // nvmlEccCounterType_t
inline constexpr unsigned kAggregateEcc = 1;
inline constexpr unsigned kRetiredSingleBit = 0;  // nvmlPageRetirementCause_t
inline constexpr unsigned kRetiredDoubleBit = 1;
inline constexpr unsigned kEnabled = 1;  // nvmlEnableState_t, and MIG mode

// Buffer sizes NVML documents as always enough (the _V2 sizes).
inline constexpr unsigned kNameBufferSize = 96;
inline constexpr unsigned kUuidBufferSize = 96;

// nvmlPciInfo_t since the _v3 call. The first call's layout had busId[16]
// where busIdLegacy is and four reserved words after the IDs (52 bytes), so
// it fits in this one and leaves bus_id empty.
struct PciInfo {
  char bus_id_legacy[16];  // "0000:3B:00.0"
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];  // "00000000:3B:00.0"
};

struct Memory {  // nvmlMemory_t (v1), bytes
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct Utilization {  // nvmlUtilization_t, percent over the driver's sample period
  unsigned gpu;
  unsigned memory;
};

}  // namespace rdmagw::southbound::gpu::nvml
