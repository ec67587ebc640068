// A fleet member's identity (northbound/gnmi/member_identity.h) between
// real `rdmagw run` members on a real etcd, with Debian's python3-grpcio as
// the client:
// - mutual TLS with a CA made here by the openssl CLI: a Get and a
//   Subscribe forwarded between members work; a member whose certificate a
//   wrong CA signed is refused by the others (its targets answer an error
//   naming it); a client certificate that does not name the member it
//   claims passes nothing, and the member's log says so.
// - a shared member secret on plain text: with users on every member, a
//   call with the secret passes without a user, a wrong secret is refused
//   and logged; forwarded-for is believed from a member that proved itself
//   and from nobody else: a plain client that sets rdmagw-forwarded-by/for
//   itself is counted as itself against the per-client stream limit.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>

#include "northbound/gnmi/user_auth.h"
#include "tests/e2e/fleet/fleet_bed.h"
#include "tests/e2e/fleet/test_ca.h"
#include "tests/northbound/gnmi/python_client.h"

namespace rdmagw::testing {
using namespace rdmagw::gateway;  // the helpers speak the vocabulary of the code they test
namespace {

using testing::PythonClient;
using testing::runPython;
using Lines = std::vector<std::string>;

constexpr int kHosts = 8;
constexpr int kLeaseTtl = 3;
const std::string kSecret = "4f2c9a1be07d3e5f6a8b9c0d1e2f3a4b";

std::string last(const Lines& lines) { return lines.empty() ? "" : lines.back(); }
bool has(const Lines& lines, const std::string& prefix) {
  for (const std::string& l : lines) {
    if (l.rfind(prefix, 0) == 0) return true;
  }
  return false;
}
std::string show(const Lines& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size() && i < 12; ++i) out += lines[i] + "\n";
  return out;
}

class FleetIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "the simulated devices' sshd needs root";
    if (access("/usr/bin/etcd", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/etcd (Debian etcd-server)";
    if (std::system("openssl version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no openssl CLI";
    std::string error;
    ASSERT_TRUE(testing::preparePythonClient(&error)) << error;
    ASSERT_TRUE(testing::writeFile(file("users"), "alice:" + northbound::gnmi::hashPassword("alice-pw", 1000) + "\n"));
  }

  void startFleet(int members) {
    ASSERT_EQ(bed_.start(members, kHosts, kLeaseTtl), "");
    for (int i = 0; i < members; ++i) bed_.startMember(i);
    ASSERT_TRUE(bed_.waitConverged()) << bed_.describe() << bed_.log(0);
  }

  std::string targetOf(const std::string& member) {
    for (const auto& [t, ms] : bed_.collectors()) {
      if (ms.size() == 1 && ms.contains(member)) return t;
    }
    return "";
  }

  // Waits until a Get of `target` through member i answers with its data.
  Lines getWithData(int i, const std::string& target, const std::string& extra) {
    Lines lines;
    testing::waitUntil([&] {
      lines = runPython(bed_.gnmiAddress(i),
                        R"({"rpc": "get", "target": ")" + target + R"(", "paths": ["/"])" + extra + "}");
      return has(lines, "N " + target + " ") && last(lines) == "STATUS OK";
    });
    return lines;
  }

  std::string file(const std::string& name) const { return tmp_.file(name); }

  testing::TempDir tmp_{"rdmagw-fleet-identity"};
  FleetBed bed_;
};

TEST_F(FleetIdentityTest, MutualTlsForwardsBetweenMembersAndRefusesAWrongCa) {
  Ca fleet_ca(tmp_.path(), "fleet-ca"), rogue_ca(tmp_.path(), "rogue-ca");
  ASSERT_EQ(fleet_ca.make(), "");
  ASSERT_EQ(rogue_ca.make(), "");
  ASSERT_EQ(fleet_ca.sign("m1", true), "");
  ASSERT_EQ(fleet_ca.sign("m2", true), "");
  ASSERT_EQ(rogue_ca.sign("m3", true), "") << "m3 trusts the fleet's CA, but a wrong CA signed its certificate";
  ASSERT_EQ(fleet_ca.sign("noc", false), "");
  bed_.gnmi_settings = [this, ca = fleet_ca.cert()](int i) {
    const std::string m = "m" + std::to_string(i + 1);
    return "tls: {cert: " + file(m + ".crt") + ", key: " + file(m + ".key") + ", client_ca: " + ca +
           "}, users_file: " + file("users");
  };
  startFleet(3);
  const std::string t2 = targetOf("m2"), t3 = targetOf("m3");
  ASSERT_FALSE(t2.empty()) << bed_.describe();
  ASSERT_FALSE(t3.empty()) << bed_.describe();
  const std::string client = R"(, "ca": ")" + fleet_ca.cert() + R"(", "cert": ")" + file("noc.crt") + R"(", "key": ")" +
                             file("noc.key") + R"(")";
  const std::string alice = client + R"(, "user": "alice", "pass": "alice-pw")";

  // The right CA: m1 forwards a Get and a Subscribe to m2 over mutual TLS.
  Lines get = getWithData(0, t2, alice);
  EXPECT_TRUE(has(get, "N " + t2 + " ")) << show(get) << bed_.log(0);
  Lines sub = runPython(bed_.gnmiAddress(0), R"({"rpc": "sub", "target": ")" + t2 +
                                                 R"(", "subs": [{"path": "/", "mode": "ON_CHANGE"}], )"
                                                 R"("stop_after_syncs": 1, "timeout": 60)" +
                                                 alice + "}");
  EXPECT_TRUE(has(sub, "N " + t2 + " ")) << show(sub);
  EXPECT_TRUE(has(sub, "SYNC")) << show(sub);
  EXPECT_EQ(last(sub), "STATUS OK") << show(sub);

  // A wrong CA: m1 and m3 refuse each other's handshake; m3's targets
  // answer an error that names it.
  Lines refused;
  testing::waitUntil([&] {
    refused =
        runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": ")" + t3 + R"(", "paths": ["/"])" + alice + "}");
    return last(refused).rfind("STATUS UNAVAILABLE", 0) == 0;
  });
  EXPECT_NE(last(refused).find("fleet member m3"), std::string::npos) << show(refused);
  EXPECT_FALSE(has(refused, "N " + t3 + " ")) << show(refused);

  // The member identity is the certificate: m1's own certificate passes
  // m2's users without a user; the client's, naming noc, does not.
  const std::string as_m1 = R"(, "ca": ")" + fleet_ca.cert() + R"(", "cert": ")" + file("m1.crt") + R"(", "key": ")" +
                            file("m1.key") + R"(", "metadata": [["rdmagw-member", "m1"]])";
  Lines member = getWithData(1, t2, as_m1);
  EXPECT_EQ(last(member), "STATUS OK") << show(member);
  const std::string noc_as_m1 = client + R"(, "metadata": [["rdmagw-member", "m1"]])";
  Lines impostor =
      runPython(bed_.gnmiAddress(1), R"({"rpc": "get", "target": ")" + t2 + R"(", "paths": ["/"])" + noc_as_m1 + "}");
  EXPECT_EQ(last(impostor), "STATUS UNAUTHENTICATED authentication failed") << show(impostor);
  EXPECT_NE(bed_.log(1).find("names member \"m1\" but is not believed (its client certificate does not name it)"),
            std::string::npos)
      << bed_.log(1);
}

