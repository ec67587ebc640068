// A fleet member's identity on gNMI calls (member_identity.h): which claims
// prove a member, what the secret file may hold, and a real round trip
// through MemberChannels to a server with users, where the member's call
// passes without a user and a wrong secret is refused.
#include "northbound/gnmi/member_identity.h"

#include <gtest/gtest.h>

#include "gnmi.grpc.pb.h"
#include "northbound/gnmi/gnmi_server.h"
#include "northbound/gnmi/member_channels.h"
#include "northbound/gnmi/user_auth.h"
#include "tests/support/test_support.h"

namespace rdmagw::northbound::gnmi {
namespace {

const std::string kSecret = "0123456789abcdef0123456789abcdef";

FleetSnapshot fleet() {
  FleetSnapshot f;
  f.enabled = true;
  f.self = "m1";
  for (const char* name : {"m1", "m2", "m3"}) f.members.push_back(FleetMemberView{name, {}, "", 0});
  return f;
}

MemberClaim claim(const std::string& name, const std::string& secret, std::vector<std::string> certs = {}) {
  return MemberClaim{name, secret, std::move(certs), "ipv4:127.0.0.1:4000"};
}

TEST(MemberIdentityTest, TheSharedSecretProvesALiveMemberOnly) {
  const MemberIdentity id(kSecret, /*mutual_tls=*/false);
  EXPECT_EQ(id.verify(claim("m2", kSecret), fleet()), "m2");
  EXPECT_EQ(id.verify(claim("m2", kSecret + "x"), fleet()), "");
  EXPECT_EQ(id.verify(claim("m2", kSecret.substr(1)), fleet()), "");
  EXPECT_EQ(id.verify(claim("m2", ""), fleet()), "") << "the name alone proves nothing";
  EXPECT_EQ(id.verify(claim("m9", kSecret), fleet()), "") << "not a live member";
  EXPECT_EQ(id.verify(claim("m1", kSecret), fleet()), "m1") << "the peer copy calls through its own server";
  EXPECT_EQ(id.verify(claim("", kSecret), fleet()), "");
  EXPECT_EQ(id.verify(claim("m2", kSecret, {"m2"}), fleet()), "m2");
  EXPECT_EQ(id.verify(claim("m2", "", {"m2"}), fleet()), "")
      << "no mutual TLS on this server: a certificate is not looked at";
  FleetSnapshot off = fleet();
  off.enabled = false;
  EXPECT_EQ(id.verify(claim("m2", kSecret), off), "");
}

TEST(MemberIdentityTest, AVerifiedClientCertificateMustNameTheClaimedMember) {
  const MemberIdentity id("", /*mutual_tls=*/true);
  EXPECT_EQ(id.verify(claim("m2", "", {"m2", "127.0.0.1"}), fleet()), "m2");
  EXPECT_EQ(id.verify(claim("m2", "", {"m3"}), fleet()), "") << "m3's certificate speaking as m2";
  EXPECT_EQ(id.verify(claim("alice", "", {"alice"}), fleet()), "") << "a user's certificate is no member's";
  EXPECT_EQ(id.verify(claim("m2", kSecret, {}), fleet()), "") << "no secret configured: none is accepted";
  const MemberIdentity none("", false);
  EXPECT_FALSE(none.configured());
  EXPECT_EQ(none.verify(claim("m2", "", {"m2"}), fleet()), "") << "nothing configured: nobody is a member";
}

TEST(MemberIdentityTest, TheSecretFileIsOneLineOfSixteenBytesOrMoreAndNeverEchoed) {
  testing::TempDir dir("rdmagw-member-secret");
  ASSERT_TRUE(testing::writeFile(dir.file("ok"), kSecret + "\n"));
  Result<std::string> ok = readMemberSecret(dir.file("ok"));
  ASSERT_TRUE(ok.isOk()) << ok.status().message();
  EXPECT_EQ(*ok, kSecret);
  ASSERT_TRUE(testing::writeFile(dir.file("short"), "tooshort-secret\n"));
  Result<std::string> short_secret = readMemberSecret(dir.file("short"), kMemberSecretKey);
  ASSERT_FALSE(short_secret.isOk());
  EXPECT_NE(short_secret.status().message().find("cluster.member_secret_file: "), std::string::npos);
  EXPECT_EQ(short_secret.status().message().find("tooshort-secret"), std::string::npos);
  ASSERT_TRUE(testing::writeFile(dir.file("two"), kSecret + "\nsecond-line-secret-text\n"));
  Result<std::string> two = readMemberSecret(dir.file("two"));
  ASSERT_FALSE(two.isOk());
  EXPECT_EQ(two.status().message().find("second-line"), std::string::npos);
  Result<std::string> missing = readMemberSecret(dir.file("missing"), kMemberSecretKey);
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().message(), "cluster.member_secret_file: cannot read " + dir.file("missing"));
}

// A server (m1) with users; calls from m2 through MemberChannels.
class MemberCallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(testing::writeFile(dir_.file("secret"), kSecret + "\n"));
    ASSERT_TRUE(testing::writeFile(dir_.file("wrong"), std::string(kSecret.rbegin(), kSecret.rend()) + "\n"));
    ASSERT_TRUE(testing::writeFile(dir_.file("users"), "alice:" + hashPassword("pw", 1000) + "\n"));
    view_.set(fleet());
    GnmiServerConfig c;
    c.listen = "127.0.0.1:0";
    c.insecure = true;
    c.users_file = dir_.file("users");
    c.member_name = "m1";
    c.member_secret_file = dir_.file("secret");
    server_ = std::make_unique<GnmiServer>(store_, c, &view_);
    Status st = server_->start();
    ASSERT_TRUE(st.isOk()) << st.toString();
  }

  grpc::Status capabilitiesAs(const std::string& member, const std::string& secret_file) {
    GnmiServerConfig c;
    c.insecure = true;
    c.member_name = member;
    c.member_secret_file = secret_file;
    MemberChannels channels(c);
    Result<std::shared_ptr<grpc::Channel>> ch = channels.channel(server_->address());
    EXPECT_TRUE(ch.isOk());
    if (!ch.isOk()) return grpc::Status(grpc::StatusCode::INTERNAL, ch.status().message());
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    ::gnmi::CapabilityResponse response;
    return ::gnmi::gNMI::NewStub(*ch)->Capabilities(&ctx, ::gnmi::CapabilityRequest(), &response);
  }

  testing::TempDir dir_{"rdmagw-member-call"};
  Store store_;
  FleetView view_;
  std::unique_ptr<GnmiServer> server_;
};

