// Rendezvous placement of a fleet-sized target list: how long a member takes
// to compute the owners, and how many targets move when a member joins or
// leaves. Prints figures; build Release.
//   ./build-rel/bench/rdmagw_placement_bench [targets] [members]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cluster/placement.h"

namespace {

using rdmagw::cluster::PlacementTarget;

std::vector<std::string> ownersOf(const std::vector<PlacementTarget>& targets, const std::vector<std::string>& members) {
  std::vector<std::string> out;
  out.reserve(targets.size());
  for (const PlacementTarget& t : targets) out.push_back(rdmagw::cluster::owner(t, members));
  return out;
}

size_t moved(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n_targets = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  const size_t n_members = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 5;
  if (n_targets == 0 || n_members < 2) {
    std::fprintf(stderr, "usage: %s [targets >= 1] [members >= 2]\n", argv[0]);
    return 2;
  }
  // Names shaped like a fabric's: leaves, then hosts.
  std::vector<PlacementTarget> targets;
  for (size_t i = 0; i < n_targets; ++i) {
    targets.push_back({(i % 11 == 0 ? "leaf" : "esx") + std::to_string(i) + ".dc1.example.net", ""});
  }
  std::vector<std::string> members;
  for (size_t i = 0; i < n_members; ++i) members.push_back("gw-" + std::to_string(i + 1));

  // What one member does on every change of the member set: its own share.
  std::vector<double> ms;
  size_t mine = 0;
  for (int rep = 0; rep < 30; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    mine = rdmagw::cluster::owned(targets, members, members[0]).size();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());

  const std::vector<std::string> base = ownersOf(targets, members);
  std::vector<std::string> joined = members;
  joined.push_back("gw-" + std::to_string(n_members + 1));
  std::vector<std::string> left = members;
  left.erase(left.begin() + static_cast<long>(n_members / 2));
  const std::vector<std::string> after_join = ownersOf(targets, joined);
  const size_t on_join = moved(base, after_join);
  size_t not_to_newcomer = 0;
  for (size_t i = 0; i < base.size(); ++i) not_to_newcomer += base[i] != after_join[i] && after_join[i] != joined.back();
  const size_t on_leave = moved(base, ownersOf(targets, left));
  const size_t leaver_had = static_cast<size_t>(std::count(base.begin(), base.end(), members[n_members / 2]));

  std::printf("placement: %zu targets over %zu members\n", n_targets, n_members);
  std::printf("  owned() by one member: median %.3f ms, max %.3f ms (%zu targets owned)\n", ms[ms.size() / 2],
              ms.back(), mine);
  std::printf("  join  (%zu -> %zu): %zu moved (%.1f%%; ideal 1/%zu = %.1f%%), %zu of them not to the newcomer\n",
              n_members, n_members + 1, on_join, 100.0 * on_join / n_targets, n_members + 1, 100.0 / (n_members + 1),
              not_to_newcomer);
  std::printf("  leave (%zu -> %zu): %zu moved (%.1f%%), the leaver had %zu\n", n_members, n_members - 1, on_leave,
              100.0 * on_leave / n_targets, leaver_had);
  return 0;
}
