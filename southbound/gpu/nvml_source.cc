#include "southbound/gpu/nvml_source.h"

#include "southbound/gpu/nvml_device_reader.h"

namespace rdmagw::southbound::gpu {
namespace {

// What an operator does about the init failures hosts actually show.
std::string hintFor(nvml::Return rc) {
  switch (rc) {
    case nvml::kDriverNotLoaded:
      return ": the nvidia kernel module is not loaded";
    case nvml::kNoPermission:
      return ": this user may not open /dev/nvidiactl";
    case nvml::kLibRmVersionMismatch:
      return ": libnvidia-ml and the loaded kernel module are of different driver versions (updated without a "
             "reboot or module reload?)";
    default:
      return "";
  }
}

// Answers after which NVML must be started again: it was shut down under
// us, or the driver went away or changed.
bool needsRestart(nvml::Return rc) {
  return rc == nvml::kUninitialized || rc == nvml::kDriverNotLoaded || rc == nvml::kLibRmVersionMismatch;
}

}  // namespace

NvmlSource::NvmlSource(std::string library_path) : library_path_(std::move(library_path)) {}

NvmlSource::~NvmlSource() { close(); }

void NvmlSource::setState(NvmlState state, std::string text) {
  state_ = state;
  state_text_ = std::move(text);
}

Status NvmlSource::start() {
  Result<std::unique_ptr<NvmlLibrary>> opened = NvmlLibrary::open(library_path_);
  if (!opened.isOk()) {
    const Status s = opened.status();
    setState(s.code() == Status::Code::kNotFound ? NvmlState::kLibraryMissing : NvmlState::kNotNvml,
             (s.code() == Status::Code::kNotFound ? "library missing: " : "not NVML: ") + s.message());
    return Status::unavailable(state_text_);
  }
  std::unique_ptr<NvmlLibrary> library = std::move(opened).value();
  const nvml::Return rc = library->functions().init();
  if (rc != nvml::kSuccess) {
    // No nvmlShutdown: an init that failed left nothing to shut down.
    setState(NvmlState::kInitFailed, "init failed: " + library->errorText(rc) + hintFor(rc));
    return Status::unavailable(state_text_);
  }
  std::string bound;
  for (const std::string& name : library->boundSymbols()) {
    if (name.find("_v") != std::string::npos) bound += (bound.empty() ? "" : ", ") + name;
  }
  library_ = std::move(library);
  setState(NvmlState::kReady, "ready (" + (bound.empty() ? std::string("unversioned symbols") : bound) + ")");
  return Status::ok();
}

Result<std::vector<GpuSample>> NvmlSource::poll() {
  if (library_ == nullptr) {
    if (Status s = start(); !s.isOk()) return s;
  }
  unsigned count = 0;
  const nvml::Return rc = library_->functions().device_count(&count);
  if (rc != nvml::kSuccess) {
    Status failed = Status::unavailable("nvmlDeviceGetCount: " + library_->errorText(rc));
    if (needsRestart(rc)) {
      close();
      setState(NvmlState::kClosed, "closed after " + failed.message());
    }
    return failed;
  }
  std::vector<GpuSample> samples;
  samples.reserve(count);
  for (unsigned i = 0; i < count; ++i) samples.push_back(readNvmlDevice(*library_, i));
  return samples;
}

void NvmlSource::close() {
  if (library_ != nullptr) {
    library_->functions().shutdown();
    library_.reset();
  }
  setState(NvmlState::kClosed, "closed");
}

}  // namespace rdmagw::southbound::gpu