TEST_F(FleetIdentityTest, ASharedSecretProvesMembersAndForwardedForIsBelievedFromThemOnly) {
  ASSERT_TRUE(testing::writeFile(file("member-secret"), kSecret + "\n"));
  bed_.gnmi_settings = [this](int) {
    return "insecure: true, users_file: " + file("users") + ", limits: {max_subscriptions_per_client: 1}";
  };
  bed_.cluster_lines = [this](int) { return "  member_secret_file: " + file("member-secret") + "\n"; };
  startFleet(2);
  const std::string t1 = targetOf("m1");
  ASSERT_FALSE(t1.empty()) << bed_.describe();
  const std::string alice = R"(, "user": "alice", "pass": "alice-pw")";
  const std::string stream =
      R"({"rpc": "sub", "target": ")" + t1 + R"(", "subs": [{"path": "/", "mode": "ON_CHANGE"}], "timeout": 120)";

  // The secret passes m1's users without a user; a wrong one does not, and
  // m1's log says who tried.
  Lines member =
      getWithData(0, t1, R"(, "metadata": [["rdmagw-member", "m2"], ["rdmagw-member-secret", ")" + kSecret + R"("]])");
  EXPECT_EQ(last(member), "STATUS OK") << show(member);
  Lines wrong = runPython(bed_.gnmiAddress(0), R"({"rpc": "get", "target": ")" + t1 +
                                                   R"(", "paths": ["/"], "metadata": [["rdmagw-member", "m2"], )"
                                                   R"(["rdmagw-member-secret", "not-the-fleet-secret-at-all"]]})");
  EXPECT_EQ(last(wrong), "STATUS UNAUTHENTICATED authentication failed") << show(wrong);
  EXPECT_NE(bed_.log(0).find("names member \"m2\" but is not believed (its member secret does not match)"),
            std::string::npos)
      << bed_.log(0);
  EXPECT_EQ(bed_.log(0).find("not-the-fleet-secret"), std::string::npos) << "a secret offered is never logged";
  EXPECT_EQ(bed_.log(0).find(kSecret), std::string::npos) << "nor the fleet's";

  // alice holds her one stream on m1.
  PythonClient held(bed_.gnmiAddress(0), stream + alice + "}");
  ASSERT_EQ(held.until("SYNC").back(), "SYNC");

  // A plain client that says it is m2 forwarding for bob is alice still:
  // refused by her limit.
  const std::string spoof = R"(, "metadata": [["rdmagw-forwarded-by", "m2"], ["rdmagw-forwarded-for", "bob"]])";
  Lines spoofed = runPython(bed_.gnmiAddress(0), stream + R"(, "stop_after_syncs": 1)" + alice + spoof + "}");
  EXPECT_EQ(last(spoofed).rfind("STATUS RESOURCE_EXHAUSTED", 0), 0u) << show(spoofed);
  EXPECT_FALSE(has(spoofed, "SYNC")) << show(spoofed);

  // m2 itself, forwarding alice's subscription to m1, is believed: the
  // stream counts for "alice via member m2", beside her own.
  Lines forwarded = runPython(bed_.gnmiAddress(1), stream + R"(, "stop_after_syncs": 1)" + alice + "}");
  EXPECT_TRUE(has(forwarded, "N " + t1 + " ")) << show(forwarded) << bed_.log(1);
  EXPECT_EQ(last(forwarded), "STATUS OK") << show(forwarded);
}

}  // namespace
}  // namespace rdmagw::testing
