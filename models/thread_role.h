#pragma once
// Every long-lived thread of ours says what it is for when it starts:
//  - its name, as `top -H`, `perf` and /proc/<pid>/task/*/comm show it, so an
//    operator sees which part of the gateway uses the CPU (Linux keeps 15
//    bytes; longer names are cut);
//  - its role. Ingest threads (poll workers, the per-switch gNMI threads)
//    run `ingest_nice` steps below the threads that answer users (scrapes,
//    gNMI and SNMP requests). A collection burst (every switch's SAMPLE and
//    every host's poll landing together) then delays ingest by a little
//    rather than a scrape by a lot: at 1M series on 2 cores a scrape that
//    needs ~60 ms of CPU waited ~1 s among ~90 runnable ingest threads.

#include <string_view>

namespace rdmagw {

enum class ThreadRole { kServe, kIngest };

// Names the calling thread; an ingest thread's nice value is raised by the
// process's ingest nice (to at most 19). Never fails: a refusal is logged once.
void enterThreadRole(std::string_view name, ThreadRole role);

// From the config's `ingest_nice` (0-19, default 10), before threads start;
// 0 keeps ingest at the users' priority.
void setIngestNice(int nice);
int ingestNice();

}  // namespace rdmagw
