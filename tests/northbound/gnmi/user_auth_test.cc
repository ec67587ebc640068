#include "northbound/gnmi/user_auth.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/support/test_support.h"

namespace rdmagw::northbound::gnmi {
namespace {

TEST(UserAuthTest, AcceptsTheRightPasswordOnly) {
  auto auth = UserAuth::fromText("# users\nalice:" + hashPassword("s3cret", 1000) + "\n", "t");
  ASSERT_TRUE(auth.isOk()) << auth.status().message();
  EXPECT_TRUE((*auth)->check("alice", "s3cret"));
  EXPECT_TRUE((*auth)->check("alice", "s3cret"));  // the remembered path
  EXPECT_FALSE((*auth)->check("alice", "s3cret "));
  EXPECT_FALSE((*auth)->check("bob", "s3cret"));
  EXPECT_FALSE((*auth)->check("alice", ""));
}

TEST(UserAuthTest, ReadsHashesPythonMade) {
  // An independent implementation of the documented format.
  testing::TempDir dir("rdmagw-users");
  const std::string cmd =
      "/usr/bin/python3 -c 'import hashlib,base64; s=b\"0123456789abcdef\"; "
      "e=lambda b: base64.b64encode(b).decode().rstrip(\"=\").replace(\"+\",\".\"); "
      "print(\"ops:$pbkdf2-sha256$2000$\"+e(s)+\"$\"+e(hashlib.pbkdf2_hmac(\"sha256\",b\"pw\",s,2000)))' > " +
      dir.file("users");
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto auth = UserAuth::load(dir.file("users"), "");
  ASSERT_TRUE(auth.isOk()) << auth.status().message();
  EXPECT_TRUE((*auth)->check("ops", "pw"));
  EXPECT_FALSE((*auth)->check("ops", "pW"));
}

TEST(UserAuthTest, EnvironmentVariableAndErrorsNeverEchoSecrets) {
  const std::string line = "carol:" + hashPassword("x", 100);
  ::setenv("RDMAGW_TEST_GNMI_USERS", (line + ";dave:" + hashPassword("y", 100)).c_str(), 1);
  auto auth = UserAuth::load("", "RDMAGW_TEST_GNMI_USERS");
  ASSERT_TRUE(auth.isOk()) << auth.status().message();
  EXPECT_TRUE((*auth)->check("dave", "y"));
  auto bad = UserAuth::fromText("eve:plaintext-password\n", "f");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message().find("plaintext-password"), std::string::npos);
  EXPECT_NE(bad.status().message().find("f:1: user eve"), std::string::npos);
  EXPECT_FALSE(UserAuth::load("", "RDMAGW_TEST_GNMI_UNSET_VAR").isOk());
  EXPECT_FALSE(UserAuth::load("/nonexistent/users", "").isOk());
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
