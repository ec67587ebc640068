#pragma once
// GPU samples read through NVML on this host. The library is loaded and
// initialised at the first poll, not at construction: the gateway starts
// on hosts whose driver is missing, not yet loaded, or being updated, and
// a later poll retries. Nothing NVML answers makes it crash; what went
// wrong is in state().
//
// One thread polls: the class holds no lock.

#include <memory>
#include <string>
#include <vector>

#include "models/status.h"
#include "southbound/gpu/gpu_sample.h"
#include "southbound/gpu/nvml_library.h"

namespace rdmagw::southbound::gpu {

enum class NvmlState {
  kClosed,          // not started, or closed
  kReady,           // initialised; polls read the GPUs
  kLibraryMissing,  // dlopen failed: no NVIDIA driver on this host
  kNotNvml,         // the library lacks a required function
  kInitFailed,      // nvmlInit failed: module not loaded, no permission, version mismatch
};

class NvmlSource {
 public:
  // `library_path`: a name for the loader's search or a path (tests load a
  // fake library by path).
  explicit NvmlSource(std::string library_path = kNvmlLibraryName);
  ~NvmlSource();  // close()
  NvmlSource(const NvmlSource&) = delete;
  NvmlSource& operator=(const NvmlSource&) = delete;

  // One sample per GPU NVML counts, in its order; a GPU that cannot be read
  // has read_error set. Unavailable (with state()'s text) when NVML cannot
  // be started, or when counting the GPUs fails; the next poll starts again.
  Result<std::vector<GpuSample>> poll();

  NvmlState stateCode() const { return state_; }
  // "ready (nvmlInit_v2, ...)", "library missing: <dlerror>",
  // "init failed: Driver Not Loaded (9): <what that usually means>".
  const std::string& state() const { return state_text_; }

  // nvmlShutdown (once per successful init), then dlclose. Idempotent.
  void close();

 private:
  Status start();
  void setState(NvmlState state, std::string text);

  std::string library_path_;
  std::unique_ptr<NvmlLibrary> library_;
  NvmlState state_ = NvmlState::kClosed;
  std::string state_text_ = "closed";
};

}  // namespace rdmagw::southbound::gpu
