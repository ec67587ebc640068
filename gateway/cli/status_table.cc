#include "gateway/cli/status_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace rdmagw::gateway {
namespace {

using Json = nlohmann::json;

// Cells wider than this are cut: one target stays one line.
constexpr size_t kMaxErrorCell = 60;

std::string str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "12s ago" from a Unix time and the gateway's own now; "never" for null.
std::string ago(const Json& j, const char* key, double now) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return "never";
  return shortDuration(now - it->get<double>()) + " ago";
}

// The first line of an error, cut to a cell.
std::string errorCell(std::string e) {
  if (const size_t nl = e.find('\n'); nl != std::string::npos) e.resize(nl);
  if (e.empty()) return "-";
  if (e.size() > kMaxErrorCell) {
    e.resize(kMaxErrorCell - 3);
    while (!e.empty() && (static_cast<unsigned char>(e.back()) & 0xC0) == 0x80) e.pop_back();  // whole UTF-8 characters
    if (!e.empty() && static_cast<unsigned char>(e.back()) >= 0xC0) e.pop_back();
    e += "...";
  }
  return e;
}

// Rows of cells as left-aligned columns two spaces apart (the last column
// unpadded), like `kubectl get`.
std::string columns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& r : rows) {
    if (width.size() < r.size()) width.resize(r.size(), 0);
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

// A JSON number as a count, or nullopt: a float or a negative number is
// not one, and converting an out-of-range double is undefined behaviour.
std::optional<uint64_t> countOf(const Json& j) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0) return static_cast<uint64_t>(j.get<int64_t>());
  return std::nullopt;
}

std::string reloadText(const Json& reload, double now) {
  if (!reload.is_object()) return "no reload yet";
  const auto ok = reload.find("last_successful");
  const bool have_ok = ok != reload.end() && ok->is_boolean();
  const auto t = reload.find("last_success_time");
  const bool have_time = t != reload.end() && t->is_number();
  if (!have_ok && !have_time) return "no reload yet";
  std::string out = !have_ok ? "" : ok->get<bool>() ? "last reload succeeded" : "LAST RELOAD FAILED (running the previous configuration)";
  if (have_time) out += std::string(out.empty() ? "" : "; ") + "last success " + ago(reload, "last_success_time", now);
  return out;
}

}  // namespace

std::string shortDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;  // clocks a little apart
  seconds = std::min(seconds, 1e15);                           // a long long holds it
  const long long s = static_cast<long long>(seconds);
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof(buf), "%llds", s);
  else if (s < 3600) std::snprintf(buf, sizeof(buf), "%lldm%02llds", s / 60, s % 60);
  else if (s < 86400) std::snprintf(buf, sizeof(buf), "%lldh%02lldm", s / 3600, (s % 3600) / 60);
  else std::snprintf(buf, sizeof(buf), "%lldd%02lldh", s / 86400, (s % 86400) / 3600);
  return buf;
}

