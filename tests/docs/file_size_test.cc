// The size rule of docs/architecture.md ("Small files"), checked on every
// production source: a .cc over 400 lines or a header over 150 must say why
// in its first comment ("Longer than a ... should be because ..."), so a
// file that grows past the mark is split or explained, never just left.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rdmagw::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = RDMAGW_SOURCE_DIR;
// What ships or runs beside what ships; tests, benchmarks and fuzzers are
// held to their own measure.
const std::vector<std::string> kProductionDirs = {"common",  "models",  "southbound", "northbound",
                                                  "analytics", "cluster", "gateway",    "sim"};
constexpr size_t kMaxSourceLines = 400;
constexpr size_t kMaxHeaderLines = 150;

struct FileShape {
  size_t lines = 0;
  bool explained = false;  // its first comment says why it is longer
};

FileShape shapeOf(const fs::path& file) {
  FileShape shape;
  std::ifstream in(file);
  bool in_first_comment = true;
  for (std::string line; std::getline(in, line);) {
    ++shape.lines;
    if (!in_first_comment) continue;
    if (line.starts_with("#pragma") || (shape.lines == 1 && line.empty())) continue;
    if (!line.starts_with("//")) {
      in_first_comment = false;
      continue;
    }
    if (line.find("should be because") != std::string::npos) shape.explained = true;
  }
  return shape;
}

TEST(FileSizeTest, LongProductionFilesSayWhy) {
  size_t checked = 0;
  for (const std::string& dir : kProductionDirs) {
    ASSERT_TRUE(fs::is_directory(kSource / dir)) << dir;
    for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) {
      const std::string ext = e.path().extension().string();
      if (ext != ".h" && ext != ".cc") continue;
      ++checked;
      const size_t max = ext == ".h" ? kMaxHeaderLines : kMaxSourceLines;
      const FileShape shape = shapeOf(e.path());
      EXPECT_TRUE(shape.lines <= max || shape.explained)
          << fs::relative(e.path(), kSource).string() << " has " << shape.lines << " lines (over " << max
          << "): split it, or say in its first comment why it is longer (\"Longer than a "
          << (ext == ".h" ? "header" : "file") << " should be because ...\")";
    }
  }
  EXPECT_GT(checked, 400u) << "too few sources found: the walk is broken";
}

TEST(FileSizeTest, TheRuleSeesALongFile) {
  // The check itself, on files made here: one long and silent, one long
  // and explained, so a broken reader cannot pass every file.
  const fs::path dir = fs::temp_directory_path() / ("rdmagw-size-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "silent.h") << "#pragma once\n// A header.\n" << std::string(200, '\n');
  std::ofstream(dir / "explained.h") << "#pragma once\n// A header.\n// Longer than a header should be because "
                                        "it is a table.\n"
                                     << std::string(200, '\n');
  const FileShape silent = shapeOf(dir / "silent.h");
  const FileShape explained = shapeOf(dir / "explained.h");
  fs::remove_all(dir);
  EXPECT_GT(silent.lines, kMaxHeaderLines);
  EXPECT_FALSE(silent.explained);
  EXPECT_TRUE(explained.explained);
}

}  // namespace
}  // namespace rdmagw::testing
