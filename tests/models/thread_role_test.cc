#include "models/thread_role.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace rdmagw {
namespace {

struct Seen {
  std::string name;
  int nice_before = 0;
  int nice_after = 0;
};

// Starts a thread that enters `role` as `name` and reports what the kernel
// then says of it.
Seen runAs(const std::string& name, ThreadRole role) {
  Seen seen;
  std::thread t([&] {
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    seen.nice_before = getpriority(PRIO_PROCESS, tid);
    enterThreadRole(name, role);
    seen.nice_after = getpriority(PRIO_PROCESS, tid);
    std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/comm");
    std::getline(in, seen.name);
  });
  t.join();
  return seen;
}

class ThreadRoleTest : public ::testing::Test {
 protected:
  void TearDown() override { setIngestNice(0); }
};

TEST_F(ThreadRoleTest, NamesTheThreadCutTo15Bytes) {
  EXPECT_EQ(runAs("snmp-refresh", ThreadRole::kServe).name, "snmp-refresh");
  EXPECT_EQ(runAs("gnmi:leaf0123.pod7.example.net", ThreadRole::kIngest).name, "gnmi:leaf0123.p");
}

TEST_F(ThreadRoleTest, IngestThreadsRunBelowServingOnes) {
  setIngestNice(7);
  const Seen ingest = runAs("poll-worker", ThreadRole::kIngest);
  EXPECT_EQ(ingest.nice_after, std::min(ingest.nice_before + 7, 19));
  const Seen serve = runAs("gnmi-hub", ThreadRole::kServe);
  EXPECT_EQ(serve.nice_after, serve.nice_before);
  EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))), serve.nice_before)
      << "only the calling thread changes, not the process";
}

TEST_F(ThreadRoleTest, ZeroKeepsIngestAtTheUsersPriorityAndValuesAreClamped) {
  setIngestNice(0);
  const Seen ingest = runAs("poll-worker", ThreadRole::kIngest);
  EXPECT_EQ(ingest.nice_after, ingest.nice_before);
  setIngestNice(40);
  EXPECT_EQ(ingestNice(), 19);
  setIngestNice(-3);
  EXPECT_EQ(ingestNice(), 0);
}

}  // namespace
}  // namespace rdmagw
