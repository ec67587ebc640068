#include "southbound/gpu/nvidia_smi_source.h"

#include "southbound/gpu/nvidia_smi_csv.h"

namespace rdmagw::southbound::gpu {

NvidiaSmiSource::NvidiaSmiSource(CommandRunner runner, std::string program)
    : runner_(std::move(runner)), command_(nvidiaSmiQueryCommand(program)) {}

Result<std::vector<GpuSample>> NvidiaSmiSource::poll() {
  line_errors_.clear();
  Result<std::string> output = runner_(command_);
  if (!output.isOk()) return output.status();
  NvidiaSmiCsv csv = parseNvidiaSmiCsv(output.value());
  line_errors_ = std::move(csv.errors);
  if (csv.gpus.empty() && !line_errors_.empty()) {
    return Status::corrupt("nvidia-smi printed no readable GPU line: " + line_errors_.front());
  }
  return std::move(csv.gpus);
}

}  // namespace rdmagw::southbound::gpu
