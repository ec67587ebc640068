#include "southbound/gpu/nvml_device_reader.h"

#include <cstring>

#include "southbound/gpu/gpu_bus_id.h"

namespace rdmagw::southbound::gpu {
namespace {

// Calls one NVML device function at a time, and stops calling once the
// GPU is lost: every later call would only wait for the same answer.
class DeviceCalls {
 public:
  DeviceCalls(const NvmlLibrary& library, nvml::Device device) : library_(library), device_(device) {}

  // True when `fn` exists and answered NVML_SUCCESS.
  template <typename Fn, typename... Args>
  bool call(Fn fn, Args... args) {
    return fn != nullptr && !lost() && record(fn(device_, args...)) == nvml::kSuccess;
  }
  nvml::Return record(nvml::Return rc) {
    if (rc == nvml::kGpuIsLost) lost_text_ = library_.errorText(rc);
    return rc;
  }
  bool lost() const { return !lost_text_.empty(); }
  const std::string& lostText() const { return lost_text_; }
  nvml::Device device() const { return device_; }

 private:
  const NvmlLibrary& library_;
  nvml::Device device_;
  std::string lost_text_;
};

// A text NVML wrote into a fixed buffer, never reading past the buffer
// (NVML terminates it, a misbehaving library might not).
std::string boundedText(const char* buf, size_t size) { return std::string(buf, ::strnlen(buf, size)); }

std::optional<std::string> busIdOf(const nvml::PciInfo& pci) {
  for (const std::string& text :
       {boundedText(pci.bus_id, sizeof pci.bus_id), boundedText(pci.bus_id_legacy, sizeof pci.bus_id_legacy)}) {
    if (const auto address = parsePciAddress(text)) return nvmlBusId(*address);
  }
  return std::nullopt;
}

void readIdentity(const NvmlFunctions& f, DeviceCalls& c, GpuSample& s) {
  char text[nvml::kUuidBufferSize > nvml::kNameBufferSize ? nvml::kUuidBufferSize : nvml::kNameBufferSize] = {};
  if (c.call(f.uuid, text, static_cast<unsigned>(sizeof text))) s.uuid = boundedText(text, sizeof text);
  std::memset(text, 0, sizeof text);
  if (c.call(f.name, text, static_cast<unsigned>(sizeof text))) s.model_name = boundedText(text, sizeof text);
  nvml::PciInfo pci{};
  if (c.call(f.pci_info, &pci)) s.pci_bus_id = busIdOf(pci);
}

void readLoad(const NvmlFunctions& f, DeviceCalls& c, GpuSample& s) {
  unsigned v = 0;
  if (c.call(f.temperature, nvml::kTemperatureGpu, &v)) s.temperature_c = static_cast<int32_t>(v);
  nvml::Utilization u{};
  if (c.call(f.utilization, &u)) {
    s.utilization_gpu_pct = u.gpu;
    s.utilization_memory_pct = u.memory;
  }
  nvml::Memory m{};
  if (c.call(f.memory, &m)) {
    s.memory_used_bytes = m.used;
    s.memory_total_bytes = m.total;
  }
  if (c.call(f.power_usage, &v)) s.power_draw_mw = v;
  if (c.call(f.enforced_power_limit, &v)) s.power_limit_mw = v;
  // NVML counts in KiB/s over a 20 ms window.
  if (c.call(f.pcie_throughput, nvml::kPcieTxBytes, &v)) s.pcie_tx_bytes_per_s = uint64_t{v} * 1024;
  if (c.call(f.pcie_throughput, nvml::kPcieRxBytes, &v)) s.pcie_rx_bytes_per_s = uint64_t{v} * 1024;
}

void readErrors(const NvmlFunctions& f, DeviceCalls& c, GpuSample& s) {
  unsigned long long n = 0;
  if (c.call(f.total_ecc_errors, nvml::kCorrected, nvml::kVolatileEcc, &n)) s.ecc.volatile_corrected = n;
  if (c.call(f.total_ecc_errors, nvml::kUncorrected, nvml::kVolatileEcc, &n)) s.ecc.volatile_uncorrected = n;
  if (c.call(f.total_ecc_errors, nvml::kCorrected, nvml::kAggregateEcc, &n)) s.ecc.aggregate_corrected = n;
  if (c.call(f.total_ecc_errors, nvml::kUncorrected, nvml::kAggregateEcc, &n)) s.ecc.aggregate_uncorrected = n;
  // Asked with no address buffer, NVML only counts: "insufficient size"
  // then means there are pages, and the count is still filled in.
  for (const unsigned cause : {nvml::kRetiredSingleBit, nvml::kRetiredDoubleBit}) {
    if (f.retired_pages == nullptr || c.lost()) break;
    unsigned count = 0;
    const nvml::Return rc = c.record(f.retired_pages(c.device(), cause, &count, nullptr));
    if (rc != nvml::kSuccess && rc != nvml::kInsufficientSize) continue;
    (cause == nvml::kRetiredSingleBit ? s.retired_pages.single_bit : s.retired_pages.double_bit) = count;
  }
  unsigned pending = 0;
  if (c.call(f.retired_pages_pending, &pending)) s.retired_pages.pending = pending == nvml::kEnabled;
  unsigned correctable = 0;
  unsigned uncorrectable = 0;
  unsigned failure = 0;
  if (c.call(f.remapped_rows, &correctable, &uncorrectable, &pending, &failure)) {
    s.remapped_rows.correctable = correctable;
    s.remapped_rows.uncorrectable = uncorrectable;
    s.remapped_rows.pending = pending != 0;
    s.remapped_rows.failure = failure != 0;
  }
}

void readLinkAndMode(const NvmlFunctions& f, DeviceCalls& c, GpuSample& s) {
  unsigned v = 0;
  if (c.call(f.pcie_gen_current, &v)) s.pcie_link.gen_current = v;
  if (c.call(f.pcie_gen_max, &v)) s.pcie_link.gen_max = v;
  if (c.call(f.pcie_width_current, &v)) s.pcie_link.width_current = v;
  if (c.call(f.pcie_width_max, &v)) s.pcie_link.width_max = v;
  unsigned current = 0;
  unsigned pending = 0;
  if (c.call(f.mig_mode, &current, &pending)) s.mig_enabled = current == nvml::kEnabled;
}

}  // namespace

GpuSample readNvmlDevice(const NvmlLibrary& library, unsigned index) {
  const NvmlFunctions& f = library.functions();
  GpuSample s;
  s.index = index;
  nvml::Device device = nullptr;
  const nvml::Return rc = f.device_by_index(index, &device);
  if (rc != nvml::kSuccess) {
    s.read_error = "nvmlDeviceGetHandleByIndex: " + library.errorText(rc);
    return s;
  }
  DeviceCalls calls(library, device);
  unsigned reported_index = 0;
  if (calls.call(f.index, &reported_index)) s.index = reported_index;
  readIdentity(f, calls, s);
  readLoad(f, calls, s);
  readErrors(f, calls, s);
  readLinkAndMode(f, calls, s);
  if (calls.lost()) s.read_error = calls.lostText();
  return s;
}

}  // namespace rdmagw::southbound::gpu