TEST_F(MemberCallTest, AMemberWithTheSecretPassesTheUsersAndOneWithoutIsRefused) {
  EXPECT_TRUE(capabilitiesAs("m2", dir_.file("secret")).ok());
  EXPECT_EQ(capabilitiesAs("m2", dir_.file("wrong")).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(capabilitiesAs("m2", "").error_code(), grpc::StatusCode::UNAUTHENTICATED) << "the name alone";
  EXPECT_EQ(capabilitiesAs("m9", dir_.file("secret")).error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << "not a live member";
}

TEST_F(MemberCallTest, AnUnreadableSecretIsAnErrorOfTheChannelAndTheServer) {
  GnmiServerConfig c;
  c.insecure = true;
  c.member_name = "m2";
  c.member_secret_file = dir_.file("missing");
  MemberChannels channels(c);
  Result<std::shared_ptr<grpc::Channel>> ch = channels.channel(server_->address());
  ASSERT_FALSE(ch.isOk());
  EXPECT_NE(ch.status().message().find("cluster.member_secret_file: cannot read"), std::string::npos);
  c.listen = "127.0.0.1:0";
  GnmiServer other(store_, c, &view_);
  Status st = other.start();
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("cluster.member_secret_file"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace rdmagw::northbound::gnmi
