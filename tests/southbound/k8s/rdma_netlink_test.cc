// RDMA netlink messages: the requests' bytes against the uapi layout, canned
// dump replies read into counters, and malformed replies refused with a
// reason. The real NETLINK_RDMA socket is only asked for a clear error: this
// machine has no RDMA core.

#include "southbound/k8s/rdma_netlink.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/southbound/k8s/rdma_netlink_replies.h"

namespace rdmagw::southbound::k8s {
namespace {

using namespace rdmagw::testing;  // NOLINT: the reply builders

Bytes twoDeviceDump(uint32_t seq) {
  return cat({deviceCounters(seq, 0, "mlx5_0",
                             {counterEntry(1, 3, 100, {17, 18}, {{"rx_write_requests", 40}, {"out_of_sequence", 2}}),
                              counterEntry(1, 4, 200, {19}, {{"rx_write_requests", 7}})}),
              deviceCounters(seq, 1, "mlx5_1", {counterEntry(2, 1, 300, {}, {{"rx_read_requests", 5}})}), done(seq)});
}

TEST(RdmaNetlinkRequest, StatSetAutoPidFollowsTheUapiLayout) {
  const Bytes expected = message(nldev(RDMA_NLDEV_CMD_STAT_SET), NLM_F_REQUEST | NLM_F_ACK, 9,
                                 cat({u32(RDMA_NLDEV_ATTR_DEV_INDEX, 2), u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1),
                                      u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP),
                                      u32(RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO),
                                      u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, RDMA_COUNTER_MASK_PID)}));
  const NetlinkBytes request = buildSetAutoPidRequest(9, 2, 1);
  EXPECT_EQ(request, expected);
  ASSERT_EQ(request.size(), 16u + 5 * 8);
  // The header by hand: length, type (client 5 << 10 | command), flags, seq.
  EXPECT_EQ(request[0], 56);
  EXPECT_EQ(request[4] | (request[5] << 8), (RDMA_NL_NLDEV << 10) | RDMA_NLDEV_CMD_STAT_SET);
  EXPECT_EQ(request[6] | (request[7] << 8), NLM_F_REQUEST | NLM_F_ACK);
  EXPECT_EQ(request[8], 9);
  // The last attribute: length 8, type AUTO_MODE_MASK, value PID (2).
  EXPECT_EQ(request[48], 8);
  EXPECT_EQ(request[50], RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK);
  EXPECT_EQ(request[52], RDMA_COUNTER_MASK_PID);
}

TEST(RdmaNetlinkRequest, StatGetDumpOfQpCounters) {
  const NetlinkBytes request = buildQpCounterDumpRequest(3);
  EXPECT_EQ(request, message(nldev(RDMA_NLDEV_CMD_STAT_GET), NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, 3,
                             u32(RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP)));
  EXPECT_EQ(buildPortDumpRequest(4),
            message(nldev(RDMA_NLDEV_CMD_PORT_GET), NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, 4, {}));
}

TEST(RdmaNetlinkParse, DumpOfTwoDevices) {
  Result<std::vector<QpCounter>> counters = parseQpCounterDump(twoDeviceDump(5));
  ASSERT_TRUE(counters.isOk()) << counters.status().message();
  ASSERT_EQ(counters->size(), 3u);
  const QpCounter& first = (*counters)[0];
  EXPECT_EQ(first.device, "mlx5_0");
  EXPECT_EQ(first.device_index, 0u);
  EXPECT_EQ(first.port, 1u);
  EXPECT_EQ(first.counter_id, 3u);
  EXPECT_EQ(first.pid, 100u);
  EXPECT_EQ(first.qpns, (std::vector<uint32_t>{17, 18}));
  EXPECT_EQ(first.hw_counters,
            (std::vector<std::pair<std::string, uint64_t>>{{"rx_write_requests", 40}, {"out_of_sequence", 2}}));
  EXPECT_EQ((*counters)[2].device, "mlx5_1");
  EXPECT_EQ((*counters)[2].port, 2u);
  EXPECT_EQ((*counters)[2].pid, 300u);
  EXPECT_TRUE((*counters)[2].qpns.empty());
}

