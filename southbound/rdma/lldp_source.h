#pragma once
// Where a Linux host's LLDP neighbours come from: lldpd's client run each
// poll (`lldpctl -f json0`, parsed by lldpctl_json.h). A host without
// lldpctl, or whose lldpd is not running, simply has no LLDP: that is noted
// once in the log, never counted as a read error, and the rest of the poll
// is unaffected.

#include <memory>
#include <optional>
#include <string>

namespace rdmagw::southbound::rdma {

class LldpSource {
 public:
  virtual ~LldpSource() = default;
  // lldpctl's JSON, or nullopt when the host has none to give this poll.
  virtual std::optional<std::string> read() = 0;
};
using LldpSourcePtr = std::unique_ptr<LldpSource>;

// Runs a command (default `lldpctl -f json0`) through /bin/sh. Its first
// word is looked up on PATH first (unless it holds a '/'): absent, nothing
// runs.
class LldpctlCommand : public LldpSource {
 public:
  explicit LldpctlCommand(std::string command = "lldpctl -f json0");
  std::optional<std::string> read() override;

 private:
  void noteOnce(const std::string& why);
  std::string command_;
  bool noted_ = false;  // reset by a successful run, so a new outage is noted again
};

// Text already read (the remote dump's lldpctl section): returned when it
// holds a JSON document, else nothing (lldpctl absent or failed remotely).
class LldpText : public LldpSource {
 public:
  explicit LldpText(std::string text) : text_(std::move(text)) {}
  std::optional<std::string> read() override;

 private:
  std::string text_;
};

}  // namespace rdmagw::southbound::rdma
