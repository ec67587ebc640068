// The local tool runner (southbound/rdma/local_tool.h) against real programs:
// /bin/sh scripts that answer, fail, hang, close their output and stay, or
// print without end. A tool past its deadline or output bound is killed
// with what it started, and the poll goes on.

#include "southbound/rdma/local_tool.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <thread>

#include "southbound/rdma/memory_sysfs_reader.h"
#include "southbound/rdma/netdev_dcb.h"
#include "tests/southbound/rdma/rdma_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::rdma {
namespace {

using testing::TempDir;

// Long enough for /bin/sh to start and write its pid files on a loaded
// machine before the deadline ends it; short enough to keep the suite quick.
constexpr LocalToolLimits kShort{std::chrono::milliseconds(3000), 64 * 1024};

class LocalToolTest : public ::testing::Test {
 protected:
  // An executable /bin/sh script named `name` in the temp dir; its path.
  std::string script(const std::string& name, const std::string& body) {
    const std::string path = dir_.file(name);
    EXPECT_TRUE(testing::writeFile(path, "#!/bin/sh\n" + body + "\n"));
    ::chmod(path.c_str(), 0755);
    return path;
  }
  // The pid a script wrote to `name`; 0 if it wrote none.
  pid_t pidIn(const std::string& name) {
    return pid_t(std::atol(testing::readFile(dir_.file(name)).c_str()));
  }
  std::string file(const std::string& name) const { return dir_.file(name); }

  TempDir dir_{"rdmagw-local-tool"};
};

// Gone, or a zombie its (re)parent has yet to reap: it runs no more.
bool stopped(pid_t pid) {
  const std::string stat = testing::readFile("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return true;
  const size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

bool stopsWithinEventWait(pid_t pid) {
  const auto limit = std::chrono::steady_clock::now() + testing::kEventWait;
  while (!stopped(pid)) {
    if (std::chrono::steady_clock::now() > limit) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

TEST_F(LocalToolTest, AnsweringToolGivesItsOutput) {
  Result<std::string> r = runLocalTool({script("tool", "printf 'prio_pfc 3\\n'; echo noise >&2")}, "tool");
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(*r, "prio_pfc 3\n") << "stderr is not part of the answer";
}

TEST_F(LocalToolTest, FailingOrMissingToolIsNotFound) {
  Result<std::string> failed = runLocalTool({script("tool", "echo partial; exit 2")}, "tool: no DCB support");
  ASSERT_FALSE(failed.isOk());
  EXPECT_EQ(failed.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(failed.status().message(), "tool: no DCB support");

  Result<std::string> missing = runLocalTool({file("no-such-tool")}, "x");
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_NE(missing.status().message().find("not installed"), std::string::npos) << missing.status().message();
}

TEST_F(LocalToolTest, HungToolIsKilledAtTheDeadlineWithWhatItStarted) {
  const std::string tool = script("tool", "echo $$ > " + file("tool.pid") + "\n" +
                                              "sleep 300 & echo $! > " + file("child.pid") + "\n" +
                                              "echo started; sleep 300");
  Result<std::string> r = runLocalTool({tool}, "tool", kShort);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kUnavailable) << r.status().toString();
  EXPECT_NE(r.status().message().find("no answer within 3000 ms"), std::string::npos) << r.status().message();
  ASSERT_GT(pidIn("tool.pid"), 0);
  ASSERT_GT(pidIn("child.pid"), 0);
  EXPECT_TRUE(stopped(pidIn("tool.pid"))) << "the tool is reaped before the run returns";
  EXPECT_TRUE(stopsWithinEventWait(pidIn("child.pid"))) << "its background child went with it";
}

TEST_F(LocalToolTest, ToolThatClosesItsOutputButStaysIsKilled) {
  const std::string tool = script("tool", "echo $$ > " + file("tool.pid") + "\necho half\nexec >&-\nsleep 300");
  Result<std::string> r = runLocalTool({tool}, "tool", kShort);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(r.status().message().find("did not exit"), std::string::npos) << r.status().message();
  ASSERT_GT(pidIn("tool.pid"), 0);
  EXPECT_TRUE(stopped(pidIn("tool.pid")));
}

TEST_F(LocalToolTest, EndlessOutputIsCutAtTheBound) {
  const std::string tool = script("tool", "echo $$ > " + file("tool.pid") + "\nexec yes dscp_prio");
  Result<std::string> r = runLocalTool({tool}, "tool", LocalToolLimits{std::chrono::minutes(5), 64 * 1024});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kCorrupt) << r.status().toString();
  EXPECT_NE(r.status().message().find("65536 bytes"), std::string::npos) << r.status().message();
  ASSERT_GT(pidIn("tool.pid"), 0);
  EXPECT_TRUE(stopped(pidIn("tool.pid")));
}

TEST_F(LocalToolTest, ToolKilledByASignalIsUnavailableNotAbsent) {
  Result<std::string> r = runLocalTool({script("tool", "kill -SEGV $$")}, "tool");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(r.status().message().find("signal 11"), std::string::npos) << r.status().message();
}

// A source whose dcb hangs on every object: the collector asks once, writes
// an error line, and asks no more of dcb (nor mlnx_qos: the host has dcb)
// this poll, so one hung tool costs one deadline, not one per object.
class HungDcb : public EthtoolSource {
 public:
  Result<EthtoolStats> stats(const std::string&) override { return EthtoolStats{}; }
  Result<std::string> dcbJson(const std::string& object, const std::string&) override {
    ++dcb_runs;
    return Status::unavailable("dcb: no answer within 10000 ms; killed (" + object + ")");
  }
  Result<std::string> mlnxQosText(const std::string&) override {
    ++mlnx_qos_runs;
    return Status::notFound("none");
  }
  int dcb_runs = 0;
  int mlnx_qos_runs = 0;
};

TEST(NetdevDcbHungToolTest, OneHungDcbRunEndsThePollsDcbRunsForThatNetdev) {
  MemorySysfsReader r;
  r.addFile("class/net/ens1f0np0/mtu", "9000\n");
  HungDcb source;
  PollBatch b;
  appendNetdevDcb(r, &source, "ens1f0np0", 1700000000000000000, b);
  EXPECT_EQ(source.dcb_runs, 1);
  EXPECT_EQ(source.mlnx_qos_runs, 0);
  EXPECT_TRUE(rdmagw::testing::anyErrorContains(b, "dcb: no answer within 10000 ms"));
  EXPECT_EQ(testing::u64At(b, "/interfaces/interface[name=ens1f0np0]/state/mtu"), 9000u)
      << "the rest of the netdev is kept";
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
