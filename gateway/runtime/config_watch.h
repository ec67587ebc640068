#pragma once
// Notices edits of the configuration with inotify: the main file (watched
// through its directory, since editors and config management replace files
// by rename) and every file of the targets_dir. Calls back once things have
// been quiet for `debounce`, so a tool writing ten files, or an editor's
// write-rename-chmod, makes one reload rather than ten.

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "models/status.h"

namespace rdmagw::gateway {

class ConfigWatch {
 public:
  ConfigWatch(std::function<void()> on_change, std::chrono::milliseconds debounce);
  ~ConfigWatch();  // stop()
  ConfigWatch(const ConfigWatch&) = delete;
  ConfigWatch& operator=(const ConfigWatch&) = delete;

  Status start();
  void stop();
  // What to watch from now on (again after each reload: targets_dir may
  // have changed, or appeared). An empty targets_dir: the main file only. A
  // targets_dir that does not exist yet is watched for through its parent.
  void watch(const std::string& main_file, const std::string& targets_dir);
  uint64_t changesSeen() const;  // debounced callbacks made

 private:
  enum class Role { kMainDir, kTargetsDir, kTargetsParent };
  struct Watch {
    Role role;
    std::string name;  // kMainDir: the main file's name; kTargetsParent: the targets dir's
  };
  void loop();
  bool relevant(int wd, const std::string& name, uint32_t mask);  // mu_ held
  void addWatch(const std::string& dir, Role role, const std::string& name);  // mu_ held

  std::function<void()> on_change_;
  const std::chrono::milliseconds debounce_;
  int inotify_fd_ = -1;
  int wake_fd_ = -1;  // eventfd: stop()
  std::thread thread_;
  mutable std::mutex mu_;
  std::map<int, Watch> watches_;  // by watch descriptor; guarded by mu_
  uint64_t changes_ = 0;          // guarded by mu_
};

}  // namespace rdmagw::gateway
