#pragma once
// One GPU read through NVML into a GpuSample.

#include "southbound/gpu/gpu_sample.h"
#include "southbound/gpu/nvml_library.h"

namespace rdmagw::southbound::gpu {

// Reads every field NVML has for the GPU at `index`. A field whose call
// fails (not supported on this GPU, not permitted to this user, or a
// function this driver lacks) stays absent. When NVML answers "GPU is
// lost", at the handle or at any field, reading stops and read_error says
// so: the sample then carries its index and what was read before.
GpuSample readNvmlDevice(const NvmlLibrary& library, unsigned index);

}  // namespace rdmagw::southbound::gpu
