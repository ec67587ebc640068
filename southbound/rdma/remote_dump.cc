#include "southbound/rdma/remote_dump.h"

#include <map>
#include <memory>
#include <optional>

#include "southbound/rdma/ethtool_text.h"
#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/rdma_collector.h"

namespace rdmagw::southbound::rdma {
namespace {

constexpr std::string_view kHeader = "### rdmagw-remote-dump 1";
constexpr std::string_view kEnd = "### rdmagw-end";
constexpr std::string_view kEthtool = "### ethtool -S ";
constexpr std::string_view kEthtoolFailed = "### ethtool-failed ";
// "### dcb -j <object> show dev <netdev>", object pfc, app, ets or buffer
// (netdev_dcb.h).
constexpr std::string_view kDcb = "### dcb -j ";
constexpr std::string_view kDcbShowDev = " show dev ";
constexpr std::string_view kDcbFailed = "### dcb-failed ";
// "### mlnx_qos -i <netdev>": only for a netdev dcb showed nothing of.
constexpr std::string_view kMlnxQos = "### mlnx_qos -i ";
constexpr std::string_view kMlnxQosFailed = "### mlnx_qos-failed ";
constexpr std::string_view kSkipped = "### rdmagw-skipped";
constexpr std::string_view kReadError = ": <read error>";
constexpr std::string_view kLldpctl = "### lldpctl";

bool isAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// The sh script, one line. Functions: r FILE prints "/sys/FILE: value" (or
// the read-error marker) and leaves the value in $v; a file that is not a
// regular file (a FIFO, a symlink to /dev/zero) is never opened: it reads as
// an error instead of holding the whole dump until the command timeout; nd NAME queues a netdev
// for ethtool. Names from the host pass a character-set check first. Values
// go through printf, not echo (dash's echo would expand backslashes). Reads
// use the `read` builtin: no fork per file; sysfs serves each open from one
// show() call, so a byte-wise read is still one firmware query.
std::string script(const RdmaConfig& c) {
  std::string s;
  s += "exec 2>/dev/null; set -f; R=" + shellQuote(c.sysfs_root) + "; N=; ";
  s += "cd \"$R\" || { echo \"### rdmagw-error cannot enter the sysfs root\"; exit 1; }; ";
  s += "echo \"" + std::string(kHeader) + " ethtool=" +
       (c.ethtool == RdmaConfig::EthtoolMode::kNone ? "0" : "1") + "\"; ";
  s += "r() { case $1 in *[!A-Za-z0-9_./-]*) echo \"" + std::string(kSkipped) +
       " file with an unsafe name\"; return 1;; esac; v=; "
       "if [ -f \"$1\" ] && { IFS= read -r v <\"$1\" || [ -n \"$v\" ]; }; then printf \"%s: %s\\n\" \"/sys/$1\" \"$v\"; "
       "else echo \"/sys/$1" + std::string(kReadError) + "\"; return 1; fi; }; ";
  s += "nd() { case $1 in \"\"|-*|*[!A-Za-z0-9_.@-]*) echo \"" + std::string(kSkipped) +
       " netdev with an unsafe name\"; return;; esac; "
       "case \" $N \" in *\" $1 \"*) ;; *) N=\"$N $1\";; esac; }; ";
  s += "if [ -d class/infiniband ]; then echo /sys/class/infiniband/; else "
       "echo \"### rdmagw-error no class/infiniband\"; fi; ";
  // configfs RDMA CM defaults (ecn_sysfs.h), for the devices kept below.
  s += "[ -d kernel/config/rdma_cm ] && echo /sys/kernel/config/rdma_cm/; ";
  s += "set +f; for d in class/infiniband/*; do set -f; [ -e \"$d\" ] || continue; n=${d##*/}; ";
  if (!c.include_devices.empty()) {
    s += "case $n in ";
    for (size_t i = 0; i < c.include_devices.size(); ++i) {
      s += (i ? "|" : "") + shellCasePattern(c.include_devices[i]);
    }
    s += ") ;; *) continue;; esac; ";
  }
  if (!c.exclude_devices.empty()) {
    s += "case $n in ";
    for (size_t i = 0; i < c.exclude_devices.size(); ++i) {
      s += (i ? "|" : "") + shellCasePattern(c.exclude_devices[i]);
    }
    s += ") continue;; esac; ";
  }
  s += "case $n in -*|*[!A-Za-z0-9_.-]*) echo \"" + std::string(kSkipped) +
       " device with an unsafe name\"; continue;; esac; echo \"/sys/$d/\"; ";
  s += "for f in fw_ver hca_type board_id node_guid; do [ -e \"$d/$f\" ] && r \"$d/$f\"; done; ";
  s += "c=\"kernel/config/rdma_cm/$n\"; if [ -d \"$c/ports\" ]; then echo \"/sys/$c/\"; echo \"/sys/$c/ports/\"; "
       "set +f; for q in \"$c\"/ports/*; do set -f; [ -d \"$q\" ] || continue; case ${q##*/} in *[!0-9]*) continue;; esac; "
       "echo \"/sys/$q/\"; for f in default_roce_tos default_roce_mode; do [ -e \"$q/$f\" ] && r \"$q/$f\"; done; done; "
       "set -f; fi; ";
  s += "set +f; for p in \"$d\"/ports/*; do set -f; [ -d \"$p\" ] || continue; "
       "case ${p##*/} in *[!A-Za-z0-9_.-]*) echo \"" + std::string(kSkipped) +
       " port with an unsafe name\"; continue;; esac; echo \"/sys/$p/\"; ";
  s += "ll=; for f in state phys_state rate link_layer; do [ -e \"$p/$f\" ] && r \"$p/$f\" && "
       "[ $f = link_layer ] && ll=$v; done; ";
  s += "for k in counters hw_counters; do [ -d \"$p/$k\" ] || continue; echo \"/sys/$p/$k/\"; "
       "set +f; for f in \"$p/$k\"/*; do set -f; [ -e \"$f\" ] && r \"$f\"; done; done; ";
  // RoCE: the first GID slot that names a netdev, in slot order, as IbClass.
  s += "if [ \"$ll\" = Ethernet ] && [ -d \"$p/gid_attrs/ndevs\" ]; then "
       "echo \"/sys/$p/gid_attrs/ndevs/\"; i=0; while [ -e \"$p/gid_attrs/ndevs/$i\" ]; do "
       "if r \"$p/gid_attrs/ndevs/$i\" && [ -n \"$v\" ]; then nd \"$v\"; break; fi; "
       "i=$((i+1)); done; fi; done; ";
  // Fallback mapping (IPoIB, old kernels): device/net/<if>[/dev_port].
  s += "if [ -d \"$d/device/net\" ]; then echo \"/sys/$d/device/net/\"; "
       "set +f; for q in \"$d\"/device/net/*; do set -f; [ -e \"$q\" ] || continue; "
       "case ${q##*/} in -*|*[!A-Za-z0-9_.@-]*) echo \"" + std::string(kSkipped) +
       " netdev with an unsafe name\"; continue;; esac; echo \"/sys/$q/\"; nd \"${q##*/}\"; "
       "[ -e \"$q/dev_port\" ] && r \"$q/dev_port\"; done; fi; ";
  s += "done; set -f; ";
  // Each netdev's link and DCB configuration files (netdev_dcb.h), absent
  // ones skipped; `speed` fails to read (EINVAL) while the link is down.
  s += "for x in $N; do for f in mtu operstate flags speed; do [ -e \"class/net/$x/$f\" ] && r \"class/net/$x/$f\"; done; "
       "for k in roce_np roce_rp; do q=\"class/net/$x/ecn/$k/enable\"; [ -d \"$q\" ] || continue; "
       "echo \"/sys/$q/\"; for i in 0 1 2 3 4 5 6 7; do r \"$q/$i\"; done; done; "
       "for f in cnp_dscp cnp_802p_prio; do q=\"class/net/$x/ecn/roce_np/$f\"; [ -e \"$q\" ] && r \"$q\"; done; done; ";
  if (c.ethtool != RdmaConfig::EthtoolMode::kNone) {
    s += "for x in $N; do echo \"" + std::string(kEthtool) + "$x\"; ethtool -S \"$x\"; rc=$?; "
         "[ $rc = 0 ] || echo \"" + std::string(kEthtoolFailed) + "$x $rc\"; ";
    // dcb missing (127) or no DCBNL: the failure line keeps the PFC unknown.
    s += "d=; for o in pfc app ets buffer; do echo \"" + std::string(kDcb) + "$o" + std::string(kDcbShowDev) +
         "$x\"; dcb -j $o show dev \"$x\"; rc=$?; "
         "if [ $rc = 0 ]; then d=1; else echo \"" + std::string(kDcbFailed) + "$x $rc\"; fi; done; ";
    // Where dcb showed nothing of the netdev, NVIDIA's mlnx_qos when the
    // host has it (netdev_dcb.h): never both for one netdev.
    s += "if [ -z \"$d\" ] && command -v mlnx_qos >/dev/null; then echo \"" + std::string(kMlnxQos) +
         "$x\"; mlnx_qos -i \"$x\"; rc=$?; [ $rc = 0 ] || echo \"" + std::string(kMlnxQosFailed) +
         "$x $rc\"; fi; done; ";
  }
  if (c.lldpWanted()) {
    // lldpd's neighbours when its client is installed; nothing otherwise.
    s += "if command -v lldpctl >/dev/null; then echo \"" + std::string(kLldpctl) + "\"; lldpctl -f json0; echo; fi; ";
  }
  s += "echo \"" + std::string(kEnd) + "\"";
  return s;
}

struct EthtoolSection {
  std::string_view body;
  std::optional<std::string> failure;  // exit status text
};

// EthtoolSource over the dump's sections: the collector asks for the netdevs
// its ports map to, exactly as it asks the ioctl or text sources.
class DumpEthtoolSource : public EthtoolSource {
 public:
  DumpEthtoolSource(std::map<std::string, EthtoolSection> sections, std::map<std::string, EthtoolSection> dcb,
                    std::map<std::string, EthtoolSection> mlnx_qos)
      : sections_(std::move(sections)), dcb_(std::move(dcb)), mlnx_qos_(std::move(mlnx_qos)) {}

