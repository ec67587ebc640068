// A stand-in for libnvidia-ml.so.1: the NVML functions the gateway calls,
// answering from a key=value file named by FAKE_NVML_CONFIG, read at each
// nvmlInit (the library may stay loaded between tests) and again at each
// nvmlDeviceGetCount (a test changes the answers between two polls). Keys:
//   init_error=<rc>            nvmlInit answers rc
//   count=<n>  count_error=<rc>
//   log=<path>                 each call's name is appended, one a line
//   gpu.<i>.<field>=<value>    a GPU's value; a field not given answers
//                              NVML_ERROR_NOT_SUPPORTED, "!<rc>" answers rc
//   gpu.<i>.handle=!<rc>       nvmlDeviceGetHandleByIndex answers rc
// Built twice: FAKE_NVML_UNVERSIONED leaves out every _v2/_v3 name, as a
// driver older than those names exports.

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "southbound/gpu/nvml_abi.h"

// Defined with the loader's own declarations of NVML's types: clang's UBSan
// function check compares a callee's prototype with the caller's pointer
// type, and this library is built instrumented. Enum parameters are
// unsigned int, as the loader declares them.
namespace nvml = rdmagw::southbound::gpu::nvml;
typedef nvml::Return nvmlReturn_t;
typedef nvml::Device nvmlDevice_t;
typedef nvml::PciInfo nvmlPciInfo_t;
typedef nvml::Memory nvmlMemory_t;
typedef nvml::Utilization nvmlUtilization_t;

namespace {

constexpr nvmlReturn_t kSuccess = 0;
constexpr nvmlReturn_t kUninitialized = 1;
constexpr nvmlReturn_t kInvalidArgument = 2;
constexpr nvmlReturn_t kNotSupported = 3;
constexpr nvmlReturn_t kInsufficientSize = 7;

std::map<std::string, std::string> g_config;
int g_init_count = 0;
char g_devices[64];  // a handle is the address of its GPU's byte

std::string configValue(const std::string& key) {
  const auto it = g_config.find(key);
  return it == g_config.end() ? std::string() : it->second;
}

void logCall(const char* name) {
  const std::string path = configValue("log");
  if (path.empty()) return;
  if (FILE* f = std::fopen(path.c_str(), "a")) {
    std::fprintf(f, "%s\n", name);
    std::fclose(f);
  }
}

void readConfig() {
  g_config.clear();
  const char* path = std::getenv("FAKE_NVML_CONFIG");
  if (path == nullptr) return;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos && line[0] != '#') g_config[line.substr(0, eq)] = line.substr(eq + 1);
  }
}

int gpuOf(nvmlDevice_t device) {
  const char* p = reinterpret_cast<const char*>(device);
  if (p < g_devices || p >= g_devices + sizeof g_devices) return -1;
  return static_cast<int>(p - g_devices);
}

// The GPU's value for `field` into *text, or why there is none.
nvmlReturn_t lookup(nvmlDevice_t device, const std::string& field, std::string* text) {
  if (g_init_count == 0) return kUninitialized;
  const int gpu = gpuOf(device);
  if (gpu < 0) return kInvalidArgument;
  const std::string prefix = "gpu." + std::to_string(gpu) + ".";
  const std::string lost = configValue(prefix + "lost");
  if (!lost.empty()) return std::atoi(lost.c_str());
  const auto it = g_config.find(prefix + field);
  if (it == g_config.end()) return kNotSupported;
  if (!it->second.empty() && it->second[0] == '!') return std::atoi(it->second.c_str() + 1);
  *text = it->second;
  return kSuccess;
}

template <typename T>
nvmlReturn_t lookupNumber(nvmlDevice_t device, const std::string& field, T* out) {
  if (out == nullptr) return kInvalidArgument;
  std::string text;
  const nvmlReturn_t rc = lookup(device, field, &text);
  if (rc == kSuccess) *out = static_cast<T>(std::strtoull(text.c_str(), nullptr, 10));
  return rc;
}

nvmlReturn_t lookupText(nvmlDevice_t device, const std::string& field, char* out, unsigned int length) {
  std::string text;
  const nvmlReturn_t rc = lookup(device, field, &text);
  if (rc != kSuccess) return rc;
  if (text.size() + 1 > length) return kInsufficientSize;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return kSuccess;
}

nvmlReturn_t init() {
  readConfig();
  const std::string error = configValue("init_error");
  if (!error.empty()) return std::atoi(error.c_str());
  ++g_init_count;
  return kSuccess;
}

nvmlReturn_t deviceCount(unsigned int* count) {
  if (g_init_count == 0) return kUninitialized;
  readConfig();
  const std::string error = configValue("count_error");
  if (!error.empty()) return std::atoi(error.c_str());
  *count = static_cast<unsigned int>(std::atoi(configValue("count").c_str()));
  return kSuccess;
}

nvmlReturn_t handleByIndex(unsigned int index, nvmlDevice_t* device) {
  if (g_init_count == 0) return kUninitialized;
  const unsigned int count = static_cast<unsigned int>(std::atoi(configValue("count").c_str()));
  if (index >= count || index >= sizeof g_devices) return kInvalidArgument;
  const std::string handle = configValue("gpu." + std::to_string(index) + ".handle");
  if (!handle.empty() && handle[0] == '!') return std::atoi(handle.c_str() + 1);
  *device = reinterpret_cast<nvmlDevice_t>(&g_devices[index]);
  return kSuccess;
}

}  // namespace

