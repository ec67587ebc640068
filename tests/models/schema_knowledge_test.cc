// Per-leaf knowledge lives in models/schema.yaml and nowhere else: the
// hand-written code of northbound/, analytics/, gateway/ and southbound/
// spells no OID, no enterprise number, no YANG module name of the schema and
// no Prometheus family of a schema row. Comments may name them (they explain
// code); string literals and code may not, since those are what drift when
// the schema changes.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/schema.h"
#include "tests/support/test_support.h"

namespace rdmagw {
namespace {

namespace fs = std::filesystem;

struct Finding {
  std::string file;
  int line = 0;
  std::string what;
  std::string text;  // the line, comments blanked
};

// The source with every comment blanked (newlines kept, so line numbers
// hold); string and character literals stay, raw strings included.
std::string withoutComments(const std::string& src) {
  std::string out = src;
  size_t i = 0;
  const size_t n = src.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k) {
      if (out[k] != '\n') out[k] = ' ';
    }
  };
  while (i < n) {
    const char c = src[i];
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      size_t end = src.find('\n', i);
      if (end == std::string::npos) end = n;
      blank(i, end);
      i = end;
    } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      size_t end = src.find("*/", i + 2);
      end = end == std::string::npos ? n : end + 2;
      blank(i, end);
      i = end;
    } else if (c == 'R' && i + 1 < n && src[i + 1] == '"' && (i == 0 || !std::isalnum(static_cast<unsigned char>(src[i - 1])))) {
      const size_t open = src.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + src.substr(i + 2, open - i - 2) + "\"";
      const size_t end = src.find(close, open);
      i = end == std::string::npos ? n : end + close.size();
    } else if (c == '"' || c == '\'') {
      size_t k = i + 1;
      while (k < n && src[k] != c && src[k] != '\n') k += src[k] == '\\' ? 2 : 1;
      i = k + 1;
    } else {
      ++i;
    }
  }
  return out;
}

// What no hand-written northbound, analytics, gateway or southbound code may
// spell, taken from the schema itself.
struct Forbidden {
  std::string enterprise_number;    // the last arc of the enterprise arc
  std::set<std::string> modules;    // YANG module names of the modules section
  std::set<std::string> families;   // Prometheus families of leaves and gateway metrics

  static const Forbidden& fromSchema() {
    static const Forbidden f = [] {
      Forbidden out;
      const SchemaTable& schema = SchemaTable::instance();
      std::string_view arc = schema.enterpriseArc();
      out.enterprise_number = std::string(arc.substr(arc.rfind('.') + 1));
      for (const YangModule& m : schema.modules()) out.modules.emplace(m.name);
      for (const LeafSchema& l : schema.leaves()) out.families.emplace(l.prom_name);
      for (const GatewayMetric& g : schema.gatewayMetrics()) out.families.emplace(g.prom_name);
      return out;
    }();
    return f;
  }
};

// Every forbidden spelling in one file's code (comments excluded).
std::vector<Finding> scanFile(const fs::path& file, const std::string& label, const Forbidden& forbidden) {
  std::ifstream in(file);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string code = withoutComments(buf.str());
  // Dotted (1.3.6.1..., 1.3.111...) and C array ({1, 3, 6, 1, ...}) OIDs.
  static const std::regex kOid(R"((^|[^\d])(1\.3\.6\.1|1\.3\.111|1,\s*3,\s*6,\s*1,|1,\s*3,\s*111,))");
  static const std::regex kToken(R"([A-Za-z0-9_][A-Za-z0-9_-]*)");
  std::vector<Finding> out;
  std::istringstream lines(code);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (std::regex_search(line, kOid)) out.push_back({label, number, "an OID literal", line});
    for (std::sregex_iterator it(line.begin(), line.end(), kToken), end; it != end; ++it) {
      const std::string token = it->str();
      if (token == forbidden.enterprise_number) out.push_back({label, number, "the enterprise number " + token, line});
      if (forbidden.modules.count(token)) out.push_back({label, number, "the YANG module name " + token, line});
      if (forbidden.families.count(token)) out.push_back({label, number, "the Prometheus family " + token, line});
    }
  }
  return out;
}

