#include "southbound/k8s/pod_netns_handle.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>
#include <utility>

#include "southbound/rdma/ethtool_ioctl.h"
#include "southbound/rdma/sysfs_reader_impl.h"

namespace rdmagw::southbound::k8s {
namespace {

std::atomic<int> g_open_handles{0};

std::string errnoText(int error_number) { return std::strerror(error_number); }

// Closes a descriptor unless released.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd& operator=(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
    return *this;
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// ethtool -S only: the ioctl source without its tool runs (see the header).
class NetnsEthtool : public rdma::EthtoolSource {
 public:
  explicit NetnsEthtool(int socket_fd) : ioctl_(socket_fd) {}
  Result<rdma::EthtoolStats> stats(const std::string& netdev) override { return ioctl_.stats(netdev); }

 private:
  rdma::EthtoolIoctl ioctl_;
};

struct Opened {
  NetnsId id;
  int socket_fd = -1;
  int mount_fd = -1;
};

Status openFailure(const std::string& path, const std::string& what, int e) {
  const std::string why = "cannot " + what + " " + path + ": " + errnoText(e);
  if (e == ENOENT) return Status::notFound(why);
  if (e == EACCES || e == EPERM) return Status::unavailable(why + " (needs CAP_SYS_ADMIN)");
  if (e == EINVAL) return Status::invalidArgument(why + " (not a network namespace?)");
  return Status::ioError(why);
}

// Runs on the short-lived thread, which may change its own netns.
Result<Opened> openInsideNetns(const std::string& path) {
  Fd netns(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (netns.get() < 0) return openFailure(path, "open", errno);
  struct stat st {};
  if (::fstat(netns.get(), &st) != 0) return openFailure(path, "stat", errno);
  if (::setns(netns.get(), CLONE_NEWNET) != 0) return openFailure(path, "enter", errno);
  Fd socket_fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (socket_fd.get() < 0) socket_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (socket_fd.get() < 0) return openFailure(path, "open a socket in", errno);
  // sysfs takes the creating task's netns when the superblock is made: this
  // thread's, entered above.
  Fd fs(::fsopen("sysfs", FSOPEN_CLOEXEC));
  if (fs.get() < 0) return openFailure(path, "fsopen sysfs for", errno);
  if (::fsconfig(fs.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0) {
    return openFailure(path, "create a sysfs for", errno);
  }
  Fd mount_fd(::fsmount(fs.get(), FSMOUNT_CLOEXEC,
                        MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC));
  if (mount_fd.get() < 0) return openFailure(path, "mount a sysfs for", errno);
  return Opened{NetnsId{uint64_t(st.st_dev), uint64_t(st.st_ino)}, socket_fd.release(), mount_fd.release()};
}

}  // namespace

Result<NetnsId> netnsIdOf(const std::string& netns_path) {
  struct stat st {};
  if (::stat(netns_path.c_str(), &st) != 0) return openFailure(netns_path, "stat", errno);
  return NetnsId{uint64_t(st.st_dev), uint64_t(st.st_ino)};
}

Result<std::unique_ptr<PodNetnsHandle>> PodNetnsHandle::open(const std::string& netns_path) {
  Result<Opened> opened = Status::internal("the netns opener did not run");
  try {
    std::thread opener([&] { opened = openInsideNetns(netns_path); });
    opener.join();
  } catch (const std::system_error& e) {
    return Status::unavailable(std::string("cannot start the netns opener thread: ") + e.what());
  }
  if (!opened.isOk()) return opened.status();
  const Opened o = opened.value();
  // /proc/self/fd/<n> resolves to the root of the detached mount, whose
  // files are the netns's view.
  auto sysfs = std::make_unique<rdma::SysfsReaderImpl>("/proc/self/fd/" + std::to_string(o.mount_fd));
  return std::make_unique<PodNetnsHandle>(o.id, std::move(sysfs), std::make_unique<NetnsEthtool>(o.socket_fd),
                                          o.mount_fd);
}

PodNetnsHandle::PodNetnsHandle(NetnsId id, rdma::SysfsReaderPtr sysfs, rdma::EthtoolSourcePtr ethtool, int mount_fd)
    : id_(id), mount_fd_(mount_fd), sysfs_(std::move(sysfs)), ethtool_(std::move(ethtool)) {
  g_open_handles.fetch_add(1, std::memory_order_relaxed);
}

PodNetnsHandle::~PodNetnsHandle() {
  // The readers first: nothing may use the mount once it is closed.
  sysfs_.reset();
  ethtool_.reset();
  if (mount_fd_ >= 0) ::close(mount_fd_);
  g_open_handles.fetch_sub(1, std::memory_order_relaxed);
}

int PodNetnsHandle::openCount() { return g_open_handles.load(std::memory_order_relaxed); }

}  // namespace rdmagw::southbound::k8s
