// The one kernel-file read every southbound reader uses: a /proc file is
// read to its end however the kernel cuts it, a sysfs-style file stops at
// its first short read, and files that are no kernel text (a FIFO, a file
// past the cap) are errors that name the path, never values cut short.

#include "southbound/kernel_text.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tests/support/test_support.h"

namespace rdmagw::southbound {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(KernelTextTest, AProcFileIsReadToItsEnd) {
  // /proc/self/smaps is tens of KiB for any process and a seq_file hands it
  // out a page or less per read(): read as a sysfs attribute it stops after
  // the first piece, read as a /proc file it comes whole, every mapping's
  // block ending in its VmFlags line.
  Result<std::string> whole = readKernelFile("/proc/self/smaps", KernelFileKind::kProcFile, 4 << 20);
  ASSERT_TRUE(whole.isOk()) << whole.status().message();
  Result<std::string> first = readKernelFile("/proc/self/smaps", KernelFileKind::kSysfsAttribute, 4 << 20);
  ASSERT_TRUE(first.isOk()) << first.status().message();
  EXPECT_LE(first->size(), 4096u);
  EXPECT_GT(whole->size(), 4u * first->size());
  EXPECT_EQ(whole->back(), '\n');
  EXPECT_EQ(whole->rfind("VmFlags:"), whole->rfind('\n', whole->size() - 2) + 1) << "the last block is cut";
  Result<std::string> cgroup = readKernelFile("/proc/self/cgroup", KernelFileKind::kProcFile);
  ASSERT_TRUE(cgroup.isOk()) << cgroup.status().message();
  EXPECT_EQ(*cgroup, slurp("/proc/self/cgroup"));
}

TEST(KernelTextTest, ARegularFileReadsWholeAndPastTheCapIsAnError) {
  testing::TempDir dir("rdmagw-kernel-text");
  const std::string small = dir.path() + "/small";
  testing::writeFile(small, "42\n");
  EXPECT_EQ(*readKernelFile(small, KernelFileKind::kSysfsAttribute), "42\n");
  EXPECT_EQ(*readKernelFile(small, KernelFileKind::kProcFile), "42\n");

  const std::string big = dir.path() + "/big";
  testing::writeFile(big, std::string(10000, 'x'));
  Result<std::string> capped = readKernelFile(big, KernelFileKind::kProcFile, 8192);
  ASSERT_FALSE(capped.isOk());
  EXPECT_NE(capped.status().message().find(big + ": regular file longer than 8192 bytes"), std::string::npos)
      << capped.status().message();
}

TEST(KernelTextTest, AFifoAndAMissingFileAreNamedErrors) {
  testing::TempDir dir("rdmagw-kernel-text");
  const std::string fifo = dir.path() + "/cgroup";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Result<std::string> r = readKernelFile(fifo, KernelFileKind::kProcFile);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find(fifo + ": FIFO: not a /proc text file"), std::string::npos)
      << r.status().message();
  Result<std::string> missing = readKernelFile(dir.path() + "/none", KernelFileKind::kSysfsAttribute);
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_NE(missing.status().message().find("(ENOENT)"), std::string::npos);
}

}  // namespace
}  // namespace rdmagw::southbound
