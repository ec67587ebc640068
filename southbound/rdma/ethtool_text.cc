#include "southbound/rdma/ethtool_text.h"

#include "common/file_text.h"
#include "southbound/rdma/sysfs_values.h"

namespace rdmagw::southbound::rdma {
namespace {

constexpr size_t kKeptSkipped = 5;  // enough to see the pattern in an error line

// "# ethtool -S ens1f0 | grep pause" or "$ sudo ethtool -S ens1f0": a shell
// prompt line that runs ethtool. Prose comments that merely mention
// `ethtool -S` do not count.
std::optional<std::string> netdevFromCommand(std::string_view line) {
  line = trimValue(line.substr(1));
  if (line.substr(0, 5) == "sudo ") line = trimValue(line.substr(5));
  for (std::string_view cmd : {"ethtool -S ", "ethtool --statistics "}) {
    if (line.substr(0, cmd.size()) != cmd) continue;
    std::string_view rest = trimValue(line.substr(cmd.size()));
    std::string_view name = rest.substr(0, rest.find_first_of(" \t|"));
    if (!name.empty()) return std::string(name);
  }
  return std::nullopt;
}

}  // namespace

EthtoolTextParse parseEthtoolText(std::string_view text) {
  EthtoolTextParse out;
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    std::string_view line = trimValue(raw);
    if (line.empty()) continue;
    if (line.front() == '#' || line.front() == '$') {
      if (!out.netdev) out.netdev = netdevFromCommand(line);
      continue;
    }
    if (line == "NIC statistics:") continue;
    // The value is numeric, so the name ends at the LAST ':' (ice prints
    // names such as "tx_priority_0_xon.nic").
    size_t colon = line.rfind(':');
    std::string_view name = colon == std::string_view::npos ? "" : trimValue(line.substr(0, colon));
    Result<uint64_t> value = colon == std::string_view::npos
                                 ? Result<uint64_t>(Status::corrupt("no ':'"))
                                 : parseCounter(line.substr(colon + 1));
    if (name.empty() || !value.isOk()) {
      ++out.skipped_lines;
      if (out.skipped.size() < kKeptSkipped) {
        out.skipped.push_back("line " + std::to_string(line_no) + ": " +
                              std::string(line.substr(0, 80)));
      }
      continue;
    }
    out.stats.emplace_back(std::string(name), value.value());
  }
  return out;
}

Result<EthtoolStats> EthtoolText::stats(const std::string& netdev) {
  if (netdev.empty() || netdev.find('/') != std::string::npos || netdev[0] == '.') {
    return Status::invalidArgument("ethtool text: bad netdev name '" + netdev + "'");
  }
  const std::string path = dir_ + "/" + netdev + ".txt";
  const common::FileText text = common::readFileText(path);
  if (!text.ok()) return Status::notFound("ethtool text: cannot open " + path);
  EthtoolTextParse parsed = parseEthtoolText(text.text);
  if (parsed.skipped_lines > 0) {
    std::string msg = path + ": skipped " + std::to_string(parsed.skipped_lines) +
                      " line(s) that are not 'name: value'";
    for (const std::string& s : parsed.skipped) msg += "; " + s;
    warnings_.push_back(std::move(msg));
  }
  return std::move(parsed.stats);
}

namespace {

// <dir>/<netdev><suffix>; NotFound when there is no such file.
Result<std::string> netdevFile(const std::string& dir, const std::string& netdev, const std::string& suffix,
                               const char* what) {
  if (netdev.empty() || netdev.find('/') != std::string::npos || netdev[0] == '.') {
    return Status::invalidArgument(std::string(what) + ": bad netdev name '" + netdev + "'");
  }
  const std::string path = dir + "/" + netdev + suffix;
  common::FileText text = common::readFileText(path);
  if (!text.ok()) return Status::notFound(std::string(what) + ": cannot open " + path);
  return std::move(text.text);
}

}  // namespace

Result<std::string> EthtoolText::dcbJson(const std::string& object, const std::string& netdev) {
  return netdevFile(dir_, netdev, ".dcb-" + object + ".json", "dcb text");
}

Result<std::string> EthtoolText::mlnxQosText(const std::string& netdev) {
  return netdevFile(dir_, netdev, ".mlnx_qos.txt", "mlnx_qos text");
}

std::vector<std::string> EthtoolText::takeWarnings() { return std::exchange(warnings_, {}); }

}  // namespace rdmagw::southbound::rdma
