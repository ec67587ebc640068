#include "southbound/k8s/vf_stats.h"

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace rdmagw::southbound::k8s {
namespace {

constexpr size_t kNlaHeader = 4;
constexpr size_t kNlmsgHeader = NLMSG_ALIGN(sizeof(nlmsghdr));
constexpr size_t kIfinfoHeader = NLMSG_ALIGN(sizeof(ifinfomsg));

uint16_t u16At(std::span<const uint8_t> bytes, size_t offset) {
  uint16_t v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

uint32_t u32At(std::span<const uint8_t> bytes, size_t offset) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

// Calls fn(type, payload) for each attribute of `area`; the first malformed
// header or failing fn ends the walk. Padding past the last attribute may be
// missing (the area ends at the nest's length, not its aligned length).
template <typename Fn>
Status forEachAttribute(std::span<const uint8_t> area, const std::string& where, Fn&& fn) {
  size_t offset = 0;
  while (offset < area.size()) {
    const size_t left = area.size() - offset;
    const std::string at = where + ": attribute at offset " + std::to_string(offset);
    if (left < kNlaHeader) return Status::corrupt(at + " has " + std::to_string(left) + " bytes, less than a header");
    const uint16_t length = u16At(area, offset);
    const uint16_t type = u16At(area, offset + 2) & NLA_TYPE_MASK;
    if (length < kNlaHeader)
      return Status::corrupt(at + " (type " + std::to_string(type) + ") has length " + std::to_string(length));
    if (length > left) {
      return Status::corrupt(at + " (type " + std::to_string(type) + ") has length " + std::to_string(length) +
                             ", past the end (" + std::to_string(left) + " bytes left)");
    }
    Status status = fn(type, area.subspan(offset + kNlaHeader, length - kNlaHeader));
    if (!status.isOk()) return status;
    offset += NLA_ALIGN(length);
  }
  return Status::ok();
}

Status parseCounters(std::span<const uint8_t> nest, const std::string& where, VfStats& vf) {
  vf.has_stats = true;
  return forEachAttribute(nest, where, [&](uint16_t type, std::span<const uint8_t> payload) {
    std::optional<uint64_t>* counter = nullptr;
    switch (type) {
      case IFLA_VF_STATS_RX_PACKETS:
        counter = &vf.rx_packets;
        break;
      case IFLA_VF_STATS_TX_PACKETS:
        counter = &vf.tx_packets;
        break;
      case IFLA_VF_STATS_RX_BYTES:
        counter = &vf.rx_bytes;
        break;
      case IFLA_VF_STATS_TX_BYTES:
        counter = &vf.tx_bytes;
        break;
      case IFLA_VF_STATS_BROADCAST:
        counter = &vf.broadcast;
        break;
      case IFLA_VF_STATS_MULTICAST:
        counter = &vf.multicast;
        break;
      case IFLA_VF_STATS_RX_DROPPED:
        counter = &vf.rx_dropped;
        break;
      case IFLA_VF_STATS_TX_DROPPED:
        counter = &vf.tx_dropped;
        break;
      default:
        return Status::ok();  // IFLA_VF_STATS_PAD, and counters added after these
    }
    if (payload.size() != sizeof(uint64_t)) {
      return Status::corrupt(where + ": counter type " + std::to_string(type) + " has " +
                             std::to_string(payload.size()) + " bytes, not 8");
    }
    uint64_t value;
    std::memcpy(&value, payload.data(), sizeof value);
    *counter = value;
    return Status::ok();
  });
}

Result<VfStats> parseVfInfo(std::span<const uint8_t> nest, const std::string& where) {
  VfStats vf;
  bool has_mac = false;
  Status status = forEachAttribute(nest, where, [&](uint16_t type, std::span<const uint8_t> payload) {
    if (type == IFLA_VF_MAC) {
      if (payload.size() < sizeof(ifla_vf_mac)) {
        return Status::corrupt(where + ": IFLA_VF_MAC has " + std::to_string(payload.size()) + " bytes, not " +
                               std::to_string(sizeof(ifla_vf_mac)));
      }
      vf.vf = u32At(payload, offsetof(ifla_vf_mac, vf));
      has_mac = true;
    } else if (type == IFLA_VF_STATS) {
      return parseCounters(payload, where + " > IFLA_VF_STATS", vf);
    }
    return Status::ok();
  });
  if (!status.isOk()) return status;
  if (!has_mac) return Status::corrupt(where + " has no IFLA_VF_MAC, so no VF number");
  return vf;
}

Status parseVfInfoList(std::span<const uint8_t> nest, LinkVfStats& out) {
  const std::string where = "IFLA_VFINFO_LIST";
  size_t ordinal = 0;
  return forEachAttribute(nest, where, [&](uint16_t type, std::span<const uint8_t> payload) {
    if (type != IFLA_VF_INFO) return Status::ok();
    Result<VfStats> vf = parseVfInfo(payload, where + " > IFLA_VF_INFO #" + std::to_string(ordinal++));
    if (!vf.isOk()) return vf.status();
    out.vfs.push_back(std::move(vf).value());
    return Status::ok();
  });
}

// The same error, its message led by where it happened.
Status prefixed(const std::string& prefix, const Status& status) {
  const std::string message = prefix + status.message();
  switch (status.code()) {
    case Status::Code::kNotFound:
      return Status::notFound(message);
    case Status::Code::kUnavailable:
      return Status::unavailable(message);
    case Status::Code::kCorrupt:
      return Status::corrupt(message);
    case Status::Code::kInvalidArgument:
      return Status::invalidArgument(message);
    case Status::Code::kIoError:
      return Status::ioError(message);
    default:
      return Status::internal(message);
  }
}

}  // namespace

Result<LinkVfStats> parseLinkVfStats(std::span<const uint8_t> message) {
  if (message.size() < kNlmsgHeader + kIfinfoHeader) {
    return Status::corrupt("RTM_NEWLINK: " + std::to_string(message.size()) + " bytes, less than its headers");
  }
  const uint32_t length = u32At(message, offsetof(nlmsghdr, nlmsg_len));
  const uint16_t type = u16At(message, offsetof(nlmsghdr, nlmsg_type));
  if (type != RTM_NEWLINK) return Status::corrupt("netlink message type " + std::to_string(type) + ", not RTM_NEWLINK");
  if (length < kNlmsgHeader + kIfinfoHeader || length > message.size()) {
    return Status::corrupt("RTM_NEWLINK: nlmsg_len " + std::to_string(length) + " outside 32.." +
                           std::to_string(message.size()));
  }
  LinkVfStats out;
  int32_t index;
  std::memcpy(&index, message.data() + kNlmsgHeader + offsetof(ifinfomsg, ifi_index), sizeof index);
  out.ifindex = index;
  const std::span<const uint8_t> attributes =
      message.subspan(kNlmsgHeader + kIfinfoHeader, length - kNlmsgHeader - kIfinfoHeader);
  Status status = forEachAttribute(attributes, "RTM_NEWLINK", [&](uint16_t t, std::span<const uint8_t> payload) {
    if (t == IFLA_IFNAME) {
      const auto* text = reinterpret_cast<const char*>(payload.data());
      out.ifname.assign(text, strnlen(text, payload.size()));
    } else if (t == IFLA_NUM_VF) {
      if (payload.size() != sizeof(uint32_t)) return Status::corrupt("RTM_NEWLINK: IFLA_NUM_VF is not 4 bytes");
      out.num_vf = u32At(payload, 0);
    } else if (t == IFLA_VFINFO_LIST) {
      return parseVfInfoList(payload, out);
    }
    return Status::ok();
  });
  if (!status.isOk()) return status;
  return out;
}

VfStatsReader::~VfStatsReader() {
  if (fd_ >= 0) ::close(fd_);
}

Status VfStatsReader::open() {
  if (fd_ >= 0) return Status::ok();
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) return Status::unavailable(std::string("cannot open a NETLINK_ROUTE socket: ") + std::strerror(errno));
  // The kernel answers RTM_GETLINK at once; the timeout only bounds a poll
  // should it not.
  const timeval timeout{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  fd_ = fd;
  return Status::ok();
}

Result<LinkVfStats> VfStatsReader::read(const std::string& ifname) {
  if (ifname.empty() || ifname.size() >= IFNAMSIZ)
    return Status::invalidArgument("not a netdev name: \"" + ifname + "\"");
  return request(0, ifname, "netdev " + ifname);
}

Result<LinkVfStats> VfStatsReader::read(int32_t ifindex) {
  if (ifindex <= 0) return Status::invalidArgument("not an ifindex: " + std::to_string(ifindex));
  return request(ifindex, "", "ifindex " + std::to_string(ifindex));
}

Result<LinkVfStats> VfStatsReader::request(int32_t ifindex, const std::string& ifname, const std::string& what) {
  Status opened = open();
  if (!opened.isOk()) return prefixed(what + ": ", opened);
  const uint32_t seq = ++seq_;

  // nlmsghdr, ifinfomsg, IFLA_EXT_MASK and, by name, IFLA_IFNAME.
  std::vector<uint8_t> out(kNlmsgHeader + kIfinfoHeader, 0);
  auto put = [&out](uint16_t type, const void* data, size_t size) {
    const uint16_t length = uint16_t(kNlaHeader + size);
    const size_t at = out.size();
    out.resize(at + NLA_ALIGN(length), 0);
    std::memcpy(out.data() + at, &length, 2);
    std::memcpy(out.data() + at + 2, &type, 2);
    std::memcpy(out.data() + at + kNlaHeader, data, size);
  };
  const uint32_t mask = RTEXT_FILTER_VF;
  put(IFLA_EXT_MASK, &mask, sizeof mask);
  if (!ifname.empty()) put(IFLA_IFNAME, ifname.c_str(), ifname.size() + 1);
  nlmsghdr header{uint32_t(out.size()), RTM_GETLINK, NLM_F_REQUEST, seq, 0};
  std::memcpy(out.data(), &header, sizeof header);
  ifinfomsg info{};
  info.ifi_family = AF_UNSPEC;
  info.ifi_index = ifindex;
  std::memcpy(out.data() + kNlmsgHeader, &info, sizeof info);

  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  ssize_t sent;
  do {
    sent = ::sendto(fd_, out.data(), out.size(), 0, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel);
  } while (sent < 0 && errno == EINTR);
  if (sent < 0) return Status::ioError("RTM_GETLINK for " + what + ": sendto: " + std::strerror(errno));

  std::vector<uint8_t> reply;
  for (;;) {
    // The reply's real size first: a PF with many VFs answers with more
    // than any fixed buffer would hold.
    const ssize_t pending = ::recv(fd_, nullptr, 0, MSG_PEEK | MSG_TRUNC);
    if (pending < 0 && errno == EINTR) continue;
    if (pending < 0) return Status::ioError("RTM_GETLINK for " + what + ": recv: " + std::strerror(errno));
    reply.assign(size_t(pending) < 8192 ? 8192 : size_t(pending), 0);
    sockaddr_nl from{};
    iovec iov{reply.data(), reply.size()};
    msghdr msg{};
    msg.msg_name = &from;
    msg.msg_namelen = sizeof from;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    const ssize_t got = ::recvmsg(fd_, &msg, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Status::ioError("RTM_GETLINK for " + what + ": recvmsg: " + std::strerror(errno));
    if (msg.msg_flags & MSG_TRUNC) return Status::ioError("RTM_GETLINK for " + what + ": reply truncated");
    if (from.nl_pid != 0) continue;  // only the kernel answers
    const std::span<const uint8_t> bytes(reply.data(), size_t(got));
    size_t offset = 0;
    while (bytes.size() - offset >= sizeof(nlmsghdr)) {
      nlmsghdr h;
      std::memcpy(&h, bytes.data() + offset, sizeof h);
      if (h.nlmsg_len < sizeof(nlmsghdr) || h.nlmsg_len > bytes.size() - offset) {
        return Status::corrupt("RTM_GETLINK for " + what + ": reply message length " + std::to_string(h.nlmsg_len));
      }
      const std::span<const uint8_t> one = bytes.subspan(offset, h.nlmsg_len);
      offset += NLMSG_ALIGN(h.nlmsg_len);
      if (h.nlmsg_seq != seq) continue;  // a late answer to an earlier request
      if (h.nlmsg_type == NLMSG_ERROR) {
        if (one.size() < kNlmsgHeader + sizeof(int32_t))
          return Status::corrupt("RTM_GETLINK for " + what + ": short NLMSG_ERROR");
        int32_t error;
        std::memcpy(&error, one.data() + kNlmsgHeader, sizeof error);
        // A negative errno; anything else (INT_MIN would not even negate)
        // is a damaged reply.
        if (error >= 0 || error < -4095) {
          return Status::corrupt("RTM_GETLINK for " + what + ": error code " + std::to_string(error) + " is no errno");
        }
        const std::string why = "RTM_GETLINK for " + what + ": " + std::strerror(-error);
        if (error == -ENODEV) return Status::notFound(why);
        return Status::ioError(why);
      }
      Result<LinkVfStats> parsed = parseLinkVfStats(one);
      if (!parsed.isOk()) return Status::corrupt(what + ": " + parsed.status().message());
      return parsed;
    }
  }
}

std::vector<PfVfStats> readPfVfStats(const std::vector<PhysicalFunction>& pfs, VfStatsReader& reader,
                                     std::vector<Status>& errors) {
  std::vector<PfVfStats> out;
  for (const PhysicalFunction& pf : pfs) {
    if (pf.function.rdma_devices.empty()) continue;
    std::optional<Status> error;
    for (const std::string& netdev : pf.function.netdevs) {
      Result<LinkVfStats> link = reader.read(netdev);
      if (!link.isOk()) {
        if (!error) error = link.status();
        continue;
      }
      if (link->vfs.empty()) continue;
      out.push_back(PfVfStats{pf.function.rdma_devices, netdev, std::move(link->vfs)});
      error.reset();
      break;
    }
    if (error) {
      errors.push_back(prefixed("PF " + formatPciAddress(pf.function.address) + ": ", *error));
    }
  }
  return out;
}

}  // namespace rdmagw::southbound::k8s
