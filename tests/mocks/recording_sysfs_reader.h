#pragma once
// SysfsReader decorator that records every path read or listed, so a test can
// prove an excluded device was never touched (node_exporter #3265), and can
// run a hook after each call (to make a device vanish mid-poll).

#include <functional>
#include <string>
#include <vector>

#include "southbound/rdma/sysfs_reader.h"

namespace rdmagw::testing {

class RecordingSysfsReader : public southbound::rdma::SysfsReader {
 public:
  explicit RecordingSysfsReader(southbound::rdma::SysfsReader& inner) : inner_(inner) {}

  Result<std::string> readFile(const std::string& relpath) override {
    touched_.push_back(relpath);
    auto r = inner_.readFile(relpath);
    if (after_) after_(relpath);
    return r;
  }
  Result<std::vector<std::string>> listDir(const std::string& relpath) override {
    touched_.push_back(relpath);
    auto r = inner_.listDir(relpath);
    if (after_) after_(relpath);
    return r;
  }
  std::string displayPath(const std::string& relpath) const override {
    return inner_.displayPath(relpath);
  }

  const std::vector<std::string>& touched() const { return touched_; }
  // Called with the path after every readFile/listDir.
  void setAfterHook(std::function<void(const std::string&)> hook) { after_ = std::move(hook); }

 private:
  southbound::rdma::SysfsReader& inner_;
  std::vector<std::string> touched_;
  std::function<void(const std::string&)> after_;
};

}  // namespace rdmagw::testing
