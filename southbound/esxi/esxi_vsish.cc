#include "southbound/esxi/esxi_vsish.h"

#include <set>
#include <string>

#include "southbound/esxi/esxi_text_util.h"
#include "southbound/esxi/esxi_vsish_pe.h"
#include "southbound/esxi/esxi_vsish_private.h"

namespace rdmagw::southbound::esxi {
namespace {

// vsish generic pNic stats -> state/counters/<leaf> (the esxcli nic stats
// leaves). col, intrxpkt, inttxpkt, intrxdrp, inttxdrp have no row: ignored.
struct GenericRule {
  std::string_view name;
  std::string_view leaf;
};
constexpr GenericRule kGeneric[] = {
    {"rxpkt", "packets-received"},
    {"txpkt", "packets-sent"},
    {"rxbytes", "bytes-received"},
    {"txbytes", "bytes-sent"},
    {"rxerr", "total-receive-errors"},
    {"txerr", "total-transmit-errors"},
    {"rxdrp", "receive-packets-dropped"},
    {"txdrp", "transmit-packets-dropped"},
    {"rxmltcast", "multicast-packets-received"},
    {"rxbrdcast", "broadcast-packets-received"},
    {"txmltcast", "multicast-packets-sent"},
    {"txbrdcast", "broadcast-packets-sent"},
    {"rxlgterr", "receive-length-errors"},
    {"rxoverr", "receive-over-errors"},
    {"rxcrcerr", "receive-crc-errors"},
    {"rxfrmerr", "receive-frame-errors"},
    {"rxfifoerr", "receive-fifo-errors"},
    {"rxmisserr", "receive-missed-errors"},
    {"txaborterr", "transmit-aborted-errors"},
    {"txcarerr", "transmit-carrier-errors"},
    {"txfifoerr", "transmit-fifo-errors"},
    {"txhearterr", "transmit-heartbeat-errors"},
    {"txwinerr", "transmit-window-errors"},
};

const GenericRule* findGeneric(std::string_view name) {
  for (const GenericRule& r : kGeneric) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// Keys whose value is the driver-private block.
bool isPrivateKey(std::string_view key) {
  const std::string f = esxiFoldName(key);
  return f == "hw" || f.find("priv") != std::string::npos || f.find("driver") != std::string::npos;
}

// Emits the generic counters; problems go to *problems.
class Generic {
 public:
  Generic(const std::string& nic, TimestampNs ts, PollBatch& out)
      : nic_(nic), ts_(ts), out_(out) {}

  // true when name is a generic stat (mapped or not).
  bool add(std::string_view name, std::string_view value, size_t line) {
    const GenericRule* r = findGeneric(name);
    if (!r) return false;
    Result<uint64_t> v = esxiParseUnsigned(value);
    if (!v.isOk()) {
      problem(line, std::string(name) + ": " + v.status().message());
    } else if (!seen_.insert(r->leaf).second) {
      problem(line, std::string(name) + " repeated; first value kept");
    } else {
      out_.add(esxiNicStatePath(nic_, "counters/" + std::string(r->leaf)), v.value(), ts_);
      ++kept_;
    }
    return true;
  }
  void problem(size_t line, const std::string& what) {
    problems_.push_back("line " + std::to_string(line) + ": " + what);
  }
  size_t kept() const { return kept_; }
  void finish(const char* form) {
    if (problems_.empty()) return;
    std::string msg = "vsish " + nic_ + " (" + form + "): " + std::to_string(problems_.size()) +
                      " problem(s)";
    for (size_t i = 0; i < problems_.size() && i < 5; ++i) msg += "; " + problems_[i];
    out_.error(std::move(msg));
  }

 private:
  const std::string& nic_;
  TimestampNs ts_;
  PollBatch& out_;
  std::set<std::string_view> seen_;
  std::vector<std::string> problems_;
  size_t kept_ = 0;
};

bool isPeForm(const std::vector<EsxiLine>& lines) {
  for (const EsxiLine& l : lines) {
    std::string_view t = esxiTrim(l.text);
    if (!t.empty() && t.front() == '{') return true;
  }
  return false;
}

size_t parsePe(const std::string& nic, std::string_view text, TimestampNs ts, PollBatch& out) {
  PeParse pe = parsePeObject(text);
  Generic generic(nic, ts, out);
  EsxiPrivateStats priv(nic, ts, out);
  for (const PeMember& m : pe.members) {
    const bool in_private = !m.parent.empty() && isPrivateKey(m.parent);
    if (in_private) {
      if (m.kind == PeMember::Kind::kString) {
        priv.addBlock(m.text);
      } else {
        priv.addStat("", m.key, m.text, m.line);
      }
      continue;
    }
    if (!m.parent.empty()) continue;  // some other nested object: not pNic stats
    if (m.kind == PeMember::Kind::kString && isPrivateKey(m.key)) {
      priv.addBlock(m.text);
      continue;
    }
    if (m.kind == PeMember::Kind::kString) continue;  // "dumsw" and the like
    generic.add(m.key, m.text, m.line);
  }
  if (!pe.error.empty()) generic.problem(0, "-pe syntax: " + pe.error + "; rest not read");
  generic.finish("-pe");
  priv.finish("driver-private block");
  return generic.kept() + priv.kept();
}

// A heading that starts the private block in the plain form.
bool isPrivateHeading(std::string_view t) {
  if (t.empty() || t.front() != '-') return false;
  const std::string f = esxiFoldName(t);
  return f.find("driver") != std::string::npos || f.find("priv") != std::string::npos;
}

size_t parsePlain(const std::string& nic, const std::vector<EsxiLine>& lines, TimestampNs ts,
                  PollBatch& out) {
  Generic generic(nic, ts, out);
  EsxiPrivateStats priv(nic, ts, out);
  bool in_private = false;
  for (const EsxiLine& l : lines) {
    std::string_view t = esxiTrim(l.text);
    if (!l.terminated && !t.empty() && t != "}") {
      generic.problem(l.number, "last line has no line break (output cut off?); dropped");
      continue;
    }
    if (t.empty()) {
      if (in_private) priv.addLine(t, l.number);
      continue;
    }
    if (t.front() == '#' || t.front() == '$' || t == "}" || t.back() == '{') continue;
    if (!in_private && isPrivateHeading(t)) {
      in_private = true;
      continue;
    }
    if (!in_private && t.front() == '-') continue;  // "-Physical NIC Generic Stats-:"
    size_t colon = t.find(':');
    std::string_view name = colon == std::string_view::npos ? t : esxiTrim(t.substr(0, colon));
    std::string_view value = colon == std::string_view::npos ? "" : t.substr(colon + 1);
    if (!in_private && isPrivateKey(name) && findGeneric(name) == nullptr) {
      in_private = true;  // "hw:<first private line>"
      if (!esxiTrim(value).empty()) priv.addLine(value, l.number);
      continue;
    }
    if (in_private) {
      priv.addLine(t, l.number);
      continue;
    }
    if (colon == std::string_view::npos) {
      generic.problem(l.number, "not 'name:value'");
      continue;
    }
    generic.add(name, value, l.number);  // unmapped generic names are ignored
  }
  generic.finish("plain");
  priv.finish("driver-private block");
  return generic.kept() + priv.kept();
}

Status parseNamed(const std::string& nic, std::string_view text, TimestampNs ts,
                  PollBatch& out) {
  if (!esxiValidNicName(nic)) {
    return Status::invalidArgument("vsish stats: bad NIC name '" + nic.substr(0, 64) + "'");
  }
  std::vector<EsxiLine> lines = esxiLines(text);
  const size_t errors_before = out.errors.size();
  const size_t kept = isPeForm(lines) ? parsePe(nic, text, ts, out) : parsePlain(nic, lines, ts, out);
  if (kept > 0) return Status::ok();
  std::string msg = "vsish " + nic + ": no pNic stat found";
  if (std::string err = esxiErrorLine(text); !err.empty()) msg += " (device said: " + err + ")";
  if (out.errors.size() > errors_before) {
    msg += "; " + out.errors[errors_before];
    out.errors.resize(errors_before);  // folded into the status
  }
  return Status::corrupt(msg);
}

}  // namespace

Status parseEsxiVsishStats(std::string_view text, TimestampNs ts, PollBatch& out) {
  std::string nic = esxiNicFromVsishPath(text);
  return parseNamed(nic.empty() ? "unknown" : nic, text, ts, out);
}

Status parseEsxiVsishStatsFor(std::string_view nic, std::string_view text, TimestampNs ts,
                              PollBatch& out) {
  std::string named = esxiNicFromVsishPath(text);
  if (!named.empty() && named != nic) {
    return Status::invalidArgument("vsish stats: asked for " + std::string(nic) +
                                   " but the output is for " + named);
  }
  return parseNamed(std::string(nic), text, ts, out);
}

}  // namespace rdmagw::southbound::esxi