#define FAKE_LOG() logCall(__func__)

extern "C" {

const char* nvmlErrorString(nvmlReturn_t rc) {
  switch (rc) {
    case 0:
      return "Success";
    case 1:
      return "Uninitialized";
    case 3:
      return "Not Supported";
    case 4:
      return "Insufficient Permissions";
    case 9:
      return "Driver Not Loaded";
    case 15:
      return "GPU is lost";
    case 18:
      return "RM has detected an NVML/RM version mismatch.";
    default:
      return "Unknown Error";
  }
}

nvmlReturn_t nvmlInit() {
  const nvmlReturn_t rc = init();  // logged after: the log's path is in what init reads
  FAKE_LOG();
  return rc;
}
nvmlReturn_t nvmlShutdown() {
  FAKE_LOG();
  if (g_init_count == 0) return kUninitialized;
  --g_init_count;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetCount(unsigned int* count) {
  FAKE_LOG();
  return deviceCount(count);
}
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device) {
  FAKE_LOG();
  return handleByIndex(index, device);
}
// The first layout, 52 bytes: only the bus id in the legacy spelling, at
// the front, where the newer layout has busIdLegacy.
nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  FAKE_LOG();
  std::memset(pci, 0, offsetof(nvmlPciInfo_t, bus_id));
  return lookupText(device, "bus_id_legacy", pci->bus_id_legacy, sizeof pci->bus_id_legacy);
}

#ifndef FAKE_NVML_UNVERSIONED
nvmlReturn_t nvmlInit_v2() {
  const nvmlReturn_t rc = init();  // logged after: the log's path is in what init reads
  FAKE_LOG();
  return rc;
}
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  FAKE_LOG();
  return deviceCount(count);
}
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  FAKE_LOG();
  return handleByIndex(index, device);
}
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  FAKE_LOG();
  std::memset(pci, 0, sizeof *pci);
  const nvmlReturn_t rc = lookupText(device, "bus_id", pci->bus_id, sizeof pci->bus_id);
  if (rc == kSuccess) lookupText(device, "bus_id_legacy", pci->bus_id_legacy, sizeof pci->bus_id_legacy);
  return rc;
}
#endif

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t d, unsigned int* index) { return lookupNumber(d, "index", index); }
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned int length) {
  return lookupText(d, "name", name, length);
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned int length) {
  return lookupText(d, "uuid", uuid, length);
}
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, unsigned int sensor, unsigned int* temp) {
  return sensor == 0 ? lookupNumber(d, "temperature", temp) : kInvalidArgument;
}
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t* u) {
  const nvmlReturn_t rc = lookupNumber(d, "util_gpu", &u->gpu);
  return rc == kSuccess ? lookupNumber(d, "util_memory", &u->memory) : rc;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
  nvmlReturn_t rc = lookupNumber(d, "memory_total", &m->total);
  if (rc == kSuccess) rc = lookupNumber(d, "memory_used", &m->used);
  if (rc == kSuccess) m->free = m->total - m->used;
  return rc;
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int* mw) { return lookupNumber(d, "power", mw); }
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int* mw) {
  return lookupNumber(d, "power_limit", mw);
}
nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t d, unsigned int counter, unsigned int* kib) {
  if (counter != 0 && counter != 1) return kInvalidArgument;
  return lookupNumber(d, counter == 0 ? "pcie_tx_kib" : "pcie_rx_kib", kib);
}
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, unsigned int error_type, unsigned int counter_type,
                                         unsigned long long* n) {
  const std::string field = std::string("ecc.") + (error_type == 0 ? "corrected" : "uncorrected") +
                            (counter_type == 0 ? ".volatile" : ".aggregate");
  return lookupNumber(d, field, n);
}
// Counts only, as NVML does with no address buffer: "insufficient size"
// when there are pages to list.
nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t d, unsigned int cause, unsigned int* count,
                                       unsigned long long* addresses) {
  unsigned int pages = 0;
  const nvmlReturn_t rc = lookupNumber(d, cause == 0 ? "retired_sbe" : "retired_dbe", &pages);
  if (rc != kSuccess) return rc;
  const bool fits = pages <= *count;
  *count = pages;
  if (fits && addresses != nullptr) std::memset(addresses, 0, pages * sizeof *addresses);
  return fits ? kSuccess : kInsufficientSize;
}
nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, unsigned int* pending) {
  return lookupNumber(d, "retired_pending", pending);
}
nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned int* correctable, unsigned int* uncorrectable,
                                       unsigned int* pending, unsigned int* failure) {
  nvmlReturn_t rc = lookupNumber(d, "remapped_correctable", correctable);
  if (rc == kSuccess) rc = lookupNumber(d, "remapped_uncorrectable", uncorrectable);
  if (rc == kSuccess) rc = lookupNumber(d, "remapped_pending", pending);
  if (rc == kSuccess) rc = lookupNumber(d, "remapped_failure", failure);
  return rc;
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int* v) {
  return lookupNumber(d, "link_gen", v);
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int* v) {
  return lookupNumber(d, "link_gen_max", v);
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int* v) {
  return lookupNumber(d, "link_width", v);
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned int* v) {
  return lookupNumber(d, "link_width_max", v);
}
nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int* current, unsigned int* pending) {
  const nvmlReturn_t rc = lookupNumber(d, "mig", current);
  if (rc == kSuccess) *pending = *current;
  return rc;
}

}  // extern "C"
