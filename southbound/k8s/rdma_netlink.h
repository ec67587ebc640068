#pragma once
// The kernel's RDMA netlink (NETLINK_RDMA, the nldev client `rdma` of
// iproute2 speaks) for per-process QP counters: list the ports, set a port's
// QP counters to auto mode per PID, dump the bound counters. The messages are
// built and read here from the uapi layout (<rdma/rdma_netlink.h>): a
// nlmsghdr, no family header, then attributes; counters come as nested
// tables. The bytes go through a transport: the real socket, or canned
// replies in tests, so the parsing is tested without an RDMA kernel.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::k8s {

using NetlinkBytes = std::vector<uint8_t>;

// Sends one request, hands back the reply datagrams one by one.
class RdmaNetlinkTransport {
 public:
  virtual ~RdmaNetlinkTransport() = default;
  virtual Status send(std::span<const uint8_t> request) = 0;
  // One datagram (one or more netlink messages); unavailable on a timeout.
  virtual Result<NetlinkBytes> receive() = 0;
};

// socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA). unavailable, saying "no RDMA
// netlink", when the kernel has no RDMA core (the socket cannot be made or
// nothing answers within `timeout_ms`).
Result<std::unique_ptr<RdmaNetlinkTransport>> openRdmaNetlinkSocket(int timeout_ms = 1000);

// Answers every request with the next canned list of datagrams, in order;
// remembers the requests it was sent.
class ReplayTransport : public RdmaNetlinkTransport {
 public:
  explicit ReplayTransport(std::vector<std::vector<NetlinkBytes>> replies) : replies_(std::move(replies)) {}
  Status send(std::span<const uint8_t> request) override;
  Result<NetlinkBytes> receive() override;
  const std::vector<NetlinkBytes>& requests() const { return requests_; }

 private:
  std::vector<std::vector<NetlinkBytes>> replies_;
  std::vector<NetlinkBytes> requests_;
  size_t next_reply_ = 0;
  size_t next_datagram_ = 0;
};

// Requests, numbered by `seq`.
NetlinkBytes buildPortDumpRequest(uint32_t seq);
NetlinkBytes buildQpCounterDumpRequest(uint32_t seq);
NetlinkBytes buildSetAutoPidRequest(uint32_t seq, uint32_t device_index, uint32_t port);

struct RdmaPort {
  uint32_t device_index = 0;
  std::string device;
  uint32_t port = 0;
  bool operator==(const RdmaPort&) const = default;
};

// One bound QP counter as the kernel lists it.
struct QpCounter {
  uint32_t device_index = 0;
  std::string device;
  uint32_t port = 0;
  uint32_t counter_id = 0;
  std::optional<uint32_t> pid;  // nullopt: a kernel consumer's (kern_name)
  std::string kern_name;
  std::vector<uint32_t> qpns;
  std::vector<std::pair<std::string, uint64_t>> hw_counters;  // in the kernel's order
  bool operator==(const QpCounter&) const = default;
};

// The messages of a reply, read whole: corrupt (saying where) for a length
// past the end, an attribute that overruns its message or nest, a nest where
// a value is due, a missing device or port; the kernel's own error (an
// NLMSG_ERROR with a negative code) as unavailable with its errno text.
Result<std::vector<RdmaPort>> parsePortDump(std::span<const uint8_t> reply);
Result<std::vector<QpCounter>> parseQpCounterDump(std::span<const uint8_t> reply);
// An acknowledged request: ok for an NLMSG_ERROR of code 0.
Status parseAck(std::span<const uint8_t> reply);

// Sends `request` and gathers the datagrams up to NLMSG_DONE (a dump) or the
// acknowledgement, refusing replies of another sequence number.
Result<NetlinkBytes> transact(RdmaNetlinkTransport& transport, const NetlinkBytes& request);

// The three calls, through a transport.
Result<std::vector<RdmaPort>> listRdmaPorts(RdmaNetlinkTransport& transport, uint32_t seq);
Result<std::vector<QpCounter>> dumpQpCounters(RdmaNetlinkTransport& transport, uint32_t seq);
Status setAutoPidMode(RdmaNetlinkTransport& transport, uint32_t seq, const RdmaPort& port);

}  // namespace rdmagw::southbound::k8s
