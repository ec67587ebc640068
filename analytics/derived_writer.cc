#include "analytics/derived_writer.h"

#include "models/path.h"

namespace rdmagw::analytics {

void DerivedWriter::put(const std::string& target, std::string path, Value v) {
  by_target_[target].push_back(Update{std::move(path), std::move(v), now_, {}});
}

void DerivedWriter::dcqcn(const RdmaPortRef& port, std::string_view leaf, Value v) {
  Path p;
  p.add("fabric").add("dcqcn").add("devices").add("device", {{"name", port.device}});
  p.add("ports").add("port", {{"port-num", port.port}}).add("state").add(std::string(leaf));
  put(port.target, p.toString(), std::move(v));
}

void DerivedWriter::link(const PortRef& port, std::string_view leaf, Value v) {
  Path p;
  p.add("fabric").add("interfaces").add("interface", {{"name", port.iface}});
  p.add("link").add("state").add(std::string(leaf));
  put(port.target, p.toString(), std::move(v));
}

void DerivedWriter::dcb(const PortRef& port, std::string_view leaf, Value v) {
  Path p;
  p.add("fabric").add("interfaces").add("interface", {{"name", port.iface}});
  p.add("dcb").add("state").add(std::string(leaf));
  put(port.target, p.toString(), std::move(v));
}

void DerivedWriter::priority(const PortRef& port, int prio, std::string_view leaf, Value v) {
  Path p;
  p.add("fabric").add("interfaces").add("interface", {{"name", port.iface}});
  p.add("priorities").add("priority", {{"id", std::to_string(prio)}}).add("state").add(std::string(leaf));
  put(port.target, p.toString(), std::move(v));
}

void DerivedWriter::roceGroup(const std::string& target, std::string_view group, std::string_view leaf, Value v) {
  Path p;
  p.add("fabric").add("checks").add("roce").add("groups").add("group", {{"name", std::string(group)}});
  p.add("state").add(std::string(leaf));
  put(target, p.toString(), std::move(v));
}

void DerivedWriter::roceFinding(const std::string& target, const std::string& id, std::string_view leaf, Value v) {
  Path p;
  p.add("fabric").add("checks").add("roce").add("findings").add("finding", {{"id", id}});
  p.add("state").add(std::string(leaf));
  put(target, p.toString(), std::move(v));
}

}  // namespace rdmagw::analytics
