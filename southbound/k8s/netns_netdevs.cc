#include "southbound/k8s/netns_netdevs.h"

#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

namespace rdmagw::southbound::k8s {
namespace {

// Closes a descriptor on every path out of the reading thread.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string errnoText(int error_number) { return std::strerror(error_number); }

void readDriverInfo(int socket_fd, NetnsNetdev& netdev) {
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  ifreq request{};
  std::strncpy(request.ifr_name, netdev.name.c_str(), IFNAMSIZ - 1);
  request.ifr_data = reinterpret_cast<char*>(&info);
  if (::ioctl(socket_fd, SIOCETHTOOL, &request) != 0) {
    netdev.ethtool_error = "ETHTOOL_GDRVINFO: " + errnoText(errno);
    return;
  }
  netdev.driver.assign(info.driver, strnlen(info.driver, sizeof info.driver));
  netdev.bus_info.assign(info.bus_info, strnlen(info.bus_info, sizeof info.bus_info));
}

// Runs on the short-lived thread, which may change its own netns.
Result<std::vector<NetnsNetdev>> readInsideNetns(const std::string& path) {
  Fd netns(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (netns.get() < 0) {
    const int e = errno;
    const std::string why = "cannot open " + path + ": " + errnoText(e);
    if (e == ENOENT) return Status::notFound(why);
    if (e == EACCES || e == EPERM) return Status::unavailable(why);
    return Status::ioError(why);
  }
  if (::setns(netns.get(), CLONE_NEWNET) != 0) {
    const int e = errno;
    const std::string why = "cannot enter " + path + ": " + errnoText(e);
    if (e == EINVAL) return Status::invalidArgument(path + " is not a network namespace (" + errnoText(e) + ")");
    if (e == EPERM) return Status::unavailable(why + " (needs CAP_SYS_ADMIN)");
    return Status::ioError(why);
  }
  struct if_nameindex* interfaces = ::if_nameindex();
  if (interfaces == nullptr) return Status::ioError("cannot list interfaces in " + path + ": " + errnoText(errno));
  std::vector<NetnsNetdev> out;
  for (const struct if_nameindex* i = interfaces; i->if_index != 0 && i->if_name != nullptr; ++i) {
    out.push_back(NetnsNetdev{i->if_name, i->if_index, "", "", ""});
  }
  ::if_freenameindex(interfaces);
  // The socket is made after setns, so its ioctls speak to this netns.
  Fd socket_fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (socket_fd.get() < 0) return Status::ioError("cannot open a socket in " + path + ": " + errnoText(errno));
  for (NetnsNetdev& netdev : out) readDriverInfo(socket_fd.get(), netdev);
  return out;
}

}  // namespace

Result<std::vector<NetnsNetdev>> listNetnsNetdevs(const std::string& netns_path) {
  Result<std::vector<NetnsNetdev>> result = Status::internal("the netns reader did not run");
  try {
    std::thread reader([&] { result = readInsideNetns(netns_path); });
    reader.join();
  } catch (const std::system_error& e) {
    return Status::unavailable(std::string("cannot start the netns reader thread: ") + e.what());
  }
  return result;
}

}  // namespace rdmagw::southbound::k8s
