#include "southbound/gnmi/mapping/notification_mapper.h"

#include "models/ethernet_speed.h"

#include <algorithm>
#include <array>
#include <set>

#include "southbound/gnmi/mapping/json_flatten.h"
#include "southbound/gnmi/mapping/mapping_table.h"
#include "southbound/gnmi/mapping/name_transforms.h"
#include "southbound/gnmi/mapping/path_buffer.h"
#include "southbound/gnmi/mapping/scalar.h"
#include "southbound/text/json_reader.h"

namespace rdmagw::southbound::gnmi {
namespace {

using text::JsonDom;
using text::JsonNode;

// Per-thread buffers: a Notification of 100 updates costs 100 output path
// strings and nothing else once these have grown.
struct Scratch {
  PathBuffer path;
  JsonDom dom;
  std::deque<std::string> json_arena;
  std::string keyless;
  std::string value;
  std::string leaflist;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

enum class Bind : uint8_t { kBound, kMissingKey, kNoMatch };

struct Bindings {
  std::array<std::string_view, kMaxVars> value;
  std::array<bool, kMaxVars> bound{};
};

// The value an element holds for a pattern key, if any.
bool elemKey(const PathBuffer& p, const ElemRef& e, const PatternKey& k, std::string_view& out) {
  if (k.key.empty()) {
    if (e.has_rn) {
      out = e.rn;
      return true;
    }
    if (e.key_end - e.key_begin != 1) return false;
    // An element-with-key form of a DME rn: phys[name=eth1/1] or
    // phys[name=phys-[eth1/1]].
    out = p.keys[e.key_begin].value;
    size_t open = out.find("-[");
    if (open != std::string_view::npos && out.back() == ']') out = out.substr(open + 2, out.size() - open - 3);
    return true;
  }
  for (uint32_t i = e.key_begin; i < e.key_end; ++i) {
    if (p.keys[i].name == k.key) {
      out = p.keys[i].value;
      return true;
    }
  }
  return false;
}

// Binds the row's captures from the first p.elems.size() elements. `full`:
// every capture must be present (an update); otherwise absent captures stay
// unbound (a delete of a whole list).
Bind bind(const CompiledRow& row, const PathBuffer& p, bool full, Bindings& b, std::string* missing) {
  size_t n = std::min(p.elems.size(), row.source.size());
  for (size_t i = 0; i < n; ++i) {
    if (p.elems[i].name != row.source[i].name) return Bind::kNoMatch;
    for (const PatternKey& k : row.source[i].keys) {
      if (k.var == -2) continue;
      std::string_view v;
      bool found = elemKey(p, p.elems[i], k, v);
      if (k.var == -1) {
        if (found && v != k.value) return Bind::kNoMatch;
        continue;
      }
      if (!found) {
        if (!full) continue;
        *missing = row.source[i].name + (k.key.empty() ? std::string("-[...]") : "[" + k.key + "]");
        return Bind::kMissingKey;
      }
      b.value[k.var] = v;
      b.bound[k.var] = true;
    }
  }
  return Bind::kBound;
}

// Model path of the first `depth` target elements; unbound keys become "*"
// (a wildcard for Store::remove). False when a transform does not apply
// (a queue class with no qos-group number): the leaf is then kept unmapped.
bool render(const CompiledRow& row, size_t depth, const Bindings& b, std::string& out) {
  out.reserve(out.size() + 96);
  for (size_t i = 0; i < depth && i < row.target.size(); ++i) {
    const TargetElem& e = row.target[i];
    out.push_back('/');
    out.append(e.name);
    for (const TargetKey& k : e.keys) {
      out.push_back('[');
      out.append(k.key);
      out.push_back('=');
      if (!b.bound[k.var]) {
        out.push_back('*');
      } else {
        std::string_view v = b.value[k.var];
        std::string_view t;
        switch (k.xform) {
          case Xform::kNone:
            appendEscapedValue(out, v);
            break;
          case Xform::kIfName: {
            std::string& tmp = scratch().value;
            tmp.clear();
            appendIfName(v, tmp);
            appendEscapedValue(out, tmp);
            break;
          }
          case Xform::kQosGroup:
            if (!qosGroupOf(v, t)) return false;
            out.append(t);
            break;
          case Xform::kPriority:
            if (!priorityOf(v, t)) return false;
            out.append(t);
            break;
        }
      }
      out.push_back(']');
    }
  }
  return true;
}

class Mapper final : public JsonLeafSink {
 public:
  Mapper(Scratch& s, MappedNotification& out, TimestampNs ts) : s_(s), out_(out), ts_(ts) {}

  void leaf(const PathBuffer& p, const JsonNode& v) override { emit(p, scalarFromJson(v)); }