TEST(RdmaNetlinkParse, KernelCounterHasNoPid) {
  const Bytes entry = nest(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,
                           {u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1), u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 8),
                            str(RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_ipoib")});
  Result<std::vector<QpCounter>> counters = parseQpCounterDump(deviceCounters(1, 0, "mlx5_0", {entry}));
  ASSERT_TRUE(counters.isOk()) << counters.status().message();
  ASSERT_EQ(counters->size(), 1u);
  EXPECT_FALSE((*counters)[0].pid);
  EXPECT_EQ((*counters)[0].kern_name, "ib_ipoib");
}

TEST(RdmaNetlinkParse, PortDump) {
  Result<std::vector<RdmaPort>> ports =
      parsePortDump(cat({portMessage(1, 0, "mlx5_0", 1), portMessage(1, 1, "mlx5_1", 1), done(1)}));
  ASSERT_TRUE(ports.isOk()) << ports.status().message();
  EXPECT_EQ(*ports, (std::vector<RdmaPort>{{0, "mlx5_0", 1}, {1, "mlx5_1", 1}}));
}

TEST(RdmaNetlinkParse, EveryTruncationIsRefusedOrAShorterDump) {
  const Bytes whole = twoDeviceDump(5);
  for (size_t n = 0; n < whole.size(); ++n) {
    const Bytes cut(whole.begin(), whole.begin() + n);
    Result<std::vector<QpCounter>> counters = parseQpCounterDump(cut);
    if (counters.isOk()) {
      EXPECT_LE(counters->size(), 3u) << n;
    } else {
      EXPECT_FALSE(counters.status().message().empty()) << n;
    }
  }
  const Bytes cut(whole.begin(), whole.begin() + 40);
  Result<std::vector<QpCounter>> counters = parseQpCounterDump(cut);
  ASSERT_FALSE(counters.isOk());
  EXPECT_EQ(counters.status().code(), Status::Code::kCorrupt);
  EXPECT_NE(counters.status().message().find("past the reply"), std::string::npos) << counters.status().message();
}

TEST(RdmaNetlinkParse, BadNestingIsCorrupt) {
  // A counter table holding a bare u32 where only entries belong.
  Result<std::vector<QpCounter>> stray =
      parseQpCounterDump(message(nldev(RDMA_NLDEV_CMD_STAT_GET), NLM_F_MULTI, 1,
                                 cat({u32(RDMA_NLDEV_ATTR_DEV_INDEX, 0),
                                      nest(RDMA_NLDEV_ATTR_STAT_COUNTER, {u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)})})));
  ASSERT_FALSE(stray.isOk());
  EXPECT_NE(stray.status().message().find("only entries"), std::string::npos) << stray.status().message();

  // A child whose length runs past its nest.
  Bytes entry = counterEntry(1, 3, 100, {}, {{"rx_write_requests", 40}});
  entry[4] = 200;  // the first child's nla_len
  Result<std::vector<QpCounter>> overrun = parseQpCounterDump(deviceCounters(1, 0, "mlx5_0", {entry}));
  ASSERT_FALSE(overrun.isOk());
  EXPECT_NE(overrun.status().message().find("overruns"), std::string::npos) << overrun.status().message();

  // A hw counter's value of 4 bytes, not 8.
  const Bytes short_value =
      nest(RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,
           {u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1), u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 1),
            nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS,
                 {nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, {str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x"),
                                                              u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1)})})});
  Result<std::vector<QpCounter>> narrow = parseQpCounterDump(deviceCounters(1, 0, "mlx5_0", {short_value}));
  ASSERT_FALSE(narrow.isOk());
  EXPECT_NE(narrow.status().message().find("not the 8"), std::string::npos) << narrow.status().message();

  // A message with no device index.
  Result<std::vector<QpCounter>> anonymous =
      parseQpCounterDump(message(nldev(RDMA_NLDEV_CMD_STAT_GET), NLM_F_MULTI, 1, {}));
  ASSERT_FALSE(anonymous.isOk());
  EXPECT_NE(anonymous.status().message().find("no device index"), std::string::npos);
}

