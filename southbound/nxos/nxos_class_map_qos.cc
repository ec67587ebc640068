#include "southbound/nxos/nxos_class_map_qos.h"

#include <map>
#include <string>

#include "models/path.h"
#include "southbound/nxos/nxos_emit.h"
#include "southbound/nxos/nxos_text.h"

namespace rdmagw::southbound::nxos {
namespace {

constexpr std::string_view kFormat = "nxos-class-map-qos";

std::string matchPath(const std::string& name) {
  Path p;
  p.add("qos").add("type-qos").add("classes").add("class", {{"name", name}});
  return p.add("state").add("match").toString();
}

}  // namespace

Status parseClassMapQos(std::string_view text, TimestampNs ts, PollBatch& out) {
  Emitter em(kFormat, ts, out);
  std::map<std::string, std::string> matches;  // class -> "dscp" | "cos"
  std::string current;                         // the type-qos class being read, "" outside one
  size_t n = 0;
  for (std::string_view raw : splitLines(text)) {
    ++n;
    const std::string_view line = trim(raw);
    if (auto banner = deviceErrorLine(line)) {
      em.deviceError(*banner);
      continue;
    }
    const std::vector<std::string_view> w = splitWs(line);
    if (w.empty()) continue;
    // "class-map type qos match-all RDMA"; other types (queuing, network-qos) end a qos block.
    if (w[0] == "class-map") {
      const bool qos = w.size() >= 4 && w[1] == "type" && w[2] == "qos";
      current = qos ? std::string(w.back()) : std::string();
      continue;
    }
    if (current.empty() || w[0] != "match" || w.size() < 2) continue;
    if (w[1] != "dscp" && w[1] != "cos") continue;  // precedence, any, protocol: no trust said
    if (w.size() < 3) {
      em.error("line " + std::to_string(n) + ": match " + std::string(w[1]) + " without a value: " +
               std::string(line));
      continue;
    }
    std::string& m = matches[current];
    if (m != "dscp") m = std::string(w[1]);
  }
  for (const auto& [name, m] : matches) em.text(matchPath(name), m);
  return em.finish("'match dscp' or 'match cos' line in a 'class-map type qos'");
}

}  // namespace rdmagw::southbound::nxos