  void error(std::string message) override { out_.errors.push_back(here(s_.path) + ": " + message); }

  void emit(const PathBuffer& p, const Scalar& v) {
    s_.keyless.clear();
    p.appendKeyless(s_.keyless);
    if (const CompiledRow* row = MappingTable::instance().find(s_.keyless)) {
      Bindings b;
      std::string missing;
      switch (bind(*row, p, true, b, &missing)) {
        case Bind::kMissingKey:
          out_.errors.push_back(here(p) + ": no key " + missing + ", leaf dropped");
          return;
        case Bind::kNoMatch:
          break;
        case Bind::kBound: {
          std::string path;
          if (!render(*row, row->target.size(), b, path)) break;
          if (row->row->value == ValueRule::kEthernetSpeed) return speed(p, v, std::move(path));
          if (row->row->value == ValueRule::kAsSent) {  // state leaves: oper-status, description
            out_.updates.push_back(Update{std::move(path), toValue(v), ts_, {}});
            return;
          }
          uint64_t c;
          if (!toCounter(v, c)) {
            out_.errors.push_back(here(p) + ": counter value " + describe(v) + " is not a count, leaf dropped");
            return;
          }
          out_.updates.push_back(Update{std::move(path), Value{c}, ts_, CounterSource::monotonic64()});
          return;
        }
      }
    }
    std::string path;
    p.appendCanonical(path);
    out_.updates.push_back(Update{std::move(path), toValue(v), ts_, {}});
  }

  // port-speed / negotiated-port-speed: the identity, bare, and its rate at
  // the interface's state/speed; SPEED_UNKNOWN writes no rate.
  void speed(const PathBuffer& p, const Scalar& v, std::string path) {
    if (v.kind != Scalar::Kind::kString || !isEthernetSpeedIdentity(v.text)) {
      out_.errors.push_back(here(p) + ": " + describe(v) + " is not an ETHERNET_SPEED identity, leaf dropped");
      return;
    }
    const std::string_view bare = bareSpeedIdentity(v.text);
    const std::optional<uint64_t> bps = ethernetSpeedBps(bare);
    const size_t eth = path.rfind("/ethernet/state/");
    std::string number_path = eth == std::string::npos ? std::string() : path.substr(0, eth) + "/state/speed";
    out_.updates.push_back(Update{std::move(path), Value{std::string(bare)}, ts_, {}});
    if (bps && !number_path.empty()) out_.updates.push_back(Update{std::move(number_path), Value{*bps}, ts_, {}});
  }

  void update(const ::gnmi::Update& u) {
    const ::gnmi::TypedValue* tv = u.has_val() ? &u.val() : nullptr;
    std::string_view json;
    std::string err;
    if (tv && (tv->value_case() == ::gnmi::TypedValue::kJsonVal || tv->value_case() == ::gnmi::TypedValue::kJsonIetfVal)) {
      json = tv->value_case() == ::gnmi::TypedValue::kJsonVal ? tv->json_val() : tv->json_ietf_val();
    } else if (!tv && u.has_value()) {
      // Deprecated Update.value (gNMI < 0.4): typed by its encoding.
      switch (u.value().type()) {
        case ::gnmi::JSON:
        case ::gnmi::JSON_IETF:
          json = u.value().value();
          break;
        case ::gnmi::BYTES:
        case ::gnmi::ASCII:
          return emit(s_.path, Scalar{Scalar::Kind::kString, 0, 0, 0, false, u.value().value()});
        default:
          return error("unsupported value encoding " + std::to_string(u.value().type()));
      }
    } else if (tv) {
      Scalar sc;
      if (!scalarFromTyped(*tv, sc, s_.leaflist, &err)) return error(err);
      return emit(s_.path, sc);
    } else {
      return error("update without a value");
    }
    if (Status st = s_.dom.parse(json, s_.json_arena); !st.isOk()) return error(st.message());
    walkJson(s_.dom, s_.path, *this);
  }

  void remove(const PathBuffer& p) {
    size_t first = out_.deletes.size();
    auto add = [&](std::string path) {
      if (std::find(out_.deletes.begin() + first, out_.deletes.end(), path) == out_.deletes.end()) {
        out_.deletes.push_back(std::move(path));
      }
    };
    std::string own;
    p.appendCanonical(own);
    add(std::move(own));
    if (p.elems.empty()) return;  // "/" already removes everything
    for (const CompiledRow& row : MappingTable::instance().rows()) {
      if (p.elems.size() > row.source.size()) continue;
      Bindings b;
      std::string unused;
      if (bind(row, p, false, b, &unused) != Bind::kBound) continue;
      // Same shape on both sides (OpenConfig): the delete's own depth is the
      // model subtree. Different shapes (native, DME): the mapped leaves,
      // wildcarded where the delete names no key.
      size_t depth = p.elems.size() <= row.iso_depth ? p.elems.size() : row.target.size();
      std::string path;
      if (render(row, depth, b, path)) add(std::move(path));
    }
  }

