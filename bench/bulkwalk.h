#pragma once
// One snmpbulkwalk through a benchmark's snmpd, and the figures the SNMP
// benchmarks print about a run of them. Shared by snmp_bench.cc (rdmagw's
// subagent) and agentx_ceiling_bench.cc (a subagent doing nothing), so both
// are walked and reported the same way.

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/snmpd_launcher.h"

namespace rdmagw::bench {

// Varbinds returned by one snmpbulkwalk of `root` in `context`; 0 when the
// walk failed (the caller retries or reports it).
inline size_t bulkWalk(const sim::SnmpdLauncher& snmpd, const std::string& context, int repetitions,
                       const std::string& root) {
  std::string cmd = snmpd.clientEnv() + " snmpbulkwalk -On -Oq -t 5 -Cr" + std::to_string(repetitions) + " " +
                    snmpd.v2cArgs(context) + " " + root + " 2>/dev/null | wc -l";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return 0;
  size_t n = 0;
  if (fscanf(p, "%zu", &n) != 1) n = 0;
  pclose(p);
  return n;
}

// This process's CPU seconds (user + system): the subagent runs in it.
inline double processCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Counters of a timed run of walks: rate, size and the subagent's CPU per
// varbind (cpu_seconds spent by this process during the run).
inline void reportWalks(benchmark::State& state, size_t varbinds, double cpu_seconds) {
  state.counters["subagent_cpu_us_per_varbind"] = 1e6 * cpu_seconds / double(std::max<size_t>(varbinds, 1));
  state.counters["varbinds_per_s"] = benchmark::Counter(double(varbinds), benchmark::Counter::kIsRate);
  state.counters["varbinds_per_walk"] = double(varbinds) / double(state.iterations());
}

}  // namespace rdmagw::bench
