#include "common/file_text.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::common {
namespace {

TEST(FileTextTest, ReadsTheWholeFileByteForByte) {
  testing::TempDir dir("rdmagw-file-text");
  const std::string bytes = std::string("line one\r\nline two\n\0binary\xff", 27);
  ASSERT_TRUE(testing::writeFile(dir.file("f"), bytes));
  FileText f = readFileText(dir.file("f"));
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.text, bytes);
  EXPECT_EQ(f.error_number, 0);
}

TEST(FileTextTest, ReadsAFileLargerThanOneReadBuffer) {
  testing::TempDir dir("rdmagw-file-text");
  std::string big;
  for (int i = 0; big.size() < 300 * 1024; ++i) big += std::to_string(i) + "\n";
  ASSERT_TRUE(testing::writeFile(dir.file("big"), big));
  FileText f = readFileText(dir.file("big"));
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.text.size(), big.size());
  EXPECT_EQ(f.text, big);
}

TEST(FileTextTest, AnEmptyFileIsReadAsEmpty) {
  testing::TempDir dir("rdmagw-file-text");
  ASSERT_TRUE(testing::writeFile(dir.file("empty"), ""));
  FileText f = readFileText(dir.file("empty"));
  EXPECT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.text, "");
}

TEST(FileTextTest, AMissingFileIsAnErrorNamingThePathAndTheReason) {
  FileText f = readFileText("/nonexistent/rdmagw/file");
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.error_number, ENOENT);
  EXPECT_EQ(f.error, "cannot read /nonexistent/rdmagw/file: No such file or directory");
  EXPECT_EQ(f.text, "");
}

TEST(FileTextTest, ADirectoryIsAnErrorNotAnEmptyText) {
  testing::TempDir dir("rdmagw-file-text");
  FileText f = readFileText(dir.path());
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.error_number, EISDIR);
  EXPECT_NE(f.error.find("cannot read " + dir.path()), std::string::npos) << f.error;
}

}  // namespace
}  // namespace rdmagw::common