  Result<std::string> mlnxQosText(const std::string& netdev) override {
    auto it = mlnx_qos_.find(netdev);
    if (it == mlnx_qos_.end() || it->second.failure) return Status::notFound("no mlnx_qos output for " + netdev);
    return std::string(it->second.body);
  }

  Result<std::string> dcbJson(const std::string& object, const std::string& netdev) override {
    auto it = dcb_.find(object + std::string(kDcbShowDev) + netdev);
    if (it == dcb_.end() || it->second.failure) {
      return Status::notFound("no dcb " + object + " output for " + netdev);
    }
    return std::string(it->second.body);
  }

  Result<EthtoolStats> stats(const std::string& netdev) override {
    auto it = sections_.find(netdev);
    if (it == sections_.end()) {
      return Status::notFound("no '" + std::string(kEthtool) + netdev +
                              "' section in the remote dump");
    }
    if (it->second.failure) {
      return Status::ioError("ethtool -S exited with status " + *it->second.failure +
                             " on the remote host");
    }
    EthtoolTextParse parsed = parseEthtoolText(it->second.body);
    if (parsed.skipped_lines > 0) {
      std::string msg = "remote ethtool -S " + netdev + ": skipped " +
                        std::to_string(parsed.skipped_lines) + " line(s) that are not 'name: value'";
      for (const std::string& s : parsed.skipped) msg += "; " + s;
      warnings_.push_back(std::move(msg));
    }
    return std::move(parsed.stats);
  }
  std::vector<std::string> takeWarnings() override { return std::exchange(warnings_, {}); }

