// Bounded, seeded fuzzing of every NX-OS parser over every NX-OS fixture:
// byte flips, truncations, line duplications/deletions/joins, digit->letter,
// huge numbers, inserted banners. Asserts no crash, no exception and that
// every emitted path is a schema row with the right key count.

#include <gtest/gtest.h>

#include <cstdio>

#include <chrono>
#include <cstdint>
#include <set>
#include <string>

#include "tests/southbound/nxos/nxos_test_util.h"

namespace rdmagw::testing {
using namespace rdmagw::southbound::nxos;  // the helpers speak the vocabulary of the code they test
namespace {

// splitmix64: deterministic on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

 private:
  uint64_t s_;
};

size_t lineStart(const std::string& s, size_t pos) {
  size_t p = s.rfind('\n', pos == 0 ? 0 : pos - 1);
  return p == std::string::npos ? 0 : p + 1;
}

size_t lineEnd(const std::string& s, size_t pos) {
  size_t p = s.find('\n', pos);
  return p == std::string::npos ? s.size() : p + 1;
}

void mutate(std::string& s, Rng& rng) {
  if (s.empty()) {
    s = "% Invalid command at '^' marker.\n";
    return;
  }
  size_t pos = rng.below(s.size());
  switch (rng.below(10)) {
    case 0:  // byte flip
      s[pos] = static_cast<char>(s[pos] ^ (1 << rng.below(8)));
      break;
    case 1:  // truncation
      s.resize(pos);
      break;
    case 2: {  // duplicate a line
      size_t a = lineStart(s, pos), b = lineEnd(s, pos);
      s.insert(b, s.substr(a, b - a));
      break;
    }
    case 3: {  // delete a line
      size_t a = lineStart(s, pos), b = lineEnd(s, pos);
      s.erase(a, b - a);
      break;
    }
    case 4: {  // digit -> letter, on the next digit
      size_t d = s.find_first_of("0123456789", pos);
      if (d != std::string::npos) s[d] = static_cast<char>('a' + rng.below(26));
      break;
    }
    case 5: {  // huge number before the next digit
      size_t d = s.find_first_of("0123456789", pos);
      if (d != std::string::npos) s.insert(d, "99999999999999999999999");
      break;
    }
    case 6: {  // join two lines (lost line break)
      size_t nl = s.find('\n', pos);
      if (nl != std::string::npos) s.erase(nl, 1);
      break;
    }
    case 7:  // thousands separators / absent markers
      s.insert(pos, rng.below(2) == 0 ? "1,234" : "--");
      break;
    case 8:  // banner in the middle
      s.insert(lineStart(s, pos), "% Invalid parameter detected at '^' marker.\n");
      break;
    default: {  // structural characters
      static constexpr char kChars[] = "{}[]|(),:\"\n ";
      s.insert(pos, 1, kChars[rng.below(sizeof(kChars) - 1)]);
      break;
    }
  }
}

void checkBatch(const PollBatch& b, const std::string& where) {
  for (const Update& u : b.updates) {
    std::string problem = schemaProblem(u.path);
    ASSERT_EQ(problem, "") << where;
    const LeafSchema* row = SchemaTable::instance().find(Path::parse(u.path)->keylessString());
    if (row->kind == LeafKind::kString) {
      ASSERT_TRUE(std::holds_alternative<std::string>(u.value)) << where << " " << u.path;
    } else {
      ASSERT_TRUE(std::holds_alternative<uint64_t>(u.value)) << where << " " << u.path;
    }
  }
}

TEST(NxosFuzzTest, EveryFixtureEveryParserUnmodifiedIsSchemaValid) {
  for (const std::string& name : allFixtures()) {
    std::string text = readFixture(name);
    for (const ParserFormat& f : nxosParserFormats()) {
      PollBatch b;
      EXPECT_NO_THROW(f.parse(text, kTs, b));
      checkBatch(b, std::string(f.name) + " on " + name);
    }
  }
}

TEST(NxosFuzzTest, SeededMutationsNeverCrashAndStaySchemaValid) {
  auto start = std::chrono::steady_clock::now();
  Rng rng(0x6e786f73u);  // "nxos"
  size_t runs = 0;
  for (const std::string& name : allFixtures()) {
    const std::string original = readFixture(name);
    // Big fixtures get fewer rounds (cost is linear in size). Every parser
    // on every fixture: at 250 rounds the twenty fixtures took 190 s under
    // ASan on a loaded two-core machine; long runs belong to the libFuzzer
    // targets (fuzz/), this is the seeded pass every build gets.
    size_t rounds = std::clamp<size_t>(600000 / (original.size() + 1), 5, 50);
    for (size_t r = 0; r < rounds; ++r) {
      std::string text = original;
      size_t n = 1 + rng.below(4);
      for (size_t k = 0; k < n; ++k) mutate(text, rng);
      for (const ParserFormat& f : nxosParserFormats()) {
        PollBatch b;
        Status s;
        ASSERT_NO_THROW(s = f.parse(text, kTs, b)) << f.name << " on " << name << " round " << r;
        if (!s.isOk()) {
          ASSERT_FALSE(s.message().empty()) << f.name;
        }
        checkBatch(b, std::string(f.name) + " on mutated " + name + " round " + std::to_string(r));
        ++runs;
      }
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("parser_runs", static_cast<int>(runs));
  std::printf("nxos fuzz: %zu parser runs in %.1f s\n", static_cast<size_t>(runs), secs);
  EXPECT_GT(runs, 0u);
}

TEST(NxosFuzzTest, PathologicalInputs) {
  std::vector<std::string> inputs = {
      std::string(100000, '['),
      std::string(100000, '{'),
      "{" + std::string(5000, ' ') + "\"TABLE_interface\": {\"ROW_interface\": [{\"interface\": \"Eth1/1\", \"eth_inbytes\": 1",
      std::string(10000, '|'),
      std::string(3000, '-') + "Ethernet1/1" + std::string(3000, '|'),
      "Port Mode\n" + std::string(1000, ' ') + "(\n",
      "PFC Statistics\nPFC_COS TxCount RxCount\n" + std::string(999, '7') + " 1 2\n",
      "Ethernet1/1 is up\nRX\n" + std::string(50000, '9') + " bytes\n",
      std::string("\0\0\0\xff\xfe", 5),
  };
  for (const std::string& in : inputs) {
    for (const ParserFormat& f : nxosParserFormats()) {
      PollBatch b;
      EXPECT_NO_THROW(f.parse(in, kTs, b)) << f.name;
      checkBatch(b, std::string(f.name));
    }
  }
}

}  // namespace
}  // namespace rdmagw::testing
