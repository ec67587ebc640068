#include "southbound/gpu/nvidia_smi_csv.h"

#include <charconv>
#include <limits>
#include <optional>

#include "southbound/gpu/gpu_bus_id.h"

namespace rdmagw::southbound::gpu {
namespace {

constexpr uint64_t kMiB = 1024 * 1024;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// nvidia-smi's ways of saying "no value": bracketed text ("[N/A]",
// "[Not Supported]", "[Unknown Error]", "[GPU is lost]"), bare "N/A", nothing.
bool isAbsent(std::string_view cell) {
  return cell.empty() || cell == "N/A" || (cell.front() == '[' && cell.back() == ']');
}

// "81559 MiB" -> "81559": with `--format=csv` each number carries its unit.
std::string_view withoutUnit(std::string_view cell) {
  const size_t space = cell.find(' ');
  return space == std::string_view::npos ? cell : cell.substr(0, space);
}

std::optional<uint64_t> toUnsigned(std::string_view cell) {
  const std::string_view digits = withoutUnit(cell);
  uint64_t v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return std::nullopt;
  return v;
}

// "631.95" (watts) -> 631950 (milliwatts), exact: no binary floating point
// between the driver's decimal text and an integer.
std::optional<uint64_t> toThousandths(std::string_view cell) {
  std::string_view text = withoutUnit(cell);
  const size_t dot = text.find('.');
  const auto whole = toUnsigned(text.substr(0, dot));
  if (!whole) return std::nullopt;
  uint64_t fraction = 0;
  if (dot != std::string_view::npos) {
    std::string_view digits = text.substr(dot + 1);
    if (digits.empty() || digits.size() > 3) return std::nullopt;
    std::string padded(digits);
    padded.resize(3, '0');
    const auto f = toUnsigned(padded);
    if (!f) return std::nullopt;
    fraction = *f;
  }
  return *whole * 1000 + fraction;
}

// Each field's reader: stores the value, or says why it is not one.
using CellReader = std::optional<std::string> (*)(std::string_view cell, GpuSample& s);

std::string notA(std::string_view what, std::string_view cell) {
  return "\"" + std::string(cell) + "\" is not " + std::string(what);
}

template <typename T>
std::optional<std::string> setUnsigned(std::string_view cell, std::optional<T>& out, uint64_t scale = 1) {
  const auto v = toUnsigned(cell);
  if (!v || *v > std::numeric_limits<T>::max() / scale) return notA("a count", cell);
  out = static_cast<T>(*v * scale);
  return std::nullopt;
}

std::optional<std::string> setYesNo(std::string_view cell, std::optional<bool>& out, std::string_view yes,
                                    std::string_view no) {
  if (cell == yes) {
    out = true;
  } else if (cell == no) {
    out = false;
  } else {
    return notA(std::string(yes) + " or " + std::string(no), cell);
  }
  return std::nullopt;
}

struct FieldReader {
  std::string_view name;
  CellReader read;
};

constexpr FieldReader kFieldReaders[] = {
    {"index", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.index); }},
    {"uuid",
     [](std::string_view c, GpuSample& s) -> std::optional<std::string> {
       s.uuid = std::string(c);
       return std::nullopt;
     }},
    {"pci.bus_id",
     [](std::string_view c, GpuSample& s) -> std::optional<std::string> {
       const auto address = parsePciAddress(c);
       if (!address) return notA("a PCI address", c);
       s.pci_bus_id = nvmlBusId(*address);
       return std::nullopt;
     }},
    {"name",
     [](std::string_view c, GpuSample& s) -> std::optional<std::string> {
       s.model_name = std::string(c);
       return std::nullopt;
     }},
    {"temperature.gpu",
     [](std::string_view c, GpuSample& s) -> std::optional<std::string> {
       int32_t v = 0;
       const std::string_view digits = withoutUnit(c);
       const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
       if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return notA("a temperature", c);
       s.temperature_c = v;
       return std::nullopt;
     }},
    {"utilization.gpu", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.utilization_gpu_pct); }},
    {"utilization.memory", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.utilization_memory_pct); }},
    {"memory.used", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.memory_used_bytes, kMiB); }},
    {"memory.total", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.memory_total_bytes, kMiB); }},
    {"power.draw",
     [](std::string_view c, GpuSample& s) -> std::optional<std::string> {
       s.power_draw_mw = toThousandths(c);
       return s.power_draw_mw ? std::nullopt : std::optional(notA("a power in W", c));
     }},
    {"enforced.power.limit",
     [](std::string_view c, GpuSample& s) -> std::optional<std::string> {
       s.power_limit_mw = toThousandths(c);
       return s.power_limit_mw ? std::nullopt : std::optional(notA("a power in W", c));
     }},
    {"ecc.errors.corrected.volatile.total",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.ecc.volatile_corrected); }},
    {"ecc.errors.uncorrected.volatile.total",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.ecc.volatile_uncorrected); }},
    {"ecc.errors.corrected.aggregate.total",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.ecc.aggregate_corrected); }},
    {"ecc.errors.uncorrected.aggregate.total",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.ecc.aggregate_uncorrected); }},
    {"retired_pages.single_bit_ecc.count",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.retired_pages.single_bit); }},
    {"retired_pages.double_bit.count",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.retired_pages.double_bit); }},
    {"retired_pages.pending",
     [](std::string_view c, GpuSample& s) { return setYesNo(c, s.retired_pages.pending, "Yes", "No"); }},
    {"remapped_rows.correctable",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.remapped_rows.correctable); }},
    {"remapped_rows.uncorrectable",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.remapped_rows.uncorrectable); }},
    {"remapped_rows.pending",
     [](std::string_view c, GpuSample& s) { return setYesNo(c, s.remapped_rows.pending, "Yes", "No"); }},
    {"remapped_rows.failure",
     [](std::string_view c, GpuSample& s) { return setYesNo(c, s.remapped_rows.failure, "Yes", "No"); }},
    {"pcie.link.gen.current", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.pcie_link.gen_current); }},
    {"pcie.link.gen.max", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.pcie_link.gen_max); }},
    {"pcie.link.width.current",
     [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.pcie_link.width_current); }},
    {"pcie.link.width.max", [](std::string_view c, GpuSample& s) { return setUnsigned(c, s.pcie_link.width_max); }},
    {"mig.mode.current",
     [](std::string_view c, GpuSample& s) { return setYesNo(c, s.mig_enabled, "Enabled", "Disabled"); }},
};

