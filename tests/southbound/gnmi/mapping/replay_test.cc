// Replays recorded NX-OS output, rebuilt into the Notifications the switch
// sent, through mapNotification and checks every model path and value.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gnmi_builders.h"
#include "models/path.h"
#include "replay_loader.h"
#include "southbound/gnmi/mapping/notification_mapper.h"
#include "southbound/nxos/nxos_emit.h"

namespace rdmagw::southbound::gnmi {
namespace {

using testing::readFixture;
using testing::Replay;

constexpr TimestampNs kReceive = 1'700'000'000'000'000'000;

struct Leaf {
  std::string path;
  Value value;
  TimestampNs ts;
  bool operator==(const Leaf&) const = default;
};

void PrintTo(const Leaf& l, std::ostream* os) { *os << l.path << " = " << valueToString(l.value) << " @" << l.ts; }

std::vector<Leaf> mapAll(const Replay& r, MappedNotification& out) {
  for (const ::gnmi::Notification& n : r.notifications) EXPECT_TRUE(mapNotification(n, kReceive, out).isOk());
  std::vector<Leaf> leaves;
  for (const Update& u : out.updates) {
    // Every output is canonical: the store parses it back to the same string.
    Result<Path> p = Path::parse(u.path);
    EXPECT_TRUE(p.isOk()) << u.path;
    if (p.isOk()) {
      EXPECT_EQ(p->toString(), u.path);
    }
    leaves.push_back({u.path, u.value, u.timestamp_ns});
  }
  return leaves;
}

TEST(GnmiReplay, GnmicEventsOriginEchoKeptAsUnknownLeaves) {
  Replay r = testing::fromGnmicEvents(
      readFixture("gnmi/nxos_gnmi_gnmic_event_openconfig_interfaces__gnmic_issue683_TRUNCATED.jsonl.txt"));
  EXPECT_EQ(r.notifications.size(), 5u);
  EXPECT_EQ(r.skipped, 1u);  // the 6th line was cut by the store
  MappedNotification out;
  std::vector<Leaf> got = mapAll(r, out);
  constexpr TimestampNs ts = 1751449205690569363;
  std::vector<Leaf> want = {
      {"/interfaces/interface[name=vlan3745]/name", std::string("vlan3745"), ts},
      {"/interfaces/interface[name=vlan3745]/config/enabled", true, ts},
      {"/interfaces/interface[name=vlan3745]/config/mtu", uint64_t{1500}, ts},
      {"/interfaces/interface[name=vlan3745]/config/name", std::string("vlan3745"), ts},
      {"/interfaces/interface[name=vlan3745]/config/type", std::string("l2vlan"), ts},
  };
  EXPECT_EQ(got, want);
  EXPECT_TRUE(out.errors.empty());
}

TEST(GnmiReplay, NativeSystemGetKeepsKeysAndTimestamp) {
  Replay r = testing::fromGnmicGet(readFixture("gnmi/nxos_gnmi_gnmic_get_native_System_bgp__gnmic_issue154.json.txt"));
  ASSERT_EQ(r.notifications.size(), 1u);
  MappedNotification out;
  std::vector<Leaf> want = {
      {"/System/bgp-items/inst-items/dom-items/Dom-list[name=INTERNAL]/af-items/DomAf-list[type=ipv4-ucast]/numRoutes",
       uint64_t{4460}, 1687274246860625552},
  };
  EXPECT_EQ(mapAll(r, out), want);
  EXPECT_TRUE(out.errors.empty());
}

TEST(GnmiReplay, DmeDot3StatsBlobGivesPauseAndErrorCounters) {
  Replay r = testing::fromDmeRest(readFixture("gnmi/nxos_dme_rest_dbgDot3Stats_rmonDot3Stats__devnet_nxapi_rest_10.4x.json.txt"));
  ASSERT_EQ(r.notifications.size(), 1u);
  MappedNotification out;
  std::vector<Leaf> got = mapAll(r, out);
  EXPECT_TRUE(out.errors.empty());
  // The pause counters and the `show interface counters errors` counters:
  // model paths, numbers (sent as "0"), and the same strings the SSH parsers
  // write for Ethernet3/2.
  std::vector<Leaf> mapped, unknown;
  for (const Leaf& l : got) (l.path.rfind("/interfaces/", 0) == 0 ? mapped : unknown).push_back(l);
  std::set<std::string> want = {
      nxos::ethCounterPath("Ethernet3/2", "in-mac-pause-frames"),
      nxos::ethCounterPath("Ethernet3/2", "out-mac-pause-frames"),
      nxos::ifCounterPath("Ethernet3/2", "in-fcs-errors"),
  };
  for (const char* leaf : {"in-alignment-errors", "in-single-collision", "out-multiple-collision-frames",
                           "in-late-collision", "out-excessive-collision-frames", "in-carrier-errors",
                           "in-fragment-frames", "in-maxsize-exceeded", "out-sqe-test-errors",
                           "out-deferred-frames", "out-mac-errors-tx", "in-mac-errors-rx", "in-symbol-error"}) {
    want.insert(nxos::ethCounterPath("Ethernet3/2", leaf));
  }
  std::set<std::string> got_paths;
  for (const Leaf& l : mapped) {
    got_paths.insert(l.path);
    EXPECT_EQ(l.value, Value(uint64_t{0})) << l.path;
  }
  EXPECT_EQ(got_paths, want);
  EXPECT_EQ(mapped.size(), want.size());
  EXPECT_TRUE(want.count("/interfaces/interface[name=Ethernet3/2]/ethernet/state/counters/in-mac-pause-frames"));
  // The other 10 attributes stay, under the DN, typed as sent (strings: no
  // table row says they are counters).
  EXPECT_EQ(unknown.size(), 10u);
  Leaf babble{R"(/sys/intf/phys-\[eth3\/2\]/dbgDot3Stats/babble)", std::string("0"), kReceive};
  Leaf dn{R"(/sys/intf/phys-\[eth3\/2\]/dbgDot3Stats/dn)", std::string("sys/intf/phys-[eth3/2]/dbgDot3Stats"), kReceive};
  EXPECT_NE(std::find(unknown.begin(), unknown.end(), babble), unknown.end());
  EXPECT_NE(std::find(unknown.begin(), unknown.end(), dn), unknown.end());
}

TEST(GnmiReplay, OpenConfigInterfaceCountersMatchSshPaths) {
  Replay r = testing::fromNetconfReply(
      readFixture("gnmi/nxos_openconfig_interfaces_state_counters_netconf__devnet_oc_TRUNCATED.xml.txt"));
  MappedNotification out;
  std::vector<Leaf> want = {
      {"/interfaces/interface[name=eth1/53]/name", std::string("eth1/53"), kReceive},
      {nxos::ifCounterPath("Ethernet1/53", "in-octets"), uint64_t{3085180851040}, kReceive},
      {nxos::ifCounterPath("Ethernet1/53", "in-unicast-pkts"), uint64_t{663013031}, kReceive},
  };
  EXPECT_EQ(mapAll(r, out), want);
  EXPECT_EQ(want[1].path, "/interfaces/interface[name=Ethernet1/53]/state/counters/in-octets");
  EXPECT_TRUE(out.errors.empty());
}

TEST(GnmiReplay, OpenConfigQueuesNamedByQosGroup) {
  Replay r = testing::fromNetconfReply(
      readFixture("gnmi/nxos_openconfig_qos_output_queues_state_netconf__devnet_oc_10.3x_TRUNCATED.xml.txt"));
  EXPECT_EQ(r.skipped, 1u);  // cut inside the 2nd queue's transmit-octets
  MappedNotification out;
  const std::string q = "/qos/interfaces/interface[interface-id=eth1/1]/output/queues/queue";
  std::vector<Leaf> want = {
      {"/qos/interfaces/interface[interface-id=eth1/1]/interface-id", std::string("eth1/1"), kReceive},
      {q + "[name=c-out-8q-q-default]/name", std::string("c-out-8q-q-default"), kReceive},
      {q + "[name=c-out-8q-q-default]/state/name", std::string("c-out-8q-q-default"), kReceive},
      {nxos::queuePath("Ethernet1/1", "0", "dropped-pkts"), uint64_t{0}, kReceive},
      {nxos::queuePath("Ethernet1/1", "0", "transmit-octets"), uint64_t{0}, kReceive},
      {nxos::queuePath("Ethernet1/1", "0", "transmit-pkts"), uint64_t{0}, kReceive},
      {q + "[name=c-out-8q-q1]/name", std::string("c-out-8q-q1"), kReceive},
      {q + "[name=c-out-8q-q1]/state/name", std::string("c-out-8q-q1"), kReceive},
      {nxos::queuePath("Ethernet1/1", "1", "dropped-pkts"), uint64_t{0}, kReceive},
  };
  EXPECT_EQ(mapAll(r, out), want);
  EXPECT_EQ(want[3].path, "/qos/interfaces/interface[interface-id=Ethernet1/1]/output/queues/queue[name=0]/state/dropped-pkts");
  EXPECT_TRUE(out.errors.empty());
}

}  // namespace
}  // namespace rdmagw::southbound::gnmi
