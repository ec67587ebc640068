#include "southbound/rdma/netdev_dcb.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "models/ethernet_speed.h"
#include "models/path.h"
#include "models/roce_leaves.h"
#include "southbound/rdma/dcb_show.h"
#include "southbound/rdma/local_tool.h"
#include "southbound/rdma/mlnx_qos_text.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::rdma {
namespace {

using text::JsonNode;

Path ifBase(const std::string& netdev) {
  Path p;
  p.add("interfaces").add("interface", {{"name", netdev}});
  return p;
}

// A sysfs value file's content as a number. NotFound stays quiet; a read
// failure or a value that is not a number is an error line.
std::optional<uint64_t> numberOf(const Result<std::string>& text, SysfsReader& reader,
                                 const std::string& rel, PollBatch& batch) {
  if (!text.isOk()) {
    if (text.status().code() != Status::Code::kNotFound) {
      batch.error(reader.displayPath(rel) + ": " + text.status().message());
    }
    return std::nullopt;
  }
  std::string_view v = *text;
  while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.remove_suffix(1);
  uint64_t n = 0;
  if (v.empty() || v.size() > 10) n = UINT64_MAX;
  for (char c : v) {
    if (c < '0' || c > '9') n = UINT64_MAX;
    if (n != UINT64_MAX) n = n * 10 + uint64_t(c - '0');
  }
  if (n == UINT64_MAX) {
    batch.error(reader.displayPath(rel) + ": not a number: '" + std::string(v.substr(0, 40)) + "'");
    return std::nullopt;
  }
  return n;
}

// ecn/roce_np/enable/0..7 (read as one directory) as a bitmap; nothing when
// one of them is missing or cannot be read.
std::optional<uint64_t> knobBitmap(SysfsReader& reader, const std::string& dir,
                                   const std::vector<SysfsFile>& files, PollBatch& batch) {
  uint64_t bits = 0;
  for (int p = 0; p < 8; ++p) {
    const std::string name = std::to_string(p);
    auto f = std::find_if(files.begin(), files.end(), [&](const SysfsFile& x) { return x.name == name; });
    if (f == files.end()) return std::nullopt;
    std::optional<uint64_t> on = numberOf(f->content, reader, dir + "/" + name, batch);
    if (!on) return std::nullopt;
    if (*on != 0) bits |= uint64_t(1) << p;
  }
  return bits;
}

// A parser's result as the leaf's value.
template <typename T, Result<T> (*parse)(std::string_view)>
Result<Value> asValue(std::string_view json) {
  Result<T> r = parse(json);
  if (!r.isOk()) return r.status();
  return Value{*r};
}

// One `dcb -j <object> show` read: the object, its leaf under
// interfaces/interface/ethernet, and its JSON -> value.
struct DcbObject {
  const char* object;
  const char* container;
  const char* leaf;
  Result<Value> (*parse)(std::string_view json);
};
constexpr DcbObject kDcbObjects[] = {
    {"pfc", "pfc", "enabled-priorities", asValue<uint64_t, parseDcbPfcJson>},
    {"app", "dcb", "trust", asValue<std::string, parseDcbAppTrust>},
};

std::string objectPath(const DcbObject& o, const std::string& netdev) {
  return ifBase(netdev).add("ethernet").add(o.container).add("state").add(o.leaf).toString();
}

// What this poll's `dcb` runs for one netdev said so far.
struct DcbRuns {
  bool answered = false;  // anything but NotFound: dcb knows the netdev
  bool hung = false;      // a run was killed at its deadline: ask no more this poll
};

// One `dcb -j <object> show` document, or nothing (absent quietly, or an
// error line when the source failed otherwise).
std::optional<std::string> dcbDocument(EthtoolSource& source, const char* object, const std::string& netdev,
                                       DcbRuns& runs, PollBatch& batch) {
  if (runs.hung) return std::nullopt;
  Result<std::string> json = source.dcbJson(object, netdev);
  if (!json.isOk()) {
    if (json.status().code() != Status::Code::kNotFound) {
      runs.answered = true;
      runs.hung = json.status().code() == Status::Code::kUnavailable;
      batch.error(json.status().message());
    }
    return std::nullopt;
  }
  runs.answered = true;
  return std::move(*json);
}

bool appendDcbObject(const DcbObject& o, const std::string& json, const std::string& netdev, TimestampNs ts,
                     PollBatch& batch) {
  Result<Value> v = o.parse(json);
  if (!v.isOk()) {
    batch.error(netdev + ": " + v.status().message());
    return false;
  }
  batch.add(objectPath(o, netdev), std::move(*v), ts);
  return true;
}

// A parse of the RoCE configuration: what parsed is kept, a problem is an
// error line naming the netdev.
void keepParsed(const Status& st, const std::string& netdev, PollBatch& batch) {
  if (!st.isOk()) batch.error(netdev + ": " + st.message());
}

// A host whose DCB `dcb` does not show (not installed, or too old for the
// netdev's objects) but NVIDIA's `mlnx_qos -i` does: the same port fields
// from its text, trust and PFC included. Nothing from it: quietly unknown.
void readMlnxQos(EthtoolSource& source, const std::string& netdev, rdmagw::roce::HostPort& port, PollBatch& batch) {
  Result<std::string> text = source.mlnxQosText(netdev);
  if (!text.isOk()) {
    if (text.status().code() != Status::Code::kNotFound) batch.error(text.status().message());
    return;
  }
  keepParsed(parseMlnxQos(*text, port), netdev, batch);
}

// `rdmagw parse`: the netdev named by a "# dcb -j <object> show dev <if>" line.
Status parseDcbShow(const DcbObject& o, std::string_view text, TimestampNs ts, PollBatch& out) {
  std::string netdev = "unknown";
  const std::string named = std::string("# dcb -j ") + o.object + " show dev ";
  if (text.starts_with(named)) {
    const size_t nl = text.find('\n');
    netdev = std::string(text.substr(named.size(), nl - named.size()));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  Result<Value> v = o.parse(text);
  if (!v.isOk()) return v.status();
  out.add(objectPath(o, netdev), std::move(*v), ts);
  return Status::ok();
}

}  // namespace

Result<uint64_t> parseDcbPfcJson(std::string_view text) { return parseDcbPrioPfc(text); }

Result<std::string> parseDcbAppTrust(std::string_view text) {
  const text::JsonParse doc = text::parseJson(text);
  if (!doc.complete) return Status::corrupt("dcb app JSON: " + doc.error);
  if (doc.root().kind != JsonNode::Kind::kObject) return Status::corrupt("dcb app JSON: not an object");
  const JsonNode* dscp = doc.root().get("dscp_prio");
  if (dscp == nullptr) return std::string("pcp");
  if (dscp->kind != JsonNode::Kind::kArray) return Status::corrupt("dcb app JSON: dscp_prio is not an array");
  return std::string(dscp->children().empty() ? "pcp" : "dscp");
}

Result<std::string> runDcbShow(const std::string& object, const std::string& netdev) {
  return runLocalTool({"dcb", "-j", object, "show", "dev", netdev},
                      "dcb " + object + " show dev " + netdev + ": no DCB support");
}

Result<std::string> runMlnxQos(const std::string& netdev) {
  return runLocalTool({"mlnx_qos", "-i", netdev}, "mlnx_qos -i " + netdev + ": failed (not an mlx5 netdev?)");
}

namespace {

// The netdev's link: operstate (RFC 2863 words, as OpenConfig's
// oper-status spells them), the IFF_UP flag as admin-status, and speed in
// Mb/s, which the kernel reports as -1 (or fails to read: EINVAL) while the
// link is down: no speed then, not an error.
void appendNetdevLink(SysfsReader& reader, const std::string& dir, const std::string& netdev, TimestampNs ts,
                      PollBatch& batch) {
  auto trimmed = [](std::string_view v) {
    while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.remove_suffix(1);
    return v;
  };
  if (Result<std::string> oper = reader.readFile(dir + "/operstate"); oper.isOk()) {
    static constexpr std::pair<std::string_view, std::string_view> kOper[] = {
        {"up", "UP"},           {"down", "DOWN"},       {"lowerlayerdown", "LOWER_LAYER_DOWN"},
        {"dormant", "DORMANT"}, {"testing", "TESTING"}, {"notpresent", "NOT_PRESENT"},
    };
    const std::string_view word = trimmed(*oper);
    std::string_view status = "UNKNOWN";
    for (const auto& [k, v] : kOper) {
      if (k == word) status = v;
    }
    batch.add(ifBase(netdev).add("state").add("oper-status").toString(), Value{std::string(status)}, ts);
  }
  if (Result<std::string> flags = reader.readFile(dir + "/flags"); flags.isOk()) {
    const std::string text(trimmed(*flags));
    char* end = nullptr;
    const unsigned long bits = std::strtoul(text.c_str(), &end, 16);
    if (!text.empty() && end != nullptr && *end == '\0') {
      batch.add(ifBase(netdev).add("state").add("admin-status").toString(),
                Value{std::string((bits & 0x1) != 0 ? "UP" : "DOWN")}, ts);
    } else {
      batch.error(reader.displayPath(dir + "/flags") + ": not a hex number: '" + text.substr(0, 40) + "'");
    }
  }
  Result<std::string> speed = reader.readFile(dir + "/speed");
  if (!speed.isOk()) return;  // EINVAL while down, or no such file: no speed
  const std::string_view text = trimmed(*speed);
  if (text.empty() || text.front() == '-') return;  // -1: unknown (down)
  if (std::optional<uint64_t> mbps = numberOf(speed, reader, dir + "/speed", batch); mbps && *mbps > 0) {
    const uint64_t bps = *mbps * 1'000'000;
    batch.add(interfaceSpeedPath(netdev), Value{bps}, ts);
    batch.add(portSpeedPath(netdev), Value{std::string(ethernetSpeedIdentity(bps))}, ts);
  }
}

}  // namespace

void appendNetdevDcb(SysfsReader& reader, EthtoolSource* source, const std::string& netdev,
                     TimestampNs ts, PollBatch& batch) {
  const std::string dir = "class/net/" + netdev;
  if (std::optional<uint64_t> mtu = numberOf(reader.readFile(dir + "/mtu"), reader, dir + "/mtu", batch)) {
    batch.add(ifBase(netdev).add("state").add("mtu").toString(), Value{*mtu}, ts);
  }
  appendNetdevLink(reader, dir, netdev, ts, batch);
  for (const char* point : {"np", "rp"}) {
    const std::string knobs = dir + "/ecn/roce_" + point + "/enable";
    Result<std::vector<SysfsFile>> files = reader.readDir(knobs);
    if (!files.isOk()) continue;  // not an mlx5 netdev: no DCQCN knobs
    if (std::optional<uint64_t> bits = knobBitmap(reader, knobs, files.value(), batch)) {
      Path p = ifBase(netdev).add("ethernet").add("dcqcn").add("state");
      batch.add(p.add(std::string(point) + "-enabled-priorities").toString(), Value{*bits}, ts);
    }
  }
  // The RoCE configuration beyond the consistency leaves: the CNP knobs, and
  // with `dcb` (else `mlnx_qos`) the DSCP map, ETS and receive buffers
  // (models/roce_leaves.h).
  rdmagw::roce::HostPort port;
  port.name = netdev;
  const std::string np = dir + "/ecn/roce_np/";
  if (auto d = numberOf(reader.readFile(np + "cnp_dscp"), reader, np + "cnp_dscp", batch)) {
    if (*d <= uint64_t(rdmagw::roce::kMaxDscp)) port.dcqcn.cnp_dscp = uint32_t(*d);
    else batch.error(reader.displayPath(np + "cnp_dscp") + ": " + std::to_string(*d) + " is not a DSCP (0..63)");
  }
  if (auto c = numberOf(reader.readFile(np + "cnp_802p_prio"), reader, np + "cnp_802p_prio", batch)) {
    if (*c < uint64_t(rdmagw::roce::kPriorities)) port.dcqcn.cnp_802p_prio = uint32_t(*c);
    else batch.error(reader.displayPath(np + "cnp_802p_prio") + ": " + std::to_string(*c) + " is not a priority (0..7)");
  }
  if (source != nullptr) {
    DcbRuns dcb;
    for (const DcbObject& o : kDcbObjects) {
      std::optional<std::string> json = dcbDocument(*source, o.object, netdev, dcb, batch);
      if (!json) continue;
      // The APP table's rules also give the DSCP map (its trust leaf is above;
      // a broken document is that one error line).
      if (appendDcbObject(o, *json, netdev, ts, batch) && std::string_view(o.object) == "app") {
        keepParsed(parseDcbJson("app", *json, port), netdev, batch);
      }
    }
    for (const char* object : {"ets", "buffer"}) {
      if (std::optional<std::string> json = dcbDocument(*source, object, netdev, dcb, batch)) {
        keepParsed(parseDcbJson(object, *json, port), netdev, batch);
      }
    }
    port.trust.reset();  // written above, from the same document
    // Never both tools for one port: dcb, when it says anything, wins.
    if (!dcb.answered) readMlnxQos(*source, netdev, port, batch);
  }
  rdmagw::roce::appendHostPortLeaves(port, ts, batch);
}

Status parseDcbPfcShow(std::string_view text, TimestampNs ts, PollBatch& out) {
  return parseDcbShow(kDcbObjects[0], text, ts, out);
}

Status parseDcbAppShow(std::string_view text, TimestampNs ts, PollBatch& out) {
  return parseDcbShow(kDcbObjects[1], text, ts, out);
}

Status parseMlnxQosShow(std::string_view text, TimestampNs ts, PollBatch& out) {
  rdmagw::roce::HostPort port;
  port.name = "unknown";
  // The command line, as a '#' line or a shell prompt, names the netdev.
  constexpr std::string_view kCommand = "mlnx_qos -i ";
  for (size_t at = 0; at < text.size();) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    const size_t cmd = line.find(kCommand);
    if (cmd == std::string_view::npos) continue;
    std::string_view name = line.substr(cmd + kCommand.size());
    name = name.substr(0, name.find_first_of(" \t\r"));
    if (!name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@-") ==
                             std::string_view::npos) {
      port.name = std::string(name);
    }
    break;
  }
  const Status st = parseMlnxQos(text, port);
  if (st.code() == Status::Code::kCorrupt) return st;
  rdmagw::roce::appendHostPortLeaves(port, ts, out);
  if (!st.isOk()) out.error(port.name + ": " + st.message());
  return Status::ok();
}

}  // namespace rdmagw::southbound::rdma
