#include "common/secret.h"

#include <gtest/gtest.h>

#include <cstring>
#include <new>
#include <ostream>
#include <string>
#include <type_traits>

namespace rdmagw::common {
namespace {

// Nothing turns a Secret into text but reveal(): no stream operator, no
// conversion, so it cannot reach a log line by accident.
template <typename T>
concept Streamable = requires(std::ostream& o, const T& v) { o << v; };
static_assert(!Streamable<Secret>);
static_assert(!std::is_convertible_v<Secret, std::string>);
static_assert(!std::is_convertible_v<Secret, std::string_view>);
static_assert(!std::is_convertible_v<Secret, const char*>);
static_assert(!std::is_convertible_v<Secret, bool>);

// Where `needle` starts in the raw bytes [p, p + n), or n.
size_t find(const unsigned char* p, size_t n, const char* needle) {
  const size_t len = std::strlen(needle);
  for (size_t i = 0; i + len <= n; ++i) {
    if (std::memcmp(p + i, needle, len) == 0) return i;
  }
  return n;
}

TEST(SecretTest, ItsMemoryIsWipedWhenItGoesAway) {
  // A short value lives inside the object (the string's inline buffer), so
  // the bytes can be looked at after the destructor ran, in storage we own.
  alignas(Secret) unsigned char storage[sizeof(Secret)];
  Secret* s = new (storage) Secret(std::string("hunter2"));
  ASSERT_STREQ(s->reveal(), "hunter2");
  const size_t at = find(storage, sizeof storage, "hunter2");
  ASSERT_LT(at, sizeof storage) << "the value is not inline; the test cannot see it";
  s->~Secret();
  // Every byte, not just the first: clearing a string only writes its NUL.
  for (size_t i = at; i < at + 7; ++i) EXPECT_EQ(storage[i], 0) << "byte " << i - at << " of the secret is left";
}

TEST(SecretTest, AMovedFromSecretLeavesNoByteBehind) {
  alignas(Secret) unsigned char storage[sizeof(Secret)];
  Secret* s = new (storage) Secret(std::string("hunter2"));
  const size_t at = find(storage, sizeof storage, "hunter2");
  ASSERT_LT(at, sizeof storage) << "the value is not inline; the test cannot see it";
  Secret moved(std::move(*s));
  EXPECT_STREQ(moved.reveal(), "hunter2");
  for (size_t i = at; i < at + 7; ++i) EXPECT_EQ(storage[i], 0) << "byte " << i - at << " is left in the moved-from";
  s->~Secret();
  Secret assigned;
  Secret* t = new (storage) Secret(std::string("hunter3"));
  assigned = std::move(*t);
  EXPECT_STREQ(assigned.reveal(), "hunter3");
  for (size_t i = at; i < at + 7; ++i) EXPECT_EQ(storage[i], 0) << "byte " << i - at << " is left in the moved-from";
  t->~Secret();
}

TEST(SecretTest, AMovedFromSecretIsWipedAndTheNewOwnerHasIt) {
  Secret a("s3cret");
  Secret b(std::move(a));
  EXPECT_TRUE(a.empty());  // NOLINT: moved-from is wiped on purpose
  EXPECT_STREQ(b.reveal(), "s3cret");
  Secret c("old");
  c = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT
  EXPECT_STREQ(c.reveal(), "s3cret");
}

TEST(SecretTest, CopiesAndAssignedTextAreSecretsOfTheirOwn) {
  Secret a("one");
  Secret b(a);
  EXPECT_STREQ(a.reveal(), "one");
  EXPECT_STREQ(b.reveal(), "one");
  b = std::string("two");
  EXPECT_STREQ(a.reveal(), "one");
  EXPECT_STREQ(b.reveal(), "two");
  a = b;
  EXPECT_STREQ(a.reveal(), "two");
  EXPECT_TRUE(Secret().empty());
}

TEST(SecretTest, ScrubReplacesEveryOccurrenceInAnErrorText) {
  Secret s("pw");
  EXPECT_EQ(s.scrub("login pw failed: bad pw"), "login *** failed: bad ***");
  EXPECT_EQ(s.scrub("nothing here"), "nothing here");
  EXPECT_EQ(Secret().scrub("an empty secret scrubs nothing"), "an empty secret scrubs nothing");
}

}  // namespace
}  // namespace rdmagw::common
