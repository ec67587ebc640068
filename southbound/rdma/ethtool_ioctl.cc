#include "southbound/rdma/ethtool_ioctl.h"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "southbound/rdma/sysfs_values.h"

#include "southbound/rdma/netdev_dcb.h"

namespace rdmagw::southbound::rdma {
namespace {

// No driver exposes anywhere near this; a larger count is a broken driver
// and must not make us allocate gigabytes.
constexpr uint32_t kMaxStats = 1u << 16;

// GSTRINGS and GSTATS copy out as many entries as the driver has NOW, not as
// many as we asked for: if the set grew since GSSET_INFO the kernel writes
// past a tight buffer. Leave room for growth (the ethtool tool has the race).
constexpr size_t kSlack = 1024;

// ethtool structs end in flexible arrays: allocate header + payload as u64s
// so the payload is suitably aligned for ETHTOOL_GSTATS.
std::unique_ptr<uint64_t[]> zeroed(size_t bytes) {
  size_t words = (bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t);
  auto buf = std::make_unique<uint64_t[]>(words);
  std::memset(buf.get(), 0, words * sizeof(uint64_t));
  return buf;
}

}  // namespace

EthtoolIoctl::EthtoolIoctl() { fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0); }

EthtoolIoctl::EthtoolIoctl(int socket_fd) : fd_(socket_fd) {}

EthtoolIoctl::~EthtoolIoctl() {
  if (fd_ >= 0) ::close(fd_);
}

Status EthtoolIoctl::call(const std::string& netdev, void* data, const char* what) {
  if (fd_ < 0) return Status::unavailable("ethtool: no socket for SIOCETHTOOL");
  if (netdev.empty() || netdev.size() >= IFNAMSIZ) {
    return Status::invalidArgument("ethtool: bad netdev name '" + netdev + "'");
  }
  struct ifreq ifr;
  std::memset(&ifr, 0, sizeof(ifr));
  std::memcpy(ifr.ifr_name, netdev.data(), netdev.size());
  ifr.ifr_data = static_cast<char*>(data);
  if (::ioctl(fd_, SIOCETHTOOL, &ifr) < 0) {
    int err = errno;
    std::string msg = "ethtool " + std::string(what) + " " + netdev + ": " + std::strerror(err);
    if (err == ENODEV) return Status::notFound(std::move(msg));
    return Status::ioError(std::move(msg));
  }
  return Status::ok();
}

Result<uint32_t> EthtoolIoctl::statCount(const std::string& netdev) {
  auto buf = zeroed(sizeof(ethtool_sset_info) + sizeof(uint32_t));
  auto* info = reinterpret_cast<ethtool_sset_info*>(buf.get());
  info->cmd = ETHTOOL_GSSET_INFO;
  info->sset_mask = 1ULL << ETH_SS_STATS;
  if (Status st = call(netdev, info, "GSSET_INFO"); !st.isOk()) return st;
  // The kernel clears the bit of a set the driver does not have.
  if (!(info->sset_mask & (1ULL << ETH_SS_STATS))) return uint32_t{0};
  uint32_t n = info->data[0];
  if (n > kMaxStats)
    return Status::corrupt("ethtool " + netdev + ": implausible stat count " + std::to_string(n));
  return n;
}

Result<std::vector<std::string>> EthtoolIoctl::statNames(const std::string& netdev,
                                                         uint32_t count) {
  auto buf = zeroed(sizeof(ethtool_gstrings) + (count + kSlack) * ETH_GSTRING_LEN);
  auto* gs = reinterpret_cast<ethtool_gstrings*>(buf.get());
  gs->cmd = ETHTOOL_GSTRINGS;
  gs->string_set = ETH_SS_STATS;
  gs->len = count;
  if (Status st = call(netdev, gs, "GSTRINGS"); !st.isOk()) return st;
  ++name_reads_;
  if (gs->len != count) {
    return Status::corrupt("ethtool " + netdev + ": stat count changed from " +
                           std::to_string(count) + " to " + std::to_string(gs->len));
  }
  std::vector<std::string> names;
  names.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const char* s = reinterpret_cast<const char*>(gs->data) + size_t{i} * ETH_GSTRING_LEN;
    // Not always NUL-terminated at full length; some drivers pad with blanks.
    std::string_view raw(s, strnlen(s, ETH_GSTRING_LEN));
    names.emplace_back(trimValue(raw));
  }
  return names;
}

Result<std::vector<uint64_t>> EthtoolIoctl::statValues(const std::string& netdev, uint32_t count) {
  auto buf = zeroed(sizeof(ethtool_stats) + (count + kSlack) * sizeof(uint64_t));
  auto* es = reinterpret_cast<ethtool_stats*>(buf.get());
  es->cmd = ETHTOOL_GSTATS;
  es->n_stats = count;
  if (Status st = call(netdev, es, "GSTATS"); !st.isOk()) return st;
  if (es->n_stats != count) {
    return Status::corrupt("ethtool " + netdev + ": stat count changed from " +
                           std::to_string(count) + " to " + std::to_string(es->n_stats));
  }
  return std::vector<uint64_t>(es->data, es->data + count);
}

Result<EthtoolStats> EthtoolIoctl::stats(const std::string& netdev) {
  // Two rounds: a stat set that changes between our calls is read again once.
  for (int round = 0; round < 2; ++round) {
    Result<uint32_t> count = statCount(netdev);
    if (!count.isOk()) return count.status();
    std::vector<std::string>& names = names_[netdev];
    if (names.size() != count.value()) {
      Result<std::vector<std::string>> fresh = statNames(netdev, count.value());
      if (!fresh.isOk()) {
        names_.erase(netdev);
        if (fresh.status().code() == Status::Code::kCorrupt) continue;
        return fresh.status();
      }
      names = std::move(fresh).value();
    }
    Result<std::vector<uint64_t>> values = statValues(netdev, count.value());
    if (!values.isOk()) {
      if (values.status().code() == Status::Code::kCorrupt) {
        names_.erase(netdev);  // set changed under us: names are stale
        continue;
      }
      return values.status();
    }
    EthtoolStats out;
    out.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) out.emplace_back(names[i], values.value()[i]);
    return out;
  }
  return Status::unavailable("ethtool " + netdev + ": stat set kept changing while being read");
}

Result<std::string> EthtoolIoctl::dcbJson(const std::string& object, const std::string& netdev) {
  return runDcbShow(object, netdev);
}

Result<std::string> EthtoolIoctl::mlnxQosText(const std::string& netdev) { return runMlnxQos(netdev); }

}  // namespace rdmagw::southbound::rdma