TEST(RdmaNetlinkTransact, DumpSplitOverDatagramsThroughTheReplay) {
  ReplayTransport replay({{deviceCounters(1, 0, "mlx5_0", {counterEntry(1, 3, 100, {17}, {{"a", 1}})}),
                           cat({deviceCounters(1, 1, "mlx5_1", {counterEntry(1, 1, 200, {}, {{"a", 2}})}), done(1)})}});
  Result<std::vector<QpCounter>> counters = dumpQpCounters(replay, 1);
  ASSERT_TRUE(counters.isOk()) << counters.status().message();
  EXPECT_EQ(counters->size(), 2u);
  ASSERT_EQ(replay.requests().size(), 1u);
  EXPECT_EQ(replay.requests()[0], buildQpCounterDumpRequest(1));
}

TEST(RdmaNetlinkTransact, KernelErrorsAndStrangers) {
  ReplayTransport refused({{error(1, -EOPNOTSUPP)}});
  Result<std::vector<QpCounter>> counters = dumpQpCounters(refused, 1);
  ASSERT_FALSE(counters.isOk());
  EXPECT_EQ(counters.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(counters.status().message().find("errno " + std::to_string(EOPNOTSUPP)), std::string::npos)
      << counters.status().message();

  // An error code that is no errno (INT_MIN cannot even be negated): a
  // damaged reply, said so, not a crash. Found by the fuzzer.
  ReplayTransport damaged({{error(1, INT32_MIN)}});
  Result<std::vector<QpCounter>> garbled = dumpQpCounters(damaged, 1);
  ASSERT_FALSE(garbled.isOk());
  EXPECT_EQ(garbled.status().code(), Status::Code::kCorrupt) << garbled.status().message();
  EXPECT_NE(garbled.status().message().find("is no errno"), std::string::npos) << garbled.status().message();

  ReplayTransport stranger({{done(77)}});
  Result<std::vector<QpCounter>> other = dumpQpCounters(stranger, 1);
  ASSERT_FALSE(other.isOk());
  EXPECT_NE(other.status().message().find("sequence 77"), std::string::npos);

  ReplayTransport silent(std::vector<std::vector<NetlinkBytes>>(1));
  EXPECT_EQ(dumpQpCounters(silent, 1).status().code(), Status::Code::kUnavailable);
}

TEST(RdmaNetlinkTransact, SetAutoPidIsAcknowledged) {
  const RdmaPort port{2, "mlx5_2", 1};
  ReplayTransport acked({{error(4, 0)}});
  EXPECT_TRUE(setAutoPidMode(acked, 4, port).isOk());
  EXPECT_EQ(acked.requests().at(0), buildSetAutoPidRequest(4, 2, 1));

  ReplayTransport busy({{error(5, -EBUSY)}});
  Status st = setAutoPidMode(busy, 5, port);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("mlx5_2/1"), std::string::npos) << st.message();
}

TEST(RdmaNetlinkSocket, ThisKernelSaysNoRdmaNetlink) {
  Result<std::unique_ptr<RdmaNetlinkTransport>> socket = openRdmaNetlinkSocket(300);
  if (socket.isOk()) {
    Result<std::vector<QpCounter>> counters = dumpQpCounters(**socket, 1);
    if (counters.isOk()) GTEST_SKIP() << "this kernel answers RDMA netlink: not the machine this test is for";
    EXPECT_EQ(counters.status().code(), Status::Code::kUnavailable) << counters.status().message();
    EXPECT_FALSE(counters.status().message().empty());
    return;
  }
  EXPECT_EQ(socket.status().code(), Status::Code::kUnavailable);
  EXPECT_NE(socket.status().message().find("no RDMA netlink"), std::string::npos) << socket.status().message();
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
