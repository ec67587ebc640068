#include "northbound/snmp/snmp_config.h"

#include <string_view>
#include <vector>

namespace rdmagw::northbound::snmp {
namespace {

// Empty when `socket` is a transport snmpd's agentXSocket accepts that we support.
std::string checkSocket(std::string_view socket) {
  if (socket.empty()) return "is empty; want a unix socket path or tcp:host:port";
  if (socket.rfind("tcp:", 0) == 0) {
    std::string_view rest = socket.substr(4);
    size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
      return "'" + std::string(socket) + "' wants tcp:host:port";
    }
    std::string_view port = rest.substr(colon + 1);
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoul(std::string(port)) == 0 || std::stoul(std::string(port)) > 65535) {
      return "'" + std::string(socket) + "' has an invalid port (1-65535)";
    }
    return "";
  }
  std::string_view path = socket.rfind("unix:", 0) == 0 ? socket.substr(5) : socket;
  if (path.empty() || path.front() != '/') {
    return "'" + std::string(socket) + "' must be an absolute unix socket path or tcp:host:port";
  }
  if (path.size() > 107) return "'" + std::string(socket) + "' is longer than a unix socket path may be (107)";
  return "";
}

}  // namespace

Status SnmpConfig::validate() const {
  std::vector<std::string> errors;
  if (std::string err = checkSocket(agentx_socket); !err.empty()) errors.push_back("agentx_socket: " + err);
  if (state_dir.empty()) {
    errors.push_back("state_dir: is empty; ifIndex values must be kept somewhere to stay stable");
  } else if (state_dir.front() != '/') {
    errors.push_back("state_dir: '" + state_dir + "' must be an absolute path");
  }
  if (refresh_period < std::chrono::milliseconds(100) || refresh_period > std::chrono::hours(1)) {
    errors.push_back("refresh_period: must be between 100ms and 1h");
  }
  if (agentx_ping_interval < std::chrono::seconds(1)) errors.push_back("agentx_ping_interval: must be at least 1s");
  if (errors.empty()) return Status::ok();
  std::string msg;
  for (const std::string& e : errors) msg += (msg.empty() ? "" : "; ") + e;
  return Status::invalidArgument(msg);
}

Status SnmpConfig::validateNotifications() const {
  std::string msg;
  for (size_t i = 0; i < notifications.size(); ++i) {
    if (Status st = notifications[i].validate(); !st.isOk()) {
      msg += (msg.empty() ? "" : "; ") + std::string("notifications[") + std::to_string(i) + "]: " + st.message();
    }
  }
  if (!notifications.empty() && !read_secret) msg += (msg.empty() ? "" : "; ") + std::string("no secret reader");
  return msg.empty() ? Status::ok() : Status::invalidArgument(msg);
}

}  // namespace rdmagw::northbound::snmp
