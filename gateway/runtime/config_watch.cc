#include "gateway/runtime/config_watch.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "models/log.h"
#include "models/thread_role.h"

namespace rdmagw::gateway {

namespace {

constexpr uint32_t kMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB |
                           IN_DELETE_SELF | IN_MOVE_SELF;

// Kubernetes swaps a ConfigMap's files by renaming its "..data" link.
bool isAtomicSwapLink(const std::string& name) { return name == "..data"; }

bool isYamlName(const std::string& name) {
  auto ends = [&name](const char* s) {
    const size_t n = std::strlen(s);
    return name.size() > n && name.compare(name.size() - n, n, s) == 0;
  };
  return !name.empty() && name[0] != '.' && (ends(".yaml") || ends(".yml"));
}

}  // namespace

ConfigWatch::ConfigWatch(std::function<void()> on_change, std::chrono::milliseconds debounce)
    : on_change_(std::move(on_change)), debounce_(debounce) {}

ConfigWatch::~ConfigWatch() { stop(); }

Status ConfigWatch::start() {
  if (thread_.joinable()) return Status::ok();
  inotify_fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_fd_ < 0) return Status::ioError(std::string("inotify_init1: ") + std::strerror(errno));
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) {
    close(inotify_fd_);
    inotify_fd_ = -1;
    return Status::ioError(std::string("eventfd: ") + std::strerror(errno));
  }
  thread_ = std::thread([this] {
    enterThreadRole("config-watch", ThreadRole::kIngest);
    loop();
  });
  return Status::ok();
}

void ConfigWatch::stop() {
  if (thread_.joinable()) {
    const uint64_t one = 1;
    if (write(wake_fd_, &one, sizeof one) < 0) {
      // The eventfd cannot be full with one write: nothing to do.
    }
    thread_.join();
  }
  std::lock_guard lock(mu_);
  watches_.clear();
  if (inotify_fd_ >= 0) close(inotify_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
  inotify_fd_ = wake_fd_ = -1;
}

void ConfigWatch::addWatch(const std::string& dir, Role role, const std::string& name) {
  const int wd = inotify_add_watch(inotify_fd_, dir.c_str(), kMask);
  if (wd < 0) {
    RDMAGW_LOG(kWarn, "reload") << "cannot watch " << dir << ": " << std::strerror(errno)
                                << " (SIGHUP still reloads)";
    return;
  }
  // Two roles on one directory (the targets dir beside the main file) share
  // one descriptor: the targets role sees every file there, which is the wider.
  auto it = watches_.find(wd);
  if (it != watches_.end() && it->second.role == Role::kTargetsDir) return;
  watches_[wd] = Watch{role, name};
}

void ConfigWatch::watch(const std::string& main_file, const std::string& targets_dir) {
  namespace fs = std::filesystem;
  std::lock_guard lock(mu_);
  if (inotify_fd_ < 0) return;
  for (const auto& [wd, w] : watches_) inotify_rm_watch(inotify_fd_, wd);
  watches_.clear();
  const fs::path main = fs::absolute(main_file);
  addWatch(main.parent_path().string(), Role::kMainDir, main.filename().string());
  if (targets_dir.empty()) return;
  const fs::path dir = fs::absolute(targets_dir).lexically_normal();
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    addWatch(dir.string(), Role::kTargetsDir, "");
  } else {
    fs::path d = dir;
    if (!d.has_filename()) d = d.parent_path();
    if (fs::is_directory(d.parent_path(), ec)) addWatch(d.parent_path().string(), Role::kTargetsParent,
                                                         d.filename().string());
  }
}

bool ConfigWatch::relevant(int wd, const std::string& name, uint32_t mask) {
  auto it = watches_.find(wd);
  if (it == watches_.end()) return false;
  if (mask & (IN_DELETE_SELF | IN_MOVE_SELF)) return true;
  switch (it->second.role) {
    case Role::kMainDir:
      return name == it->second.name || isAtomicSwapLink(name);
    case Role::kTargetsDir:
      return isYamlName(name) || isAtomicSwapLink(name);
    case Role::kTargetsParent:
      return name == it->second.name;
  }
  return false;
}

uint64_t ConfigWatch::changesSeen() const {
  std::lock_guard lock(mu_);
  return changes_;
}

void ConfigWatch::loop() {
  using Clock = std::chrono::steady_clock;
  bool waiting = false;  // a change waits out the debounce until fire_at
  Clock::time_point fire_at;
  alignas(inotify_event) char buf[16 * (sizeof(inotify_event) + NAME_MAX + 1)];
  for (;;) {
    int timeout_ms = -1;
    if (waiting) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(fire_at - Clock::now());
      timeout_ms = int(std::max<int64_t>(0, left.count()));
    }
    pollfd fds[2] = {{inotify_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const int n = ::poll(fds, 2, timeout_ms);
    if (n < 0 && errno != EINTR) return;
    if (fds[1].revents & POLLIN) return;  // stop()
    if (fds[0].revents & POLLIN) {
      bool changed = false;
      for (;;) {
        const ssize_t len = read(inotify_fd_, buf, sizeof buf);
        if (len <= 0) break;
        std::lock_guard lock(mu_);
        for (char* p = buf; p < buf + len;) {
          const auto* ev = reinterpret_cast<const inotify_event*>(p);
          const std::string name = ev->len > 0 ? std::string(ev->name) : std::string();
          if (relevant(ev->wd, name, ev->mask)) changed = true;
          p += sizeof(inotify_event) + ev->len;
        }
      }
      if (changed) {
        waiting = true;
        fire_at = Clock::now() + debounce_;  // quiet for debounce_ from the last change
      }
    }
    if (waiting && Clock::now() >= fire_at) {
      waiting = false;
      {
        std::lock_guard lock(mu_);
        ++changes_;
      }
      on_change_();
    }
  }
}

}  // namespace rdmagw::gateway
