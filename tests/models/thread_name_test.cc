#include "models/thread_name.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace rdmagw {
namespace {

std::string commOf(long tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

TEST(ThreadNameTest, NamesTheCallingThreadCutTo15Bytes) {
  std::string short_name, long_name;
  std::thread t([&] {
    const long tid = syscall(SYS_gettid);
    nameThisThread("poll-worker");
    short_name = commOf(tid);
    nameThisThread("gnmi:leaf0123.pod7.example.net");
    long_name = commOf(tid);
  });
  t.join();
  EXPECT_EQ(short_name, "poll-worker");
  EXPECT_EQ(long_name, "gnmi:leaf0123.p");
}

}  // namespace
}  // namespace rdmagw
