#include "analytics/roce_checks.h"

#include <iterator>
#include <vector>

#include "analytics/gpu_checks.h"

namespace rdmagw::analytics {

std::string_view checkGroupName(CheckGroup g) {
  switch (g) {
    case CheckGroup::kLossless: return "lossless";
    case CheckGroup::kClassification: return "classification";
    case CheckGroup::kCongestionControl: return "congestion-control";
    case CheckGroup::kFlowControl: return "flow-control";
    case CheckGroup::kEts: return "ets";
    case CheckGroup::kLive: return "live";
    case CheckGroup::kGpu:
      return "gpu";
  }
  return "live";
}

std::string_view checkStatusName(CheckStatus s) {
  switch (s) {
    case CheckStatus::kPass: return "PASS";
    case CheckStatus::kWarn: return "WARN";
    case CheckStatus::kFail: return "FAIL";
  }
  return "FAIL";
}

void CheckResults::add(const std::string& target, CheckGroup g, std::string_view check, const std::string& port,
                       CheckStatus s, const std::string& expected, const std::string& found) {
  const std::string id = std::string(checkGroupName(g)) + "/" + std::string(check) + "/" + port;
  auto [it, fresh] = items_[target].try_emplace(id, Item{g, std::string(check), port, CheckStatus::kPass, "", ""});
  Item& item = it->second;
  if (s < item.status) return;
  if (s > item.status) {
    item.status = s;
    item.expected = expected;
    item.found = found;
    return;
  }
  if (s == CheckStatus::kPass) return;
  // The same finding reached again (another host behind this switch): keep each text once.
  if (item.found.find(found) == std::string::npos) item.found += "; " + found;
  if (item.expected.find(expected) == std::string::npos) item.expected += "; " + expected;
}

void CheckResults::pass(const std::string& target, CheckGroup g, std::string_view check, const std::string& port) {
  add(target, g, check, port, CheckStatus::kPass, "", "");
}

void CheckResults::warn(const std::string& target, CheckGroup g, std::string_view check, const std::string& port,
                        const std::string& expected, const std::string& found) {
  add(target, g, check, port, CheckStatus::kWarn, expected, found);
}

void CheckResults::fail(const std::string& target, CheckGroup g, std::string_view check, const std::string& port,
                        const std::string& expected, const std::string& found) {
  add(target, g, check, port, CheckStatus::kFail, expected, found);
}

void CheckResults::judge(bool ok, CheckStatus bad, const std::string& target, CheckGroup g, std::string_view check,
                         const std::string& port, const std::string& expected, const std::string& found) {
  add(target, g, check, port, ok ? CheckStatus::kPass : bad, ok ? "" : expected, ok ? "" : found);
}

void CheckResults::write(DerivedWriter& out) const {
  for (const auto& [target, items] : items_) {
    struct Counts {
      uint64_t checked = 0, failed = 0, warned = 0;
    };
    std::map<CheckGroup, Counts> counts;
    for (const auto& [id, item] : items) {
      Counts& c = counts[item.group];
      ++c.checked;
      if (item.status == CheckStatus::kFail) ++c.failed;
      if (item.status == CheckStatus::kWarn) ++c.warned;
      if (item.status == CheckStatus::kPass) continue;
      out.roceFinding(target, id, "group", std::string(checkGroupName(item.group)));
      out.roceFinding(target, id, "check", item.check);
      out.roceFinding(target, id, "port", item.port);
      out.roceFinding(target, id, "severity", std::string(checkStatusName(item.status)));
      out.roceFinding(target, id, "expected", item.expected);
      out.roceFinding(target, id, "found", item.found);
    }
    std::vector<CheckGroup> groups(std::begin(kCheckGroups), std::end(kCheckGroups));
    if (counts.count(CheckGroup::kGpu)) groups.push_back(CheckGroup::kGpu);
    for (CheckGroup g : groups) {
      const Counts& c = counts[g];
      const CheckStatus s = c.failed ? CheckStatus::kFail : c.warned ? CheckStatus::kWarn : CheckStatus::kPass;
      const std::string_view name = checkGroupName(g);
      out.roceGroup(target, name, "checked", c.checked);
      out.roceGroup(target, name, "failed", c.failed);
      out.roceGroup(target, name, "warned", c.warned);
      out.roceGroup(target, name, "status", std::string(checkStatusName(s)));
      out.roceGroup(target, name, "status-code", uint64_t(s));
    }
  }
}

void deriveRoceChecks(const RunContext& ctx, DerivedWriter& out) {
  CheckResults results;
  checkRoceConfig(ctx, results);
  checkRoceLive(ctx, out, results);
  checkWatchdogStorms(ctx, out, results);
  checkGpuReadiness(ctx, results);
  results.write(out);
}

}  // namespace rdmagw::analytics