CellReader readerFor(std::string_view field) {
  for (const FieldReader& f : kFieldReaders) {
    if (f.name == field) return f.read;
  }
  return nullptr;
}

std::vector<std::string_view> splitCells(std::string_view line) {
  std::vector<std::string_view> cells;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return cells;
    start = comma + 1;
  }
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// One row under `fields`. A row with more cells than fields has commas in
// its model name: the surplus is joined back into the name's cell.
std::optional<std::string> parseRow(std::string_view line, const std::vector<std::string>& fields, GpuSample& s) {
  std::vector<std::string_view> raw = splitCells(line);
  std::vector<std::string> cells;
  size_t name_column = fields.size();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == "name") name_column = i;
  }
  const size_t surplus = raw.size() > fields.size() ? raw.size() - fields.size() : 0;
  if (raw.size() < fields.size() || (surplus > 0 && name_column == fields.size())) {
    return std::to_string(raw.size()) + " cells, expected " + std::to_string(fields.size()) + ": \"" +
           std::string(trim(line)) + "\"";
  }
  for (size_t i = 0, r = 0; i < fields.size(); ++i, ++r) {
    std::string cell(raw[r]);
    if (i == name_column) {
      for (size_t k = 0; k < surplus; ++k) cell += "," + std::string(raw[++r]);
    }
    cells.emplace_back(trim(cell));
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const CellReader read = readerFor(fields[i]);
    if (read == nullptr || isAbsent(cells[i])) continue;
    if (auto why = read(cells[i], s)) return fields[i] + ": " + *why;
  }
  return std::nullopt;
}

NvidiaSmiCsv parseRows(const std::vector<std::string_view>& lines, size_t first,
                       const std::vector<std::string>& fields) {
  NvidiaSmiCsv out;
  for (size_t i = first; i < lines.size(); ++i) {
    if (trim(lines[i]).empty()) continue;
    GpuSample s;
    if (auto why = parseRow(lines[i], fields, s)) {
      out.errors.push_back("line " + std::to_string(i + 1) + ": " + *why);
    } else {
      out.gpus.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace

std::string nvidiaSmiQueryCommand(const std::string& program) {
  return program + " --query-gpu=" + std::string(kNvidiaSmiQueryFields) + " --format=csv,noheader,nounits";
}

NvidiaSmiCsv parseNvidiaSmiCsv(std::string_view text) {
  std::vector<std::string> fields;
  for (std::string_view f : splitCells(kNvidiaSmiQueryFields)) fields.emplace_back(f);
  return parseRows(splitLines(text), 0, fields);
}

NvidiaSmiCsv parseNvidiaSmiCsvWithHeader(std::string_view text) {
  const std::vector<std::string_view> lines = splitLines(text);
  size_t header = 0;
  while (header < lines.size() && trim(lines[header]).empty()) ++header;
  if (header == lines.size()) return {};
  std::vector<std::string> fields;
  for (std::string_view cell : splitCells(lines[header])) {
    cell = trim(cell);
    // "memory.used [MiB]": the unit is not part of the field's name.
    const size_t bracket = cell.find(" [");
    fields.emplace_back(trim(cell.substr(0, bracket)));
  }
  return parseRows(lines, header + 1, fields);
}

}  // namespace rdmagw::southbound::gpu
