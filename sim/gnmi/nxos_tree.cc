#include "sim/gnmi/nxos_tree.h"

#include <algorithm>
#include <functional>
#include <string_view>

#include "common/hash.h"
#include "models/ethernet_speed.h"

namespace rdmagw::sim::gnmi_tree {
namespace {

Elem elem(std::string name) { return Elem{std::move(name), {}}; }
Elem elem(std::string name, std::string key, std::string value) {
  Elem e{std::move(name), {}};
  e.keys.emplace(std::move(key), std::move(value));
  return e;
}

std::vector<Elem> elems(std::initializer_list<const char*> names) {
  std::vector<Elem> out;
  for (const char* n : names) out.push_back(elem(n));
  return out;
}

void add(Snapshot* s, Origin origin, bool native, std::vector<Elem> path,
         std::vector<std::pair<const char*, uint64_t>> fields) {
  Container c;
  c.origin = origin;
  c.native = native;
  c.path = std::move(path);
  for (auto& [n, v] : fields) {
    c.field_names.emplace_back(n);
    c.values.push_back(v);
  }
  s->containers.push_back(std::move(c));
}

// A container of string leaves (empty ones left out).
void addTexts(Snapshot* s, std::vector<Elem> path, std::vector<std::pair<const char*, std::string>> fields) {
  Container c;
  c.path = std::move(path);
  for (auto& [name, text] : fields) {
    if (text.empty()) continue;
    c.field_names.emplace_back(name);
    c.values.push_back(0);
    c.texts.push_back(std::move(text));
  }
  if (!c.field_names.empty()) s->containers.push_back(std::move(c));
}

void addInterface(Snapshot* s, const SwitchPort& p, const std::string& ifn, uint64_t speed_bps) {
  std::vector<Elem> base{elem("interfaces"), elem("interface", "name", ifn)};
  std::vector<Elem> counters = base;
  counters.push_back(elem("state"));
  counters.push_back(elem("counters"));
  add(s, Origin::kOpenconfig, false, counters,
      {{"in-octets", p.in_octets},
       {"in-pkts", p.inPackets()},
       {"in-unicast-pkts", p.in_ucast},
       {"in-multicast-pkts", p.in_mcast},
       {"in-broadcast-pkts", p.in_bcast},
       {"in-discards", p.in_discard},
       {"in-errors", p.in_error},
       {"in-fcs-errors", p.in_error},  // the CLI's FCS-Err: one counter, both transports
       {"out-octets", p.out_octets},
       {"out-pkts", p.outPackets()},
       {"out-unicast-pkts", p.out_ucast},
       {"out-multicast-pkts", p.out_mcast},
       {"out-broadcast-pkts", p.out_bcast},
       {"out-discards", p.out_discard},
       {"out-errors", p.out_error}});
  // The port's MTU (OpenConfig state/mtu), as `show interface` prints it.
  std::vector<Elem> state = base;
  state.push_back(elem("state"));
  add(s, Origin::kOpenconfig, false, state, {{"mtu", p.mtu}});
  // Its state words and description, and its speed as OpenConfig's
  // identities (the rate `show interface` prints: sim.link_gbps).
  addTexts(s, state, {{"oper-status", "UP"}, {"admin-status", "UP"}, {"description", p.description}});
  const std::string speed(ethernetSpeedIdentity(speed_bps));
  std::vector<Elem> eth_state = base;
  for (const char* n : {"ethernet", "state"}) eth_state.push_back(elem(n));
  addTexts(s, eth_state, {{"port-speed", speed}, {"negotiated-port-speed", speed}});
  std::vector<Elem> eth = base;
  for (const char* n : {"ethernet", "state", "counters"}) eth.push_back(elem(n));
  add(s, Origin::kOpenconfig, false, eth,
      {{"in-mac-pause-frames", p.in_pause}, {"out-mac-pause-frames", p.out_pause}});
}

void addOcQueues(Snapshot* s, const SwitchPort& p, const std::string& ifn) {
  for (int q = 0; q < kQosGroups; ++q) {
    const QueueCounters& c = p.queues[q];
    std::vector<Elem> path{elem("qos"), elem("interfaces"),
                           elem("interface", "interface-id", ifn), elem("output"),
                           elem("queues"), elem("queue", "name", queueClassName(q)),
                           elem("state")};
    add(s, Origin::kOpenconfig, false, std::move(path),
        {{"transmit-pkts", c.uc_tx_pkts + c.mc_tx_pkts},
         {"transmit-octets", c.uc_tx_bytes + c.mc_tx_bytes},
         {"dropped-pkts", c.drop_pkts}});
  }
}

void addNativeQueues(Snapshot* s, const SwitchPort& p, const std::string& ifn) {
  for (int q = 0; q < kQosGroups; ++q) {
    const QueueCounters& c = p.queues[q];
    std::vector<Elem> path = elems({"System", "ipqos-items", "queuing-items", "policy-items",
                                    "out-items", "intf-items"});
    path.push_back(elem("If-list", "name", ifn));
    path.push_back(elem("queCmap-items"));
    path.push_back(elem("QueuingStats-list", "cmapName", queueClassName(q)));
    add(s, Origin::kDevice, true, std::move(path),
        {{"txPackets", c.uc_tx_pkts + c.mc_tx_pkts},
         {"txBytes", c.uc_tx_bytes + c.mc_tx_bytes},
         {"dropPackets", c.drop_pkts},
         {"dropBytes", c.drop_bytes},
         {"randEcnMarkedPackets", c.ecn_pkts},
         {"pfcTxPpp", p.tx_ppp[q]},
         {"pfcRxPpp", p.rx_ppp[q]}});
  }
}

void addDot3(Snapshot* s, const SwitchPort& p, const std::string& ifn) {
  std::vector<Elem> path = elems({"System", "intf-items", "phys-items"});
  path.push_back(elem("PhysIf-list", "id", ifn));
  path.push_back(elem("dbgDot3Stats-items"));
  add(s, Origin::kDevice, true, std::move(path),
      {{"inPauseFrames", p.in_pause}, {"outPauseFrames", p.out_pause}});
}

// OpenConfig's PortIdType for the NX-OS wording the CLI prints.
std::string ocPortIdType(const std::string& nxos) {
  if (nxos == "Mac Address") return "MAC_ADDRESS";
  if (nxos == "Interface Name") return "INTERFACE_NAME";
  return "LOCAL";
}

void addLldp(Snapshot* s, const SwitchPort& p, const std::string& ifn) {
  if (p.lldp.system_name.empty()) return;
  Container c;
  c.path = {elem("lldp"), elem("interfaces"), elem("interface", "name", ifn), elem("neighbors"),
            elem("neighbor", "id", p.lldp.chassis_id), elem("state")};
  const std::pair<const char*, std::string> fields[] = {
      {"system-name", p.lldp.system_name},
      {"port-id", p.lldp.port_id},
      {"port-id-type", ocPortIdType(p.lldp.port_type)},
      {"chassis-id", p.lldp.chassis_id},
      {"port-description", p.lldp.port_desc},
  };
  for (const auto& [name, text] : fields) {
    if (text.empty()) continue;
    c.field_names.emplace_back(name);
    c.values.push_back(0);
    c.texts.push_back(text);
  }
  s->containers.push_back(std::move(c));
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out.push_back('\\');
    out.push_back(ch);
  }
  return out + "\"";
}

std::string_view stripModule(std::string_view name) {
  const size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

// Does `pattern[pi..]` cover a prefix of `full[fi..]`? Fields of the path
// beyond the pattern are "below" it and covered.
bool covers(const gnmi::Path& pattern, int pi, const std::vector<const Elem*>& full, size_t fi,
            bool exact_end) {
  if (pi == pattern.elem_size()) return !exact_end || fi == full.size();
  const gnmi::PathElem& pe = pattern.elem(pi);
  const std::string_view pname = stripModule(pe.name());
  if (pname == "...") {
    if (covers(pattern, pi + 1, full, fi, exact_end)) return true;
    return fi < full.size() && covers(pattern, pi, full, fi + 1, exact_end);
  }
  if (fi == full.size()) return false;
  const Elem& e = *full[fi];
  if (pname != "*" && pname != e.name) return false;
  for (const auto& [k, v] : pe.key()) {
    auto it = e.keys.find(k);
    if (it == e.keys.end()) return false;
    if (v != "*" && v != it->second) return false;
  }
  return covers(pattern, pi + 1, full, fi + 1, exact_end);
}

bool originMatches(const std::string& origin, Origin o) {
  if (origin.empty()) return true;
  if (origin == "openconfig" || origin.rfind("openconfig-", 0) == 0) {
    return o == Origin::kOpenconfig;
  }
  if (origin == "device" || origin == "Cisco-NX-OS-device") return o == Origin::kDevice;
  return false;  // DME, rfc7951, ...: not served
}

void fillElems(gnmi::Path* out, const std::vector<Elem>& path) {
  for (const Elem& e : path) {
    gnmi::PathElem* pe = out->add_elem();
    pe->set_name(e.name);
    for (const auto& [k, v] : e.keys) (*pe->mutable_key())[k] = v;
  }
}

std::string blobJson(const Container& c) {
  std::string out = "{";
  for (size_t i = 0; i < c.field_names.size(); ++i) {
    if (i) out += ',';
    out += '"' + c.field_names[i] + "\":" + std::to_string(c.values[i]);
  }
  out += '}';
  return out;
}

}  // namespace

std::string shortIfName(const std::string& name) {
  constexpr std::string_view kEth = "Ethernet";
  if (name.rfind(kEth, 0) == 0) return "eth" + name.substr(kEth.size());
  return name;
}

std::string queueClassName(int q) {
  return q == 0 ? "c-out-8q-q-default" : "c-out-8q-q" + std::to_string(q);
}

std::shared_ptr<const Snapshot> build(const Switch& sw, TimestampNs ts, uint64_t version,
                                      const TreeOptions& options) {
  auto s = std::make_shared<Snapshot>();
  s->ts = ts;
  s->version = version;
  for (const SwitchPort& p : sw.ports) {
    const std::string ifn = shortIfName(p.name);
    // ii ports are interfaces of the switch too (counters, state), where
    // the target shows them at all.
    if (p.kind != PortKind::kInternal || options.include_internal_ports) addInterface(s.get(), p, ifn, sw.speed_bps);
    if (p.kind != PortKind::kInternal) {
      addOcQueues(s.get(), p, ifn);
      addDot3(s.get(), p, ifn);
      addLldp(s.get(), p, ifn);
    }
    if (p.kind != PortKind::kInternal || options.include_internal_ports) {
      addNativeQueues(s.get(), p, ifn);
    }
  }
  return s;
}

std::vector<Selection> select(const Snapshot& snap, const gnmi::Path& path, bool blobs) {
  std::vector<Selection> out;
  std::vector<const Elem*> full;
  Elem field_elem;
  for (size_t ci = 0; ci < snap.containers.size(); ++ci) {
    const Container& c = snap.containers[ci];
    if (!originMatches(path.origin(), c.origin)) continue;
    full.clear();
    for (const Elem& e : c.path) full.push_back(&e);
    const bool blob = blobs && c.native;
    if (blob && covers(path, 0, full, 0, /*exact_end=*/false)) {
      out.push_back({ci, Selection::kBlob});
      continue;
    }
    full.push_back(&field_elem);
    for (size_t f = 0; f < c.field_names.size(); ++f) {
      field_elem.name = c.field_names[f];
      if (covers(path, 0, full, 0, /*exact_end=*/false)) out.push_back({ci, int(f)});
    }
  }
  return out;
}

std::vector<gnmi::Notification> render(const Snapshot& snap, const std::vector<Selection>& sel,
                                       const RenderOptions& options) {
  std::vector<gnmi::Notification> out;
  size_t last = SIZE_MAX;
  for (const Selection& s : sel) {
    const Container& c = snap.containers[s.container];
    if (s.container != last) {
      out.emplace_back();
      out.back().set_timestamp(snap.ts);
      last = s.container;
    }
    gnmi::Update* u = out.back().add_update();
    gnmi::Path* p = u->mutable_path();
    if (options.echo_origin) {
      p->set_origin(c.origin == Origin::kOpenconfig ? "openconfig" : "device");
    }
    fillElems(p, c.path);
    if (s.field == Selection::kBlob) {
      u->mutable_val()->set_json_val(blobJson(c));
      continue;
    }
    p->add_elem()->set_name(c.field_names[size_t(s.field)]);
    if (!c.texts.empty()) {
      const std::string& text = c.texts[size_t(s.field)];
      if (options.proto) {
        u->mutable_val()->set_string_val(text);
      } else {
        u->mutable_val()->set_json_val(jsonString(text));
      }
      continue;
    }
    const uint64_t v = c.values[size_t(s.field)];
    if (options.proto) {
      u->mutable_val()->set_uint_val(v);
    } else {
      u->mutable_val()->set_json_val(std::to_string(v));
    }
  }
  return out;
}

uint64_t fingerprint(const Snapshot& snap, const Selection& s) {
  const Container& c = snap.containers[s.container];
  if (!c.texts.empty() && s.field != Selection::kBlob) return std::hash<std::string>{}(c.texts[size_t(s.field)]);
  if (s.field != Selection::kBlob) return c.values[size_t(s.field)];
  uint64_t h = common::kFnv1aOffset;  // FNV-1a over the values' bytes
  for (uint64_t v : c.values) {
    for (int b = 0; b < 8; ++b) h = common::fnv1aMix(h, (v >> (8 * b)) & 0xff);
  }
  return h;
}

std::string toString(const gnmi::Path& path) {
  std::string out;
  if (!path.origin().empty()) out += path.origin() + ":";
  if (path.elem_size() == 0) out += "/";
  for (const gnmi::PathElem& e : path.elem()) {
    out += "/" + e.name();
    std::map<std::string, std::string> sorted(e.key().begin(), e.key().end());
    for (const auto& [k, v] : sorted) out += "[" + k + "=" + v + "]";
  }
  return out;
}

gnmi::Path counterPath(int intf, const std::string& leaf, bool origin) {
  gnmi::Path p;
  if (origin) p.set_origin("openconfig");
  p.add_elem()->set_name("interfaces");
  auto* e = p.add_elem();
  e->set_name("interface");
  (*e->mutable_key())["name"] = "eth1/" + std::to_string(intf);
  p.add_elem()->set_name("state");
  p.add_elem()->set_name("counters");
  if (!leaf.empty()) p.add_elem()->set_name(leaf);
  return p;
}

gnmi::Path parsePath(const std::string& text) {
  gnmi::Path path;
  std::string_view t = text;
  const size_t colon = t.find(':');
  const size_t slash = t.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
    path.set_origin(std::string(t.substr(0, colon)));
    t.remove_prefix(colon + 1);
  }
  size_t i = 0;
  while (i < t.size()) {
    if (t[i] == '/') {
      ++i;
      continue;
    }
    gnmi::PathElem* e = path.add_elem();
    std::string name;
    while (i < t.size() && t[i] != '/' && t[i] != '[') name += t[i++];
    e->set_name(name);
    while (i < t.size() && t[i] == '[') {
      const size_t eq = t.find('=', i);
      const size_t close = t.find(']', eq);
      if (eq == std::string_view::npos || close == std::string_view::npos) return path;
      (*e->mutable_key())[std::string(t.substr(i + 1, eq - i - 1))] =
          std::string(t.substr(eq + 1, close - eq - 1));
      i = close + 1;
    }
  }
  return path;
}

}  // namespace rdmagw::sim::gnmi_tree
