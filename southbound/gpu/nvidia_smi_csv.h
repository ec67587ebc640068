#pragma once
// nvidia-smi's CSV query: the field list the gateway sends and the parser of
// what comes back. nvidia-smi separates cells with ", " and quotes nothing;
// a cell it cannot fill reads "[N/A]", "[Not Supported]", "[Unknown Error]"
// (any bracketed text) or "N/A", all read as absent. The model name is free
// text, so it goes last in the query: a comma inside it then only makes the
// row longer, and the surplus cells are joined back into the name.

#include <string>
#include <string_view>
#include <vector>

#include "southbound/gpu/gpu_sample.h"

namespace rdmagw::southbound::gpu {

// What `--query-gpu=` asks for, in the order the rows answer. PCIe
// throughput is not among query-gpu's fields (only `dmon -s t` has it).
inline constexpr std::string_view kNvidiaSmiQueryFields =
    "index,uuid,pci.bus_id,temperature.gpu,utilization.gpu,utilization.memory,memory.used,memory.total,"
    "power.draw,enforced.power.limit,ecc.errors.corrected.volatile.total,ecc.errors.uncorrected.volatile.total,"
    "ecc.errors.corrected.aggregate.total,ecc.errors.uncorrected.aggregate.total,"
    "retired_pages.single_bit_ecc.count,retired_pages.double_bit.count,retired_pages.pending,"
    "remapped_rows.correctable,remapped_rows.uncorrectable,remapped_rows.pending,remapped_rows.failure,"
    "pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,mig.mode.current,name";

// The command line: `nvidia-smi --query-gpu=<kNvidiaSmiQueryFields>
// --format=csv,noheader,nounits`, or `program` in place of nvidia-smi.
std::string nvidiaSmiQueryCommand(const std::string& program = "nvidia-smi");

struct NvidiaSmiCsv {
  std::vector<GpuSample> gpus;
  // One per rejected line, "line <n>: <why>": a wrong cell count (nvidia-smi
  // printing a message for a GPU it cannot reach), a number that is not one.
  // The other lines are still read.
  std::vector<std::string> errors;
};

// Rows of `--format=csv,noheader,nounits` for kNvidiaSmiQueryFields.
NvidiaSmiCsv parseNvidiaSmiCsv(std::string_view text);

// A header line ("index, memory.used [MiB], ...") then rows, as
// `--format=csv` prints them (units after the numbers). Columns are found
// by name, so any field list works; fields GpuSample has no place for are
// skipped. Reads recorded captures taken with other field lists.
NvidiaSmiCsv parseNvidiaSmiCsvWithHeader(std::string_view text);

}  // namespace rdmagw::southbound::gpu
