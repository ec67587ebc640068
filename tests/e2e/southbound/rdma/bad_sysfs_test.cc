// Files in a sysfs tree that never end: a FIFO with no writer, a FIFO whose
// writer stays silent, a symlink to /dev/zero, a file far larger than any
// attribute. Each is read up to a cap and without waiting, reported as an
// error of that file, and the rest of the host (and another host polled by
// the same scheduler) is still read. Real files in a temp tree, no mocks.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "models/store.h"
#include "southbound/poll_scheduler.h"
#include "southbound/rdma/rdma_collector.h"
#include "southbound/rdma/remote_dump.h"
#include "southbound/rdma/sysfs_reader_impl.h"
#include "tests/southbound/rdma/rdma_test_util.h"
#include "tests/support/test_support.h"

namespace rdmagw::southbound::rdma {
namespace {

using rdmagw::testing::TempTree;
using std::chrono::milliseconds;

const std::string kCounters = "/ports/port[port-num=1]/state/counters/port-xmit-octets";
std::string devPath(const std::string& dev) { return "/rdma/devices/device[name=" + dev + "]"; }

void writeDevice(TempTree& t, const std::string& dev, uint64_t xmit_words) {
  const std::string d = "sys/class/infiniband/" + dev + "/";
  t.write(d + "fw_ver", "22.36.1010\n");
  t.write(d + "ports/1/state", "4: ACTIVE\n");
  t.write(d + "ports/1/link_layer", "InfiniBand\n");
  t.write(d + "ports/1/counters/port_xmit_data", std::to_string(xmit_words) + "\n");
}

// A host whose mlx5_1 has, next to a good counter, every kind of file that
// never ends; mlx5_0 is a plain device. The FIFOs are unplugged (a writer
// opened and closed) when the object goes, so that a reader which did block
// (the cap removed) is released and the test fails instead of hanging.
class PoisonedHost {
 public:
  PoisonedHost() {
    writeDevice(tree, "mlx5_0", 100);
    writeDevice(tree, "mlx5_1", 200);
    const std::string c = tree.path("sys/class/infiniband/mlx5_1/ports/1/counters/");
    EXPECT_EQ(::mkfifo((c + "fifo_no_writer").c_str(), 0600), 0);
    EXPECT_EQ(::mkfifo((c + "fifo_silent_writer").c_str(), 0600), 0);
    // Held open read-write: the FIFO has a writer that never writes.
    silent_writer_ = ::open((c + "fifo_silent_writer").c_str(), O_RDWR | O_NONBLOCK);
    EXPECT_GE(silent_writer_, 0);
    std::filesystem::create_symlink("/dev/zero", c + "endless_zero");
    tree.write("sys/class/infiniband/mlx5_1/ports/1/counters/still_growing",
               std::string(kMaxSysfsFileBytes * 3, '7'));
    // A per-device file read on its own (readFile, not readDir).
    std::filesystem::remove(tree.path("sys/class/infiniband/mlx5_1/fw_ver"));
    std::filesystem::create_symlink("/dev/zero", tree.path("sys/class/infiniband/mlx5_1/fw_ver"));
  }
  ~PoisonedHost() {
    const std::string c = tree.path("sys/class/infiniband/mlx5_1/ports/1/counters/");
    int fd = ::open((c + "fifo_no_writer").c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
    if (silent_writer_ >= 0) ::close(silent_writer_);
  }
  TempTree tree;

 private:
  int silent_writer_ = -1;
};

std::unique_ptr<RdmaCollector> collectorFor(const TempTree& t) {
  return std::make_unique<RdmaCollector>(std::make_unique<SysfsReaderImpl>(t.path("sys")), DeviceFilter(),
                                         nullptr);
}

bool anyError(const std::vector<std::string>& errors, const std::string& a, const std::string& b) {
  for (const std::string& e : errors) {
    if (e.find(a) != std::string::npos && e.find(b) != std::string::npos) return true;
  }
  return false;
}

TEST(BadSysfsTest, EndlessFilesAreCutAndNamedTheRestIsRead) {
  PoisonedHost host;
  auto c = collectorFor(host.tree);
  PollBatch b;
  ASSERT_TRUE(c->poll(b).isOk());
  EXPECT_TRUE(anyError(b.errors, "fifo_no_writer", "FIFO: not a sysfs attribute")) << ::testing::PrintToString(b.errors);
  EXPECT_TRUE(anyError(b.errors, "fifo_silent_writer", "FIFO with no data ready")) << ::testing::PrintToString(b.errors);
  const std::string cap = "longer than " + std::to_string(kMaxSysfsFileBytes) + " bytes";
  EXPECT_TRUE(anyError(b.errors, "endless_zero", "character device " + cap)) << ::testing::PrintToString(b.errors);
  EXPECT_TRUE(anyError(b.errors, "still_growing", "regular file " + cap)) << ::testing::PrintToString(b.errors);
  EXPECT_TRUE(anyError(b.errors, "mlx5_1/fw_ver", "character device " + cap)) << ::testing::PrintToString(b.errors);
  // No value holds a piece of an endless file.
  for (const Update& u : b.updates) {
    if (const std::string* s = std::get_if<std::string>(&u.value)) {
      EXPECT_LE(s->size(), 4096u) << u.path;
    }
  }
  // Everything else of the host: the other device whole, the good counter
  // of the poisoned one.
  EXPECT_EQ(std::get<uint64_t>(testing::findUpdate(b, devPath("mlx5_0") + kCounters)->value), 400u);
  EXPECT_EQ(std::get<uint64_t>(testing::findUpdate(b, devPath("mlx5_1") + kCounters)->value), 800u);
  EXPECT_TRUE(testing::findUpdate(b, devPath("mlx5_0") + "/state/fw-version"));
}

TEST(BadSysfsTest, HealthSaysWhyAndAnotherHostKeepsItsPace) {
  PoisonedHost bad;
  TempTree good;
  writeDevice(good, "mlx5_0", 1);
  Store store;
  PollScheduler s(store, 2);
  s.add(PollTarget{"bad-host", "rdma-host", collectorFor(bad.tree), milliseconds(50)});
  s.add(PollTarget{"good-host", "rdma-host", collectorFor(good), milliseconds(50)});
  s.start();
  const auto health = [&](const std::string& name) {
    for (const TargetStatus& t : store.targets()) {
      if (t.name == name) return t.health;
    }
    return TargetHealth{};
  };
  const auto xmit = [&](const std::string& target, const std::string& dev) -> uint64_t {
    auto v = store.get(target, devPath(dev) + kCounters);
    return v ? std::get<uint64_t>(v->value) : 0;
  };
  // The good host follows its counter while the bad one is polled again and again.
  for (uint64_t words : {10, 20, 30}) {
    good.write("sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data", std::to_string(words) + "\n");
    EXPECT_TRUE(testing::waitUntil([&] { return xmit("good-host", "mlx5_0") == words * 4; })) << words;
  }
  const uint64_t bad_polls = health("bad-host").polls;
  EXPECT_TRUE(testing::waitUntil([&] { return health("bad-host").polls >= bad_polls + 3; }));
  s.stop();

  TargetHealth h = health("bad-host");
  EXPECT_TRUE(h.up);  // the host answers: the endless files are its read errors
  EXPECT_EQ(h.poll_errors, 0u);
  EXPECT_GE(h.read_errors, 5 * h.polls);
  EXPECT_NE(h.last_error.find("not a sysfs attribute"), std::string::npos) << h.last_error;
  EXPECT_EQ(xmit("bad-host", "mlx5_0"), 400u);
  EXPECT_EQ(xmit("bad-host", "mlx5_1"), 800u);
  EXPECT_TRUE(health("good-host").up);
  EXPECT_EQ(health("good-host").read_errors, 0u);
}

TEST(BadSysfsTest, RemoteDumpSkipsWhatIsNoFileAndReadsTheRest) {
  PoisonedHost host;
  RdmaConfig c;
  c.sysfs_root = host.tree.path("sys");
  c.ethtool = RdmaConfig::EthtoolMode::kNone;
  c.lldp = RdmaConfig::LldpMode::kOff;
  // As the SSH session would run it; `timeout` only so that a regression
  // fails the test instead of hanging it.
  FILE* f = ::popen(("timeout 60 " + remoteDumpCommand(c)).c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string dump;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) dump.append(buf, n);
  ASSERT_EQ(::pclose(f), 0) << "the dump did not finish:\n" << dump.substr(0, 2000);
  PollBatch b;
  ASSERT_TRUE(parseRemoteDump(dump, 1, b).isOk()) << dump.substr(0, 2000);
  for (const char* name : {"fifo_no_writer", "fifo_silent_writer", "endless_zero", "mlx5_1/fw_ver"}) {
    EXPECT_TRUE(anyError(b.errors, name, "")) << name << ": " << ::testing::PrintToString(b.errors);
  }
  EXPECT_EQ(std::get<uint64_t>(testing::findUpdate(b, devPath("mlx5_0") + kCounters)->value), 400u);
  EXPECT_EQ(std::get<uint64_t>(testing::findUpdate(b, devPath("mlx5_1") + kCounters)->value), 800u);
}

}  // namespace
}  // namespace rdmagw::southbound::rdma