  std::string here(const PathBuffer& p) const {
    std::string s;
    p.appendCanonical(s);
    return s;
  }

 private:
  Scratch& s_;
  MappedNotification& out_;
  TimestampNs ts_;
};

}  // namespace

Status mapNotification(const ::gnmi::Notification& n, TimestampNs receive_ts, MappedNotification& out) {
  Scratch& s = scratch();
  s.path.clear();
  s.json_arena.clear();
  std::string err;
  if (n.has_prefix() && !s.path.appendProto(n.prefix(), &err)) {
    return Status::invalidArgument("gnmi notification prefix: " + err);
  }
  const size_t prefix_len = s.path.elems.size();
  Mapper m(s, out, n.timestamp() != 0 ? n.timestamp() : receive_ts);
  for (const ::gnmi::Update& u : n.update()) {
    s.path.truncate(prefix_len);
    if (!s.path.appendProto(u.path(), &err)) {
      out.errors.push_back("update path: " + err);
      continue;
    }
    m.update(u);
  }
  for (const ::gnmi::Path& d : n.delete_()) {
    s.path.truncate(prefix_len);
    if (!s.path.appendProto(d, &err)) {
      out.errors.push_back("delete path: " + err);
      continue;
    }
    m.remove(s.path);
  }
  return Status::ok();
}

namespace {

class PairSink final : public JsonLeafSink {
 public:
  explicit PairSink(std::vector<std::pair<Path, Value>>& out) : out_(out) {}
  void leaf(const PathBuffer& p, const JsonNode& v) override {
    std::vector<PathElem> elems;
    elems.reserve(p.elems.size());
    for (const ElemRef& e : p.elems) {
      PathElem pe{std::string(e.raw), {}};
      for (uint32_t i = e.key_begin; i < e.key_end; ++i) pe.keys.emplace(p.keys[i].name, p.keys[i].value);
      elems.push_back(std::move(pe));
    }
    out_.emplace_back(Path(std::move(elems)), toValue(scalarFromJson(v)));
  }
  void error(std::string message) override {
    if (first_error.empty()) first_error = std::move(message);
    ++errors;
  }
  std::string first_error;
  size_t errors = 0;

 private:
  std::vector<std::pair<Path, Value>>& out_;
};

}  // namespace

Status flattenJson(std::string_view json, const Path& base, TimestampNs, std::vector<std::pair<Path, Value>>& out) {
  PathBuffer path;
  std::string err;
  for (const PathElem& e : base.elems()) {
    if (!path.push(e.name, &err)) return Status::invalidArgument("base path: " + err);
    for (const auto& [k, v] : e.keys) path.addKey(k, v);
  }
  JsonDom dom;
  std::deque<std::string> arena;
  if (Status st = dom.parse(json, arena); !st.isOk()) return st;
  PairSink sink(out);
  walkJson(dom, path, sink);
  if (sink.errors > 0) {
    return Status::invalidArgument(std::to_string(sink.errors) + " part(s) skipped, first: " + sink.first_error);
  }
  return Status::ok();
}

std::vector<std::string> nxosSubscriptionPaths() {
  // A leaf's container, keys left out (every entry of every list).
  auto containerOf = [](const CompiledRow& row) {
    std::string p = row.origin.empty() ? "" : row.origin + ":";
    for (size_t i = 0; i + 1 < row.source.size(); ++i) {
      if (i > 0 || row.origin != "DME") p += '/';
      p += row.source[i].name;
    }
    return p;
  };
  // A container is subscribed whole when every row under it is subscribed;
  // one that also holds second sources (dbgDot3Stats: the pause counters
  // OpenConfig already brings) is subscribed leaf by leaf, so the second
  // sources never arrive.
  std::vector<std::string> containers;
  std::set<std::string> mixed;
  for (const CompiledRow& row : MappingTable::instance().rows()) {
    std::string c = containerOf(row);
    if (!row.row->subscribe) {
      mixed.insert(c);
      continue;
    }
    if (std::find(containers.begin(), containers.end(), c) == containers.end()) containers.push_back(c);
  }
  std::vector<std::string> out;
  for (const std::string& c : containers) {
    if (mixed.count(c) == 0) {
      out.push_back(c);
      continue;
    }
    for (const CompiledRow& row : MappingTable::instance().rows()) {
      if (row.row->subscribe && containerOf(row) == c) out.push_back(c + "/" + row.source.back().name);
    }
  }
  return out;
}

}  // namespace rdmagw::southbound::gnmi