// Allowed exceptions: a file (relative to the source root), text its
// excused line contains, and why the schema cannot answer instead. Each
// must still be needed (a stale one fails too).
struct Exception {
  std::string file;
  std::string text;
  std::string why;
};
const std::vector<Exception> kExceptions = {
    {"northbound/snmp/notification_sender.cc", "kSysUpTime[] = {",
     "SNMPv2-MIB sysUpTime.0 leads every SNMPv2 notification (RFC 3416 4.2.6): protocol, not a leaf; "
     "Net-SNMP declares no constant for it"},
    {"northbound/snmp/notification_sender.cc", "kSnmpTrapOid[] = {",
     "SNMPv2-MIB snmpTrapOID.0, second in every SNMPv2 notification (RFC 3416 4.2.6): protocol, not a leaf"},
};

TEST(SchemaKnowledgeTest, NoPerLeafKnowledgeOutsideTheSchema) {
  const fs::path root(RDMAGW_SOURCE_DIR);
  std::vector<Finding> findings;
  std::set<std::string> excepted_seen;
  size_t files = 0;
  for (const char* dir : {"northbound", "analytics", "gateway", "southbound"}) {
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
      ++files;
      const std::string rel = fs::relative(e.path(), root).string();
      for (const Finding& f : scanFile(e.path(), rel, Forbidden::fromSchema())) {
        bool excepted = false;
        for (const Exception& x : kExceptions) {
          if (x.file == rel && f.text.find(x.text) != std::string::npos) {
            excepted = true;
            excepted_seen.insert(x.file + ": " + x.text);
          }
        }
        if (!excepted) findings.push_back(f);
      }
    }
  }
  EXPECT_GT(files, 100u) << "scanned too few files: is RDMAGW_SOURCE_DIR right?";
  for (const Finding& f : findings) {
    ADD_FAILURE() << f.file << ":" << f.line << ": spells " << f.what
                  << "; ask models/schema.h (SchemaTable) instead, or describe it in models/schema.yaml";
  }
  for (const Exception& x : kExceptions) {
    EXPECT_TRUE(excepted_seen.count(x.file + ": " + x.text)) << x.file << " (" << x.text
                                                            << ") no longer needs its exception: remove it";
  }
}

// The scanner finds each kind of forbidden spelling in code and strings,
// and ignores comments.
TEST(SchemaKnowledgeTest, TheScannerFindsPlantedKnowledge) {
  const Forbidden& forbidden = Forbidden::fromSchema();
  const std::string family(SchemaTable::instance().leaves()[0].prom_name);
  const std::string module(SchemaTable::instance().modules()[0].name);
  testing::TempDir dir("rdmagw-knowledge");
  const std::string file = dir.file("planted.cc");
  std::ofstream(file) << "// comments may say " << family << ", " << module << " and 1.3.6.1.2.1.2.2\n"
                      << "/* " << forbidden.enterprise_number << " */\n"
                      << "const char* a = \".1.3.6.1.4.1.9.9.813.1.2\";\n"
                      << "const char* b = \"1.3.111.2.802.1.1.21.1.1\";\n"
                      << "constexpr unsigned c[] = {1, 3, 6, 1, 4, 1, 99};\n"
                      << "int d = " << forbidden.enterprise_number << ";\n"
                      << "const char* e = \"" << module << ":interfaces\";\n"
                      << "const char* f = \"" << family << "\";\n"
                      << "const char* g = R\"x(" << family << ")x\";  // raw strings too\n"
                      << "const char* h = \"" << family << "_not_a_family\";  // a longer word is another name\n"
                      << "const char* i = \"v1.3.61\";  // not an OID\n";
  std::vector<Finding> found = scanFile(file, "planted.cc", forbidden);
  std::vector<int> lines;
  for (const Finding& f : found) lines.push_back(f.line);
  EXPECT_EQ(lines, (std::vector<int>{3, 4, 5, 6, 7, 8, 9}));
  for (const Finding& f : found) SCOPED_TRACE(std::to_string(f.line) + ": " + f.what);
}

TEST(SchemaKnowledgeTest, CommentStrippingKeepsLinesAndLiterals) {
  EXPECT_EQ(withoutComments("a // b\nc"), "a     \nc");
  EXPECT_EQ(withoutComments("x /* y\nz */ w"), "x     \n     w");
  EXPECT_EQ(withoutComments("s = \"// not a comment\";"), "s = \"// not a comment\";");
  EXPECT_EQ(withoutComments("c = '\"'; // q"), "c = '\"';     ");
}

}  // namespace
}  // namespace rdmagw
