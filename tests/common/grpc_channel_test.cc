#include "common/grpc_channel.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "tests/support/test_support.h"

namespace rdmagw::common {
namespace {

constexpr const char* kPem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

TEST(GrpcChannelTest, ReadPemReturnsTheFileText) {
  testing::TempDir dir("rdmagw-pem");
  ASSERT_TRUE(testing::writeFile(dir.file("ca.pem"), kPem));
  FileText pem = readPem("ca_file", dir.file("ca.pem"));
  ASSERT_TRUE(pem.ok()) << pem.error;
  EXPECT_EQ(pem.text, kPem);
}

TEST(GrpcChannelTest, ReadPemErrorsNameTheFieldAndTheFile) {
  testing::TempDir dir("rdmagw-pem");
  FileText missing = readPem("tls.key", "/nonexistent/server.key");
  EXPECT_FALSE(missing.ok());
  EXPECT_EQ(missing.error, "tls.key: cannot read /nonexistent/server.key");
  EXPECT_EQ(missing.error_number, ENOENT);

  ASSERT_TRUE(testing::writeFile(dir.file("empty.pem"), ""));
  FileText empty = readPem("cert_file", dir.file("empty.pem"));
  EXPECT_FALSE(empty.ok());
  EXPECT_EQ(empty.error, "cert_file: " + dir.file("empty.pem") + " is empty");
  EXPECT_EQ(empty.error_number, 0) << "read, but wrong content";

  ASSERT_TRUE(testing::writeFile(dir.file("key.txt"), "not a certificate\n"));
  FileText garbage = readPem("tls.cert", dir.file("key.txt"));
  EXPECT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error, "tls.cert: " + dir.file("key.txt") + " holds no PEM block");
  EXPECT_EQ(garbage.error_number, 0);
  EXPECT_EQ(garbage.text, "") << "a refused file's content is not handed on";
}

TEST(GrpcChannelTest, BuildsPlainAndVerifiedTlsChannels) {
  grpc::ChannelArguments args;
  ChannelTls plain;
  std::shared_ptr<grpc::Channel> a = makeChannel("127.0.0.1:1", plain, args);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->GetState(false), GRPC_CHANNEL_IDLE) << "no connection before the first call";
  ChannelTls tls;
  tls.enabled = true;
  EXPECT_NE(channelCredentials(tls), nullptr);
  EXPECT_NE(makeChannel("127.0.0.1:1", tls, args), nullptr);
  tls.verify_server = false;
  EXPECT_NE(channelCredentials(tls), nullptr);
}

}  // namespace
}  // namespace rdmagw::common
