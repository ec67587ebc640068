#include "southbound/nxos/nxos_network_qos.h"

#include <map>
#include <optional>
#include <string>

#include "models/path.h"
#include "southbound/nxos/nxos_emit.h"
#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {
namespace {

constexpr std::string_view kFormat = "nxos-network-qos";

struct ClassConfig {
  uint64_t pfc = 0;
  std::optional<uint64_t> mtu;
};

std::string classPath(const std::string& name, std::string_view leaf) {
  Path p;
  p.add("qos").add("network-qos").add("classes").add("class", {{"name", name}});
  return p.add("state").add(std::string(leaf)).toString();
}

// "3", "3,4", "3-4" (NX-OS accepts lists and ranges of CoS 0..7).
std::optional<uint64_t> cosBitmap(std::string_view list) {
  uint64_t bits = 0;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    const size_t dash = item.find('-');
    Result<uint64_t> lo = parseCount(item.substr(0, dash));
    Result<uint64_t> hi = dash == std::string_view::npos ? lo : parseCount(item.substr(dash + 1));
    if (!lo.isOk() || !hi.isOk() || *lo > 7 || *hi > 7 || *lo > *hi) return std::nullopt;
    for (uint64_t c = *lo; c <= *hi; ++c) bits |= uint64_t(1) << c;
  }
  return bits;
}

}  // namespace

Status parseNetworkQos(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  std::map<std::string, ClassConfig> classes;
  ClassConfig* current = nullptr;
  size_t n = 0;
  for (std::string_view raw : splitLines(text)) {
    ++n;
    const std::string_view line = trim(raw);
    if (auto banner = deviceErrorLine(line)) {
      em.deviceError(*banner);
      continue;
    }
    const std::vector<std::string_view> w = splitWs(line);
    // "class type network-qos c-8q-nq3" (N9K), "class type network-qos class-default".
    if (w.size() == 4 && w[0] == "class" && w[1] == "type" && w[2] == "network-qos") {
      current = &classes[std::string(w[3])];
      continue;
    }
    if (w.empty() || w[0] == "policy-map" || current == nullptr) continue;
    if (w[0] == "mtu") {
      Result<uint64_t> mtu = w.size() == 2 ? parseCount(w[1]) : Result<uint64_t>(Status::corrupt("no value"));
      if (mtu.isOk()) {
        current->mtu = *mtu;
      } else {
        em.error("line " + std::to_string(n) + ": bad mtu: " + std::string(line));
      }
    } else if (w[0] == "pause") {
      // "pause pfc-cos 3", "pause no-drop pfc-cos 3", "pause buffer-size ... pfc-cos 3".
      std::optional<uint64_t> bits;
      for (size_t i = 1; i + 1 < w.size(); ++i) {
        if (w[i] == "pfc-cos") bits = cosBitmap(w[i + 1]);
      }
      if (bits) {
        current->pfc |= *bits;
      } else {
        em.error("line " + std::to_string(n) + ": no pfc-cos list 0..7: " + std::string(line));
      }
    }
  }
  for (const auto& [name, c] : classes) {
    em.gauge(classPath(name, "pfc-priorities"), c.pfc);
    if (c.mtu) em.gauge(classPath(name, "mtu"), *c.mtu);
  }
  return em.finish("'class type network-qos' line");
}

}  // namespace rdmagw::southbound::nxos
