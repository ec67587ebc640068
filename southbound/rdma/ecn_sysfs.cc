#include "southbound/rdma/ecn_sysfs.h"

#include <optional>

#include "southbound/text/roce_text.h"

namespace rdmagw::southbound::rdma {

using text::Problems;
using text::parseBounded;
using text::trimBlanks;

namespace {

using rdmagw::roce::kPriorities;

// A value file as a number <= max; a problem line otherwise. Missing files
// (kNotFound) are quiet: older drivers lack cnp_802p_prio.
std::optional<uint64_t> numberFile(rdma::SysfsReader& reader, const std::string& rel, uint64_t max, Problems& p) {
  Result<std::string> text = reader.readFile(rel);
  if (!text.isOk()) {
    if (text.status().code() != Status::Code::kNotFound) p.add(reader.displayPath(rel) + ": " + text.status().message());
    return std::nullopt;
  }
  Result<uint64_t> n = parseBounded(*text, max);
  if (!n.isOk()) {
    p.add(reader.displayPath(rel) + ": " + n.status().message());
    return std::nullopt;
  }
  return *n;
}

std::optional<uint8_t> enableBitmap(rdma::SysfsReader& reader, const std::string& dir, Problems& p) {
  uint8_t bits = 0;
  bool complete = true;
  for (int prio = 0; prio < kPriorities; ++prio) {
    std::optional<uint64_t> on = numberFile(reader, dir + "/" + std::to_string(prio), 1, p);
    if (!on) complete = false;
    else if (*on) bits |= uint8_t(1u << prio);
  }
  if (!complete) return std::nullopt;
  return bits;
}

}  // namespace

Status readEcnKnobs(rdma::SysfsReader& reader, const std::string& netdev, rdmagw::roce::HostPort& port) {
  const std::string ecn = "class/net/" + netdev + "/ecn";
  Result<std::vector<std::string>> dirs = reader.listDir(ecn);
  if (!dirs.isOk()) return Status::notFound(reader.displayPath(ecn) + ": no ECN knobs (not an mlx5 netdev)");
  Problems p("ecn knobs of " + netdev);
  if (auto np = enableBitmap(reader, ecn + "/roce_np/enable", p)) port.dcqcn.np_enabled = np;
  if (auto rp = enableBitmap(reader, ecn + "/roce_rp/enable", p)) port.dcqcn.rp_enabled = rp;
  if (auto d = numberFile(reader, ecn + "/roce_np/cnp_dscp", rdmagw::roce::kMaxDscp, p)) port.dcqcn.cnp_dscp = uint32_t(*d);
  if (auto c = numberFile(reader, ecn + "/roce_np/cnp_802p_prio", kPriorities - 1, p)) port.dcqcn.cnp_802p_prio = uint32_t(*c);
  return p.status();
}

Status readRdmaCmDefaults(rdma::SysfsReader& reader, std::vector<rdmagw::roce::RdmaCmPort>& out) {
  const std::string root = "kernel/config/rdma_cm";
  Result<std::vector<std::string>> devs = reader.listDir(root);
  if (!devs.isOk()) return Status::notFound(reader.displayPath(root) + ": no RDMA CM configfs directory");
  Problems p("rdma_cm configfs");
  for (const std::string& dev : *devs) {
    const std::string ports_dir = root + "/" + dev + "/ports";
    Result<std::vector<std::string>> ports = reader.listDir(ports_dir);
    if (!ports.isOk()) {
      p.add(reader.displayPath(ports_dir) + ": " + ports.status().message());
      continue;
    }
    for (const std::string& name : *ports) {
      Result<uint64_t> n = parseBounded(name, UINT32_MAX);
      if (!n.isOk()) continue;  // not a port directory
      rdmagw::roce::RdmaCmPort cm;
      cm.device = dev;
      cm.port = uint32_t(*n);
      const std::string dir = ports_dir + "/" + name;
      if (auto tos = numberFile(reader, dir + "/default_roce_tos", 255, p)) cm.default_roce_tos = uint32_t(*tos);
      Result<std::string> mode = reader.readFile(dir + "/default_roce_mode");
      if (mode.isOk()) {
        const std::string_view m = trimBlanks(*mode);
        if (m == "RoCE v2" || m == "IB/RoCE v1") cm.default_roce_mode = std::string(m);
        else p.add(reader.displayPath(dir + "/default_roce_mode") + ": '" + std::string(m.substr(0, 24)) +
                   "' is neither 'RoCE v2' nor 'IB/RoCE v1'");
      } else if (mode.status().code() != Status::Code::kNotFound) {
        p.add(reader.displayPath(dir + "/default_roce_mode") + ": " + mode.status().message());
      }
      out.push_back(std::move(cm));
    }
  }
  return p.status();
}

}  // namespace rdmagw::southbound::rdma
