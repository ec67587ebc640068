#pragma once
// Every long-lived thread of ours says what it is for when it starts:
//  - its name, as `top -H`, `perf` and /proc/<pid>/task/*/comm show it, so an
//    operator sees which part of the gateway uses the CPU (Linux keeps 15
//    bytes; longer names are cut);
//  - its role. Ingest threads (poll workers, the per-switch gNMI threads)
//    can run `ingest_nice` steps below the threads that answer users
//    (scrapes, gNMI and SNMP requests), so a collection burst delays ingest
//    rather than a scrape. Off by default: in the 1M-series scale run, once
//    the simulator no longer shared the gateway's priority, nice 10 was not
//    clearly better (docs/performance.md). CFS weights are per thread, and
//    ~90 runnable ingest threads at nice 10 still outweigh one scrape thread.

#include <string_view>

namespace rdmagw {

enum class ThreadRole { kServe, kIngest };

// Names the calling thread; an ingest thread's nice value is raised by the
// process's ingest nice (to at most 19). Never fails: a refusal is logged once.
void enterThreadRole(std::string_view name, ThreadRole role);

// From the config's `ingest_nice` (0-19, default 0: ingest at the users'
// priority), before threads start.
void setIngestNice(int nice);
int ingestNice();

}  // namespace rdmagw