namespace {

Result<StatusView> view(const std::string& reply) {
  Json j = Json::parse(reply, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::corrupt("the reply is not a JSON object");
  if (auto e = j.find("error"); e != j.end()) {
    return Status::invalidArgument("the gateway refused the request: " + (e->is_string() ? e->get<std::string>() : e->dump()));
  }
  if (!j.contains("format") || countOf(j["format"]) != std::optional<uint64_t>(1) ||
      !j.contains("targets") || !j["targets"].is_array() || !j.contains("gateway") || !j["gateway"].is_object()) {
    return Status::corrupt("the reply is not a status this rdmagw knows (format 1)");
  }
  const Json& gw = j["gateway"];
  const double now = gw.contains("now") && gw["now"].is_number() ? gw["now"].get<double>() : 0;

  StatusView v;
  std::vector<std::vector<std::string>> rows = {{"TARGET", "KIND", "TRANSPORT", "UP", "LAST SUCCESS", "SERIES", "LAST ERROR"}};
  for (const Json& t : j["targets"]) {
    if (!t.is_object()) continue;
    const bool up = t.contains("up") && t["up"].is_boolean() && t["up"].get<bool>();
    ++v.targets;
    if (!up) ++v.targets_down;
    const std::optional<uint64_t> n = t.contains("series") ? countOf(t["series"]) : std::nullopt;
    const std::string series = n ? std::to_string(*n) : "-";
    rows.push_back({str(t, "name"), str(t, "kind"), str(t, "transport"), up ? "up" : "DOWN", ago(t, "last_success", now),
                    series, errorCell(str(t, "last_error"))});
  }
  v.exit_code = v.targets_down > 0 ? 1 : 0;

  std::string head = "rdmagw " + str(gw, "version");
  if (const std::optional<uint64_t> pid = gw.contains("pid") ? countOf(gw["pid"]) : std::nullopt) {
    head += "  pid " + std::to_string(*pid);
  }
  if (gw.contains("started") && gw["started"].is_number()) head += "  uptime " + shortDuration(now - gw["started"].get<double>());
  head += "  targets " + std::to_string(v.targets - v.targets_down) + "/" + std::to_string(v.targets) + " up";
  v.table = head + "\n\n";
  v.table += v.targets == 0 ? "no targets\n" : columns(rows);

  const Json nb = j.contains("northbounds") && j["northbounds"].is_object() ? j["northbounds"] : Json::object();
  std::vector<std::vector<std::string>> nrows = {{"NORTHBOUND", "ADDRESS", "STATE"}};
  auto enabled = [](const Json& n) { return n.is_object() && n.contains("enabled") && n["enabled"].is_boolean() && n["enabled"].get<bool>(); };
  if (const Json p = nb.value("prometheus", Json()); enabled(p)) {
    if (p.contains("scrapes") && !countOf(p["scrapes"])) return Status::corrupt("prometheus scrapes is not a count");
    const uint64_t scrapes = countOf(p.value("scrapes", Json(0))).value_or(0);
    nrows.push_back({"prometheus", str(p, "listen"),
                     scrapes == 0 ? "not scraped yet" : "last scrape " + ago(p, "last_scrape", now) + " (" + std::to_string(scrapes) + " scrapes)"});
  } else {
    nrows.push_back({"prometheus", "-", "off"});
  }
  if (const Json s = nb.value("snmp", Json()); enabled(s)) {
    nrows.push_back({"snmp", "agentx " + str(s, "agentx_socket"),
                     s.value("agentx_connected", false) ? "AgentX connected" : "AgentX NOT connected (is snmpd running?)"});
  } else {
    nrows.push_back({"snmp", "-", "off"});
  }
  if (const Json g = nb.value("gnmi", Json()); enabled(g)) {
    if (g.contains("subscribers") && !countOf(g["subscribers"])) return Status::corrupt("gnmi subscribers is not a count");
    const uint64_t subs = countOf(g.value("subscribers", Json(0))).value_or(0);
    nrows.push_back({"gnmi", str(g, "address"), std::to_string(subs) + (subs == 1 ? " subscriber" : " subscribers")});
  } else {
    nrows.push_back({"gnmi", "-", "off"});
  }
  v.table += "\n" + columns(nrows);
  v.table += "\nreload: " + reloadText(j.contains("reload") ? j["reload"] : Json(), now) + "\n";
  if (const Json c = j.value("cluster", Json()); c.is_object()) {
    const std::string state = str(c, "state");
    v.table += "cluster: member " + str(c, "member") + " of fleet " + str(c, "name") + ", " +
               (state == "healthy" ? state : "NOT HEALTHY: " + state) + ", " +
               std::to_string(countOf(c.value("members", Json(0))).value_or(0)) + " members, owns " +
               std::to_string(countOf(c.value("owned_targets", Json(0))).value_or(0)) + " targets\n";
  }
  return v;
}

}  // namespace

Result<StatusView> viewStatus(const std::string& reply) {
  try {
    return view(reply);
  } catch (const Json::exception& e) {  // a field of an unexpected type
    return Status::corrupt(std::string("the reply is not a status this rdmagw knows: ") + e.what());
  }
}

}  // namespace rdmagw::gateway
