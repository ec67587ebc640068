#include "southbound/gpu/nvml_library.h"

#include <dlfcn.h>

#include <initializer_list>
#include <type_traits>

namespace rdmagw::southbound::gpu {
namespace {

using Names = std::initializer_list<const char*>;

// Every function with its names, newest first (the _v2/_v3 names fix ABI
// changes of the plain ones: nvmlInit_v2 does not fail on a GPU the user
// may not access, nvmlDeviceGetCount_v2 counts those too), and whether the
// gateway can do without it. The names match the export list of driver
// 590's libnvidia-ml.so.1.
template <typename Visit>
void visitBindings(NvmlFunctions& f, Visit&& visit) {
  visit(f.init, Names{"nvmlInit_v2", "nvmlInit"}, true);
  visit(f.shutdown, Names{"nvmlShutdown"}, true);
  visit(f.error_string, Names{"nvmlErrorString"}, true);
  visit(f.device_count, Names{"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}, true);
  visit(f.device_by_index, Names{"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"}, true);
  visit(f.index, Names{"nvmlDeviceGetIndex"}, false);
  visit(f.name, Names{"nvmlDeviceGetName"}, false);
  visit(f.uuid, Names{"nvmlDeviceGetUUID"}, false);
  visit(f.pci_info, Names{"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2", "nvmlDeviceGetPciInfo"}, false);
  visit(f.temperature, Names{"nvmlDeviceGetTemperature"}, false);
  visit(f.utilization, Names{"nvmlDeviceGetUtilizationRates"}, false);
  // Not nvmlDeviceGetMemoryInfo_v2: its struct carries a version word and
  // a reserved size; the first call's used/total are what is reported.
  visit(f.memory, Names{"nvmlDeviceGetMemoryInfo"}, false);
  visit(f.power_usage, Names{"nvmlDeviceGetPowerUsage"}, false);
  visit(f.enforced_power_limit, Names{"nvmlDeviceGetEnforcedPowerLimit"}, false);
  visit(f.pcie_throughput, Names{"nvmlDeviceGetPcieThroughput"}, false);
  visit(f.total_ecc_errors, Names{"nvmlDeviceGetTotalEccErrors"}, false);
  visit(f.retired_pages, Names{"nvmlDeviceGetRetiredPages"}, false);
  visit(f.retired_pages_pending, Names{"nvmlDeviceGetRetiredPagesPendingStatus"}, false);
  visit(f.remapped_rows, Names{"nvmlDeviceGetRemappedRows"}, false);
  visit(f.pcie_gen_current, Names{"nvmlDeviceGetCurrPcieLinkGeneration"}, false);
  visit(f.pcie_gen_max, Names{"nvmlDeviceGetMaxPcieLinkGeneration"}, false);
  visit(f.pcie_width_current, Names{"nvmlDeviceGetCurrPcieLinkWidth"}, false);
  visit(f.pcie_width_max, Names{"nvmlDeviceGetMaxPcieLinkWidth"}, false);
  visit(f.mig_mode, Names{"nvmlDeviceGetMigMode"}, false);
}

std::string lastDlError(const std::string& fallback) {
  const char* e = ::dlerror();
  return e != nullptr ? e : fallback;
}

}  // namespace

Result<std::unique_ptr<NvmlLibrary>> NvmlLibrary::open(const std::string& path) {
  ::dlerror();
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return Status::notFound("cannot load " + path + ": " + lastDlError("dlopen failed"));
  std::unique_ptr<NvmlLibrary> lib(new NvmlLibrary());
  lib->handle_ = handle;
  std::string missing;
  visitBindings(lib->functions_, [&](auto& slot, Names names, bool required) {
    for (const char* name : names) {
      if (void* symbol = ::dlsym(handle, name)) {
        // POSIX guarantees a function's dlsym address converts back to it.
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(symbol);
        lib->bound_.emplace_back(name);
        return;
      }
    }
    if (required && missing.empty()) missing = *names.begin();
  });
  if (!missing.empty()) return Status::corrupt(path + " has no " + missing + ": not an NVML library, or too old");
  return lib;
}

NvmlLibrary::~NvmlLibrary() {
  if (handle_ != nullptr) ::dlclose(handle_);
}

std::string NvmlLibrary::errorText(nvml::Return rc) const {
  const char* text = functions_.error_string != nullptr ? functions_.error_string(rc) : nullptr;
  return std::string(text != nullptr ? text : "NVML error") + " (" + std::to_string(rc) + ")";
}

std::vector<std::string> NvmlLibrary::symbolNames() {
  std::vector<std::string> names;
  NvmlFunctions unused;
  visitBindings(
      unused, [&](auto&, Names candidates, bool) { names.insert(names.end(), candidates.begin(), candidates.end()); });
  return names;
}

}  // namespace rdmagw::southbound::gpu
