#include "common/hash.h"

#include <gtest/gtest.h>

#include <string>

namespace rdmagw::common {
namespace {

// The reference values of FNV-1a 64 (the FNV authors' test vectors).
TEST(HashTest, Fnv1aMatchesTheReferenceVectors) {
  EXPECT_EQ(fnv1a(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a("foobar"), 0x85944171f73967e8ull);
  static_assert(fnv1a("a") == 0xaf63dc4c8601ec8cull, "usable at compile time");
}

TEST(HashTest, HashingOnContinuesWhereThePreviousPartStopped) {
  EXPECT_EQ(fnv1a("bar", fnv1a("foo")), fnv1a("foobar"));
  uint64_t h = kFnv1aOffset;
  for (char c : std::string("foobar")) h = fnv1aMix(h, static_cast<unsigned char>(c));
  EXPECT_EQ(h, fnv1a("foobar"));
}

TEST(HashTest, EveryByteCountsIncludingNulAndHighBytes) {
  EXPECT_NE(fnv1a(std::string_view("a\0b", 3)), fnv1a(std::string_view("ab", 2)));
  EXPECT_NE(fnv1a("\xff"), fnv1a("\x7f"));
  // A byte above 0x7f is folded in as unsigned: 0xff, not a sign-extended -1.
  EXPECT_EQ(fnv1a("\xff"), fnv1aMix(kFnv1aOffset, 0xff));
}

}  // namespace
}  // namespace rdmagw::common
