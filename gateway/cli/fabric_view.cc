#include "gateway/cli/fabric_view.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "gateway/cli/gateway_gnmi_client.h"

namespace rdmagw::gateway {

std::string elemKey(const ::gnmi::PathElem& e, const char* name) {
  auto it = e.key().find(name);
  return it == e.key().end() ? "" : it->second;
}

void addFabricUpdate(const std::string& target, const ::gnmi::Update& u, FabricView* view) {
  const auto& el = u.path().elem();
  if (el.size() < 2 || el[0].name() != "fabric") return;
  const std::string leaf = el[el.size() - 1].name();
  const std::string value = typedValueText(u.val());
  // /fabric/dcqcn/devices/device[name]/ports/port[port-num]/state/LEAF
  if (el.size() == 8 && el[1].name() == "dcqcn") {
    view->dcqcn[{target, elemKey(el[3], "name"), elemKey(el[5], "port-num")}][leaf] = value;
  } else if (el.size() == 7 && el[1].name() == "interfaces" && el[3].name() == "priorities") {
    // /fabric/interfaces/interface[name]/priorities/priority[id]/state/LEAF
    view->pfc[{target, elemKey(el[2], "name"), std::atoi(elemKey(el[4], "id").c_str())}][leaf] = value;
  } else if (el.size() == 6 && el[1].name() == "interfaces" && el[3].name() == "link") {
    // /fabric/interfaces/interface[name]/link/state/LEAF
    view->links[{target, elemKey(el[2], "name")}][leaf] = value;
  } else if (el.size() == 6 && el[1].name() == "interfaces" && el[3].name() == "dcb") {
    // /fabric/interfaces/interface[name]/dcb/state/LEAF
    view->dcb[{target, elemKey(el[2], "name")}][leaf] = value;
  } else if (el.size() == 7 && el[1].name() == "checks" && el[3].name() == "findings") {
    // /fabric/checks/roce/findings/finding[id]/state/LEAF
    view->findings[{target, elemKey(el[4], "id")}][leaf] = value;
  }
}

std::string leafOr(const Leaves& l, const std::string& leaf, const std::string& absent) {
  auto it = l.find(leaf);
  return it == l.end() ? absent : it->second;
}

std::string percent(const std::string& ratio) {
  char* end = nullptr;
  const double v = std::strtod(ratio.c_str(), &end);
  if (ratio.empty() || *end != '\0') return ratio;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v * 100);
  return buf;
}

bool dcqcnProblem(const Leaves& l) {
  const std::string v = leafOr(l, "verdict");
  return v != "idle" && v != "working" && v != "-";
}

bool pfcProblem(const Leaves& l) {
  const std::string tree = leafOr(l, "pause-tree-state");
  return (tree != "clear" && tree != "-") || leafOr(l, "pause-balance") == "unbalanced" ||
         leafOr(l, "lossless-drop-alarm") == "1";
}

bool hasPfcVerdict(const Leaves& l) {
  for (const char* leaf : {"pause-tree-state", "pause-balance", "paused-ratio", "lossless-drop-alarm"}) {
    if (l.count(leaf)) return true;
  }
  return false;
}

std::string formatTable(const std::string& title, const std::vector<std::vector<std::string>>& rows) {
  std::string out = title + "\n";
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 < row.size()) out += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += "\n";
  }
  return out + "\n";
}

void printTable(const std::string& title, const std::vector<std::vector<std::string>>& rows) {
  std::fputs(formatTable(title, rows).c_str(), stdout);
}

}  // namespace rdmagw::gateway
