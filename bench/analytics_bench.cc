// What one analytics run costs on a large fabric: the simulated fabric
// (sim/fabric.h) read into a Store through the gateway's own collectors and
// parsers (tests/analytics/sim_feed.h), tick by tick at simulated time, and
// after each tick two more engines on the same store, one with the RoCE
// checks and one without, each timed on its own. A run's cost is its
// reading of the store, deriving and writing back; the figures are the
// medians over the ticks after the window has filled.
//
//   rdmagw_analytics_bench [--hosts 320] [--devices 8] [--switches 40]
//                          [--hosts-per-leaf 8] [--ticks 12]
//
// The defaults are ~1M series (40 leaves of 64 host ports, 320 hosts of 8
// devices), the size a member of a fleet is planned for. Prints figures;
// asserts nothing.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analytics/analytics_engine.h"
#include "tests/analytics/sim_feed.h"

namespace {

using rdmagw::analytics::AnalyticsConfig;
using rdmagw::analytics::AnalyticsEngine;
using rdmagw::analytics::RunStats;
using Clock = std::chrono::steady_clock;

struct Options {
  int hosts = 320;
  int devices = 8;
  int switches = 40;
  int hosts_per_leaf = 8;  // a pod's rail on one leaf: 8 hosts x 8 devices spread over every leaf
  int ticks = 12;
};

bool parse(int argc, char** argv, Options* o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int v = std::atoi(argv[i + 1]);
    if (v <= 0) return false;
    if (flag == "--hosts")
      o->hosts = v;
    else if (flag == "--devices")
      o->devices = v;
    else if (flag == "--switches")
      o->switches = v;
    else if (flag == "--hosts-per-leaf")
      o->hosts_per_leaf = v;
    else if (flag == "--ticks")
      o->ticks = v;
    else
      return false;
  }
  return argc % 2 == 1;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: rdmagw_analytics_bench [--hosts N] [--devices N] [--switches N] [--hosts-per-leaf N] "
                 "[--ticks N]\n");
    return 2;
  }
  rdmagw::sim::FabricConfig fc;
  fc.hosts = o.hosts;
  fc.devices_per_host = o.devices;
  fc.switches = o.switches;
  fc.hosts_per_leaf = o.hosts_per_leaf;
  fc.esxi_hosts = 0;
  if (rdmagw::Status st = fc.validate(); !st.isOk()) {
    std::fprintf(stderr, "rdmagw_analytics_bench: %s\n", st.message().c_str());
    return 2;
  }
  // Links from LLDP, as a deployment without a static cabling list has them.
  rdmagw::testing::SimFeedOptions feed_options;
  feed_options.static_links = false;
  AnalyticsConfig config = rdmagw::testing::SimFeed::config();
  config.no_drop_priorities = {fc.roce_priority};
  rdmagw::testing::SimFeed feed(fc, config, feed_options);

  AnalyticsConfig with = config, without = config;
  with.roce_checks = true;
  without.roce_checks = false;
  AnalyticsEngine checks_on(feed.store(), with);
  AnalyticsEngine checks_off(feed.store(), without);

  const int warm = int(config.window / std::chrono::milliseconds(1000)) + 2;
  std::vector<double> tick_s, on_s, on_checks_s, off_s;
  size_t written_on = 0, written_off = 0;
  rdmagw::TimestampNs now = 1'700'000'000'000'000'000;  // SimFeed's first tick comes one tick after this
  for (int t = 0; t < warm + o.ticks; ++t) {
    const Clock::time_point a = Clock::now();
    feed.tick();
    now += rdmagw::testing::SimFeed::kTickNs;
    const Clock::time_point b = Clock::now();
    const RunStats off = checks_off.runOnce(now);
    const RunStats on = checks_on.runOnce(now);
    if (t < warm) continue;
    tick_s.push_back(seconds(b - a));
    off_s.push_back(seconds(off.duration));
    on_s.push_back(seconds(on.duration));
    on_checks_s.push_back(seconds(on.roce_checks_duration));
    written_off = off.written;
    written_on = on.written;
  }
  std::printf("fabric: %d leaves, %d hosts x %d devices; %zu series in the store\n", o.switches, o.hosts, o.devices,
              feed.store().seriesCount());
  std::printf("ticks measured: %d (after %d to fill the %lld s window)\n", o.ticks, warm,
              static_cast<long long>(config.window / std::chrono::seconds(1)));
  std::printf("analytics run, RoCE checks off: median %.3f s (%zu derived leaves written a run)\n", median(off_s),
              written_off);
  std::printf("analytics run, RoCE checks on:  median %.3f s, of it the checks %.3f s (%zu derived leaves)\n",
              median(on_s), median(on_checks_s), written_on);
  std::printf("the feed's tick (render, parse, store, its own run): median %.3f s\n", median(tick_s));
  return 0;
}
