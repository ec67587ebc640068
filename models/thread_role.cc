#include "models/thread_role.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "models/log.h"

namespace rdmagw {
namespace {

std::atomic<int> g_ingest_nice{0};
std::atomic<bool> g_refusal_logged{false};

}  // namespace

void setIngestNice(int nice) { g_ingest_nice = std::clamp(nice, 0, 19); }
int ingestNice() { return g_ingest_nice; }

void enterThreadRole(std::string_view name, ThreadRole role) {
  const std::string cut(name.substr(0, 15));
  pthread_setname_np(pthread_self(), cut.c_str());
  const int step = g_ingest_nice;
  if (role != ThreadRole::kIngest || step == 0) return;
  // On Linux, PRIO_PROCESS with a thread id sets that one thread's nice.
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, tid);
  if (now == -1 && errno != 0) return;
  if (setpriority(PRIO_PROCESS, tid, std::min(now + step, 19)) != 0 && !g_refusal_logged.exchange(true)) {
    RDMAGW_LOG(kWarn, "gateway") << "ingest threads keep the users' CPU priority: setpriority: "
                                 << std::strerror(errno);
  }
}

}  // namespace rdmagw
