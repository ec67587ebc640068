#include "northbound/snmp/if_index_registry.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "northbound/snmp/if_index_derivation.h"

namespace rdmagw::northbound::snmp {

IfIndexRegistry::IfIndexRegistry(std::string state_file, IfIndexScheme scheme)
    : state_file_(std::move(state_file)), scheme_(scheme) {}

Status IfIndexRegistry::load() {
  // Derived numbers need no history; a sequential file left from before
  // must not mix its numbers into them.
  if (state_file_.empty() || scheme_ == IfIndexScheme::kDerived) return Status::ok();
  std::ifstream in(state_file_);
  if (!in) return Status::ok();  // first start
  std::string line, bad;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    size_t t1 = line.find('\t');
    size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    unsigned long value = 0;
    bool ok = t2 != std::string::npos;
    if (ok) {
      char* end = nullptr;
      std::string num = line.substr(t2 + 1);
      value = std::strtoul(num.c_str(), &end, 10);
      ok = !num.empty() && *end == '\0' && value >= 1 && value <= kMaxIfIndex;
    }
    if (!ok) {
      bad += (bad.empty() ? "" : ", ") + std::to_string(line_no);
      continue;
    }
    Context& ctx = contexts_[line.substr(0, t1)];
    const std::string name = line.substr(t1 + 1, t2 - t1 - 1);
    // One number per name: a second name for a number already held (an
    // edited or merged file) would give two interfaces one ifIndex.
    auto [holder, fresh] = ctx.by_index.emplace(uint32_t(value), name);
    if (!fresh && holder->second != name) {
      bad += (bad.empty() ? "" : ", ") + std::to_string(line_no);
      continue;
    }
    if (auto old = ctx.by_name.find(name); old != ctx.by_name.end() && old->second != value) {
      ctx.by_index.erase(old->second);
    }
    ctx.by_name[name] = uint32_t(value);
    if (value > ctx.highest) ctx.highest = uint32_t(value);
  }
  if (!bad.empty()) return Status::corrupt(state_file_ + ": skipped malformed or conflicting lines " + bad);
  return Status::ok();
}

uint32_t IfIndexRegistry::indexOf(std::string_view context, std::string_view name) {
  auto cit = contexts_.find(context);
  if (cit == contexts_.end()) cit = contexts_.emplace(std::string(context), Context{}).first;
  Context& ctx = cit->second;
  auto it = ctx.by_name.find(name);
  if (it != ctx.by_name.end()) return it->second;
  if (scheme_ == IfIndexScheme::kDerived) {
    ctx.fresh.emplace_back(name);
    return derive(ctx, ctx.fresh.back());
  }
  uint32_t assigned;
  if (ctx.highest < kMaxIfIndex) {
    assigned = ++ctx.highest;
  } else {
    // A file that used the top number (never reached by counting up): the
    // lowest number no name holds, still never one in use.
    assigned = 1;
    while (ctx.by_index.count(assigned)) ++assigned;
  }
  ctx.by_name.emplace(std::string(name), assigned);
  ctx.by_index.emplace(assigned, std::string(name));
  dirty_ = true;
  return assigned;
}

uint32_t IfIndexRegistry::derive(Context& ctx, const std::string& name) {
  const uint32_t home = homeIfIndex(name);
  uint32_t assigned = home;
  // Structural numbers are one per name and below every hashed one: only
  // hashed names can meet a number already held.
  while (ctx.by_index.count(assigned)) assigned = nextHashedIfIndex(assigned);
  if (assigned != home) ctx.fresh_moved = true;
  ctx.by_name.emplace(name, assigned);
  ctx.by_index.emplace(assigned, name);
  return assigned;
}

bool IfIndexRegistry::settle(std::string_view context) {
  auto cit = contexts_.find(context);
  if (cit == contexts_.end()) return false;
  Context& ctx = cit->second;
  std::vector<std::string> fresh = std::move(ctx.fresh);
  ctx.fresh.clear();
  if (!ctx.fresh_moved) return false;  // every fresh name at its home: the order did not matter
  ctx.fresh_moved = false;
  std::map<std::string, uint32_t> given;
  for (const std::string& name : fresh) {
    auto it = ctx.by_name.find(name);
    given.emplace(name, it->second);
    ctx.by_index.erase(it->second);
    ctx.by_name.erase(it);
  }
  bool changed = false;
  for (const auto& [name, before] : given) changed |= derive(ctx, name) != before;  // std::map: byte order
  ctx.fresh_moved = false;  // settled: the next build's fresh names start clean
  return changed;
}

Status IfIndexRegistry::saveIfChanged() {
  if (!dirty_ || state_file_.empty() || scheme_ == IfIndexScheme::kDerived) return Status::ok();
  std::ostringstream out;
  out << "# rdmagw SNMP ifIndex assignments: context, interface, ifIndex. Keep this file:\n"
      << "# NMSes key their history on ifIndex.\n";
  for (const auto& [context, ctx] : contexts_) {
    for (const auto& [name, index] : ctx.by_name) {
      if (context.find_first_of("\t\n") != std::string::npos || name.find_first_of("\t\n") != std::string::npos) continue;
      out << context << '\t' << name << '\t' << index << '\n';
    }
  }
  std::string tmp = state_file_ + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << out.str();
    f.flush();
    if (!f) return Status::ioError("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), state_file_.c_str()) != 0) return Status::ioError("cannot rename " + tmp + " to " + state_file_);
  dirty_ = false;
  return Status::ok();
}

}  // namespace rdmagw::northbound::snmp
