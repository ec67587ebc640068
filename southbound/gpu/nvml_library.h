#pragma once
// libnvidia-ml.so.1 opened at run time and the NVML functions the gateway
// calls, bound by name. Drivers export a function under several versioned
// names (nvmlInit_v2 beside nvmlInit): each is bound to the newest name
// this library has, so one build runs on old and new drivers alike.

#include <memory>
#include <string>
#include <vector>

#include "models/status.h"
#include "southbound/gpu/nvml_abi.h"

namespace rdmagw::southbound::gpu {

// The name the driver installs, with its ABI version: the unversioned
// libnvidia-ml.so comes only with development packages.
inline constexpr char kNvmlLibraryName[] = "libnvidia-ml.so.1";

// The functions. The first five are required: open() fails without them.
// The others are null when the library lacks them (the field stays absent).
struct NvmlFunctions {
  nvml::Return (*init)() = nullptr;
  nvml::Return (*shutdown)() = nullptr;
  const char* (*error_string)(nvml::Return) = nullptr;
  nvml::Return (*device_count)(unsigned*) = nullptr;
  nvml::Return (*device_by_index)(unsigned, nvml::Device*) = nullptr;

  nvml::Return (*index)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*name)(nvml::Device, char*, unsigned) = nullptr;
  nvml::Return (*uuid)(nvml::Device, char*, unsigned) = nullptr;
  nvml::Return (*pci_info)(nvml::Device, nvml::PciInfo*) = nullptr;
  nvml::Return (*temperature)(nvml::Device, unsigned, unsigned*) = nullptr;
  nvml::Return (*utilization)(nvml::Device, nvml::Utilization*) = nullptr;
  nvml::Return (*memory)(nvml::Device, nvml::Memory*) = nullptr;
  nvml::Return (*power_usage)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*enforced_power_limit)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*pcie_throughput)(nvml::Device, unsigned, unsigned*) = nullptr;
  nvml::Return (*total_ecc_errors)(nvml::Device, unsigned, unsigned, unsigned long long*) = nullptr;
  nvml::Return (*retired_pages)(nvml::Device, unsigned, unsigned*, unsigned long long*) = nullptr;
  nvml::Return (*retired_pages_pending)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*remapped_rows)(nvml::Device, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  nvml::Return (*pcie_gen_current)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*pcie_gen_max)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*pcie_width_current)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*pcie_width_max)(nvml::Device, unsigned*) = nullptr;
  nvml::Return (*mig_mode)(nvml::Device, unsigned*, unsigned*) = nullptr;
};

class NvmlLibrary {
 public:
  // dlopen(path, RTLD_NOW | RTLD_LOCAL), then binds the functions.
  //   NotFound  the library cannot be loaded (dlerror's text): no driver.
  //   Corrupt   a required function is missing (named): not NVML, or an
  //             NVML too old for the gateway.
  static Result<std::unique_ptr<NvmlLibrary>> open(const std::string& path = kNvmlLibraryName);
  ~NvmlLibrary();  // dlclose; nvmlShutdown is the caller's (NvmlSource's)
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  const NvmlFunctions& functions() const { return functions_; }
  // The symbol each bound function came from ("nvmlInit_v2"), table order.
  const std::vector<std::string>& boundSymbols() const { return bound_; }
  // "Driver Not Loaded (9)": nvmlErrorString's text and the code.
  std::string errorText(nvml::Return rc) const;

  // Every name open() may look up, newest first per function: for checking
  // against a driver's export list.
  static std::vector<std::string> symbolNames();

 private:
  NvmlLibrary() = default;
  void* handle_ = nullptr;
  NvmlFunctions functions_;
  std::vector<std::string> bound_;
};

}  // namespace rdmagw::southbound::gpu