 private:
  std::map<std::string, EthtoolSection> sections_;
  std::map<std::string, EthtoolSection> dcb_;  // "<object> show dev <netdev>": `dcb -j` output
  std::map<std::string, EthtoolSection> mlnx_qos_;  // netdev: `mlnx_qos -i` output
  std::vector<std::string> warnings_;
};

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

std::string shellQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

std::string shellCasePattern(std::string_view glob) {
  // A control character can only match a device name the script skips as
  // unsafe anyway; keep the script one line by matching nothing instead.
  for (char c : glob) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "\"\"/";
  }
  auto literal = [](std::string* out, char c) {
    if (!isAlnum(c) && c != '_' && c != '.' && c != '-') out->push_back('\\');
    out->push_back(c);
  };
  std::string out;
  for (size_t i = 0; i < glob.size(); ++i) {
    char c = glob[i];
    if (c == '*' || c == '?') {
      out.push_back(c);
    } else if (c == '\\' && i + 1 < glob.size()) {
      literal(&out, glob[++i]);
    } else if (c == '[') {
      // A bracket expression as fnmatch reads it: optional '!'/'^', a ']'
      // right after is literal, "[:class:]" and "\x" inside; unterminated
      // means a literal '['.
      size_t first = i + 1;
      if (first < glob.size() && (glob[first] == '!' || glob[first] == '^')) ++first;
      size_t close = std::string_view::npos;
      for (size_t k = first; k < glob.size(); ++k) {
        if (glob[k] == ']' && k > first) {
          close = k;
          break;
        }
        if (glob[k] == '\\') {
          ++k;
        } else if (glob.compare(k, 2, "[:") == 0) {
          size_t cls = glob.find(":]", k + 2);
          if (cls != std::string_view::npos) k = cls + 1;
        }
      }
      if (close == std::string_view::npos) {
        literal(&out, c);
        continue;
      }
      out.push_back('[');
      if (first > i + 1) out.push_back('!');
      for (size_t k = first; k < close; ++k) {
        char b = glob[k];
        size_t cls = glob.compare(k, 2, "[:") == 0 ? glob.find(":]", k + 2) : std::string_view::npos;
        if (cls != std::string_view::npos && cls < close) {
          out.append(glob.substr(k, cls + 2 - k));
          k = cls + 1;
        } else if (b == '-' && k > first && k + 1 < close) {
          out.push_back('-');  // a range
        } else if (b == '\\' && k + 1 < close) {
          literal(&out, glob[++k]);
        } else {
          out.push_back('\\');
          out.push_back(b);
        }
      }
      out.push_back(']');
      i = close;
    } else {
      literal(&out, c);
    }
  }
  return out.empty() ? "\"\"" : out;
}

std::string remoteDumpCommand(const RdmaConfig& config) {
  return "sh -c " + shellQuote(script(config));
}

Status parseRemoteDump(std::string_view text, TimestampNs ts, PollBatch& out) {
  // A dump cut mid-line could end in a cut number: drop the partial line.
  if (!text.empty() && text.back() != '\n') {
    size_t nl = text.rfind('\n');
    std::string_view cut = text.substr(nl == std::string_view::npos ? 0 : nl + 1);
    out.error("remote dump: last line has no line break (output cut off?); dropped: " +
              std::string(cut.substr(0, 80)));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(0, nl + 1);
  }
  size_t header = text.find(kHeader);
  if (header == std::string_view::npos || (header > 0 && text[header - 1] != '\n')) {
    std::string first(text.substr(0, text.find('\n')).substr(0, 120));
    return Status::corrupt("not an rdmagw remote dump (no '" + std::string(kHeader) +
                           "' line); output starts: " + first);
  }
  text.remove_prefix(header);
  const bool ethtool = startsWith(text, std::string(kHeader) + " ethtool=1");

  // Split: the sysfs part runs up to the first ethtool section.
  std::string_view sysfs = text;
  std::map<std::string, EthtoolSection> sections;
  std::map<std::string, EthtoolSection> dcb_sections;
  std::map<std::string, EthtoolSection> mlnx_sections;
  std::vector<std::string> read_failed;
  bool ended = false;
  std::string_view rest = text;
  EthtoolSection* current = nullptr;
  size_t section_start = 0;
  std::optional<size_t> lldp_start;  // the lldpctl section, up to the end line
  std::string_view lldp_text;
  auto closeSection = [&](size_t end) {
    if (current) current->body = text.substr(section_start, end - section_start);
    current = nullptr;
  };
  size_t offset = 0;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    size_t line_start = offset;
    size_t advance = nl == std::string_view::npos ? rest.size() : nl + 1;
    rest.remove_prefix(advance);
    offset += advance;
    if (!startsWith(line, "###")) {
      if (!current && line.size() > kReadError.size() && line.ends_with(kReadError) &&
          startsWith(line, "/sys/")) {
        read_failed.emplace_back(line.substr(5, line.size() - 5 - kReadError.size()));
      }
      continue;
    }
    if (startsWith(line, kSkipped)) {
      out.error("remote dump: " + std::string(line.substr(4)));
    } else if (line == kLldpctl) {
      if (sysfs.size() == text.size()) sysfs = text.substr(0, line_start);
      closeSection(line_start);
      lldp_start = offset;
    } else if (startsWith(line, kEthtool) || startsWith(line, kDcb) || startsWith(line, kMlnxQos) ||
               startsWith(line, kEnd)) {
      if (sysfs.size() == text.size()) sysfs = text.substr(0, line_start);
      closeSection(line_start);
      if (lldp_start) lldp_text = text.substr(*lldp_start, line_start - *lldp_start);
      lldp_start.reset();
      if (startsWith(line, kEnd)) {
        ended = true;
        break;
      }
      const bool dcb = startsWith(line, kDcb), mlnx = startsWith(line, kMlnxQos);
      // The netdev, or for dcb "<object> show dev <netdev>".
      std::string key(line.substr(dcb ? kDcb.size() : mlnx ? kMlnxQos.size() : kEthtool.size()));
      auto [it, fresh] = (dcb ? dcb_sections : mlnx ? mlnx_sections : sections).try_emplace(key);
      if (fresh) {
        current = &it->second;
        section_start = offset;
      }
    } else if ((startsWith(line, kEthtoolFailed) || startsWith(line, kDcbFailed) ||
                startsWith(line, kMlnxQosFailed)) &&
               current) {
      std::string_view f = line.substr(line.find(' ', 4) + 1);
      current->failure = std::string(f.substr(f.rfind(' ') + 1));
    }
  }
  closeSection(offset);
  if (lldp_start) lldp_text = text.substr(*lldp_start);  // cut off: what arrived
  if (!ended) out.error("remote dump: no '" + std::string(kEnd) + "' line (output truncated?)");

  MemorySysfsReader reader = MemorySysfsReader::fromDump(sysfs, &out.errors);
  for (const std::string& rel : read_failed) {
    reader.failRead(rel, Status::ioError("/sys/" + rel + ": read failed on the remote host"));
  }
  EthtoolSourcePtr source;
  if (ethtool) {
    source = std::make_unique<DumpEthtoolSource>(std::move(sections), std::move(dcb_sections),
                                                 std::move(mlnx_sections));
  }
  RdmaCollector collector(std::make_unique<MemorySysfsReader>(std::move(reader)), DeviceFilter(),
                          std::move(source), [ts] { return ts; });
  if (!lldp_text.empty()) collector.setLldp(std::make_unique<LldpText>(std::string(lldp_text)));
  return collector.poll(out);
}

}  // namespace rdmagw::southbound::rdma
