#include "southbound/esxi/esxi_vsish_private.h"

#include "southbound/esxi/esxi_text_util.h"

namespace rdmagw::southbound::esxi {
namespace {

// nmlx5 pause stats, keyed by esxiFoldName (so rx_global_pause and
// rxGlobalPause are one key); leaves below state/pause-counters/.
struct PauseRule {
  std::string_view folded;
  std::string_view leaf;
};
constexpr PauseRule kPause[] = {
    {"rxpausectrlphy", "rx-pause-ctrl-phy"},
    {"txpausectrlphy", "tx-pause-ctrl-phy"},
    {"rxglobalpause", "rx-global-pause"},
    {"txglobalpause", "tx-global-pause"},
    {"rxglobalpauseduration", "rx-global-pause-duration"},
    {"txglobalpauseduration", "tx-global-pause-duration"},
    {"rxglobalpausetransition", "rx-global-pause-transition"},
    {"txpausestormwarningevents", "tx-pause-storm-warning-events"},
    {"txpausestormerrorevents", "tx-pause-storm-error-events"},
};

// Per-priority: "<dir>prio<N><suffix>" folded; leaves below
// priorities/priority[id=N]/state/counters/.
struct PrioRule {
  std::string_view dir;     // "rx" / "tx"
  std::string_view suffix;  // after the priority digit
  std::string_view leaf;
};
constexpr PrioRule kPrio[] = {
    {"rx", "pause", "rx-pause"},
    {"tx", "pause", "tx-pause"},
    {"rx", "pauseduration", "rx-pause-duration"},
    {"tx", "pauseduration", "tx-pause-duration"},
    {"rx", "pausetransition", "rx-pause-transition"},
};

constexpr size_t kSamples = 5;

}  // namespace

std::string esxiPausePath(std::string_view nic, std::string_view stat_name) {
  const std::string f = esxiFoldName(stat_name);
  for (const PauseRule& r : kPause) {
    if (f == r.folded) return esxiNicStatePath(nic, "pause-counters/" + std::string(r.leaf));
  }
  // "rxprio3pauseduration": dir, "prio", one digit 0..7, suffix.
  if (f.size() >= 7 && f.compare(2, 4, "prio") == 0 && f[6] >= '0' && f[6] <= '7') {
    std::string_view dir = std::string_view(f).substr(0, 2);
    std::string_view suffix = std::string_view(f).substr(7);
    for (const PrioRule& r : kPrio) {
      if (dir == r.dir && suffix == r.suffix) return esxiPriorityPath(nic, f[6] - '0', r.leaf);
    }
  }
  return {};
}

void EsxiPrivateStats::skip(size_t line_no, std::string_view line, std::string_view why) {
  ++skipped_;
  if (samples_.size() < kSamples) {
    samples_.push_back("line " + std::to_string(line_no) + " (" + std::string(why) +
                       "): " + std::string(esxiTrim(line).substr(0, 60)));
  }
}

void EsxiPrivateStats::addStat(std::string_view group, std::string_view name,
                               std::string_view value, size_t line_no) {
  name = esxiTrim(name);
  Result<uint64_t> v = esxiParseUnsigned(value);
  if (name.empty() || !v.isOk()) {
    skip(line_no, std::string(name) + ": " + std::string(esxiTrim(value)),
         v.isOk() ? "no name" : v.status().message());
    return;
  }
  std::string path = group.empty() ? esxiPausePath(nic_, name) : std::string();
  if (path.empty()) {
    std::string full = group.empty() ? std::string(name) : std::string(group) + "-" + std::string(name);
    std::string leaf = esxiSanitizeName(full);
    if (leaf.empty()) {
      skip(line_no, full, "name has no letters or digits");
      return;
    }
    path = esxiNicStatePath(nic_, "driver-private/" + leaf);
  }
  if (!seen_paths_.insert(path).second) {
    skip(line_no, name, "repeated name; first value kept");
    return;
  }
  out_.add(std::move(path), v.value(), ts_);
  ++kept_;
}

// "label: a=1 b=2": true when every token after the label is name=number.
bool EsxiPrivateStats::addPairs(std::string_view label, std::string_view rest, size_t line_no) {
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  while (!(rest = esxiTrim(rest)).empty()) {
    size_t end = rest.find_first_of(" \t");
    std::string_view tok = rest.substr(0, end);
    size_t eq = tok.find('=');
    if (eq == std::string_view::npos || eq == 0 || !esxiParseUnsigned(tok.substr(eq + 1)).isOk()) {
      return false;
    }
    pairs.emplace_back(tok.substr(0, eq), tok.substr(eq + 1));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  }
  if (pairs.empty()) return false;
  // The label is the group: "PFC TC[0]" right after an "LFC:" heading is not
  // part of LFC, so a heading never prefixes a pairs line.
  std::string group = label.empty() ? group_ : std::string(label);
  for (const auto& [n, v] : pairs) addStat(group, n, v, line_no);
  return true;
}

void EsxiPrivateStats::addLine(std::string_view raw, size_t line_no) {
  std::string_view line = esxiTrim(raw);
  if (line.empty()) {
    group_.clear();
    return;
  }
  size_t colon = line.find(':');
  size_t eq = line.find('=');
  if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
    std::string_view name = esxiTrim(line.substr(0, colon));
    std::string_view rest = esxiTrim(line.substr(colon + 1));
    if (rest.empty()) {  // "LFC:" heading
      group_ = std::string(name);
      return;
    }
    if (esxiParseUnsigned(rest).isOk()) {
      addStat(group_, name, rest, line_no);
      return;
    }
    if (rest.find('=') != std::string_view::npos && addPairs(name, rest, line_no)) return;
    skip(line_no, line, "not 'name: number'");
    return;
  }
  if (eq != std::string_view::npos) {
    std::string_view name = esxiTrim(line.substr(0, eq));
    std::string_view rest = line.substr(eq + 1);
    if (name.find_first_of(" \t") == std::string_view::npos && esxiParseUnsigned(rest).isOk()) {
      addStat(group_, name, rest, line_no);
      return;
    }
    if (addPairs("", line, line_no)) return;
  }
  skip(line_no, line, "not 'name: number' or 'name=number'");
}

void EsxiPrivateStats::addBlock(std::string_view block) {
  for (const EsxiLine& l : esxiLines(block)) addLine(l.text, l.number);
  group_.clear();
}

void EsxiPrivateStats::finish(std::string_view what) {
  if (skipped_ == 0) return;
  std::string msg = "vsish " + nic_ + ": " + std::string(what) + ": kept " +
                    std::to_string(kept_) + ", skipped " + std::to_string(skipped_) + " line(s)";
  for (const std::string& s : samples_) msg += "; " + s;
  out_.error(std::move(msg));
}

}  // namespace rdmagw::southbound::esxi
