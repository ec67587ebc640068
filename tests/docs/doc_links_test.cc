// Every relative link of README.md and docs/*.md leads somewhere: the file
// (or directory) exists, and a #fragment names a heading of the page it
// points at, as GitHub makes anchors of headings.

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = RDMAGW_SOURCE_DIR;

// Pages other branches are writing while these docs already link to them.
// A link to one is not checked while it is missing; once it exists, the test
// fails until it is taken off this list (then its links are checked too).
const std::set<std::string> kWrittenElsewhere = {};

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The page's lines outside fenced code blocks, with inline code blanked:
// a link inside code is an example, not a link.
std::vector<std::string> proseLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  bool fenced = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("```")) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    out.push_back(std::regex_replace(line, std::regex("`[^`]*`"), "``"));
  }
  return out;
}

// GitHub's anchor of a heading: lower case, punctuation dropped (letters,
// digits, '-', '_' and spaces kept, and non-ASCII letters), spaces as '-'.
std::string anchorOf(const std::string& heading) {
  std::string out;
  for (size_t i = 0; i < heading.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(heading[i]);
    if (c >= 0x80) {
      // U+2013/U+2014 (dashes) are punctuation; other UTF-8 is kept.
      if (c == 0xE2 && i + 2 < heading.size() && static_cast<unsigned char>(heading[i + 1]) == 0x80 &&
          (static_cast<unsigned char>(heading[i + 2]) == 0x93 || static_cast<unsigned char>(heading[i + 2]) == 0x94)) {
        i += 2;
        continue;
      }
      out += char(c);
    } else if (std::isalnum(c) || c == '-' || c == '_') {
      out += char(std::tolower(c));
    } else if (c == ' ') {
      out += '-';
    }
  }
  return out;
}

std::set<std::string> anchorsOf(const fs::path& page) {
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  std::istringstream in(slurp(page));
  bool fenced = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("```")) fenced = !fenced;
    if (fenced || !line.starts_with("#")) continue;
    const size_t text = line.find_first_not_of('#');
    if (text == std::string::npos || line[text] != ' ') continue;
    const std::string base = anchorOf(line.substr(text + 1));
    const int n = seen[base]++;
    anchors.insert(n == 0 ? base : base + "-" + std::to_string(n));
  }
  return anchors;
}

std::vector<fs::path> pages() {
  std::vector<fs::path> out = {kSource / "README.md"};
  for (const auto& e : fs::directory_iterator(kSource / "docs")) {
    if (e.path().extension() == ".md") out.push_back(e.path());
  }
  return out;
}

std::string fromSource(const fs::path& p) { return fs::relative(p, kSource).lexically_normal().string(); }

TEST(DocLinksTest, AnchorsFollowGitHub) {
  EXPECT_EQ(anchorOf("Install from the package"), "install-from-the-package");
  EXPECT_EQ(anchorOf("`rdmagw status`: one screen"), "rdmagw-status-one-screen");
  EXPECT_EQ(anchorOf("rdmagw — streaming telemetry"), "rdmagw--streaming-telemetry");
  EXPECT_EQ(anchorOf("What it is, and for whom"), "what-it-is-and-for-whom");
}

TEST(DocLinksTest, EveryRelativeLinkResolves) {
  const std::regex link_re(R"(!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\))");
  size_t checked = 0;
  for (const fs::path& page : pages()) {
    const std::vector<std::string> lines = proseLines(slurp(page));
    for (size_t n = 0; n < lines.size(); ++n) {
      for (std::sregex_iterator it(lines[n].begin(), lines[n].end(), link_re), end; it != end; ++it) {
        const std::string target = (*it)[1].str();
        if (std::regex_search(target, std::regex("^[a-z][a-z0-9+.-]*:"))) continue;  // http:, mailto:
        const std::string where = fromSource(page) + ": link (" + target + ")";
        const size_t hash = target.find('#');
        const std::string file = target.substr(0, hash);
        const fs::path dest = file.empty() ? page : (page.parent_path() / file).lexically_normal();
        ++checked;
        if (kWrittenElsewhere.count(fromSource(dest)) && !fs::exists(dest)) continue;
        if (!fs::exists(dest)) {
          ADD_FAILURE() << where << ": no such file " << fromSource(dest);
          continue;
        }
        if (hash == std::string::npos) continue;
        EXPECT_EQ(dest.extension(), ".md") << where << ": a #fragment into a file that is not a page";
        const std::set<std::string> anchors = anchorsOf(dest);
        EXPECT_TRUE(anchors.count(target.substr(hash + 1)))
            << where << ": " << fromSource(dest) << " has no heading with that anchor";
      }
    }
  }
  EXPECT_GT(checked, 20u) << "no links found: the link pattern is broken";
}

TEST(DocLinksTest, PagesWrittenElsewhereAreStillMissing) {
  for (const std::string& page : kWrittenElsewhere) {
    EXPECT_FALSE(fs::exists(kSource / page)) << page << " exists now: take it off kWrittenElsewhere in " << __FILE__;
  }
}

}  // namespace
