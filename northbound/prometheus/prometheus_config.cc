#include "northbound/prometheus/prometheus_config.h"

#include <string_view>
#include <vector>

namespace rdmagw::northbound::prometheus {
namespace {

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Returns an empty string when `listen` is a usable host:port.
std::string checkListen(std::string_view listen) {
  if (listen.empty()) return "is empty; want host:port such as 127.0.0.1:9464";
  std::string_view host;
  std::string_view port;
  if (listen.front() == '[') {
    size_t close = listen.find(']');
    if (close == std::string_view::npos || close + 1 >= listen.size() || listen[close + 1] != ':') {
      return "'" + std::string(listen) + "' is not [ipv6]:port";
    }
    host = listen.substr(1, close - 1);
    port = listen.substr(close + 2);
    if (host.empty() || host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos) {
      return "'" + std::string(listen) + "' has an invalid IPv6 address";
    }
  } else {
    size_t colon = listen.rfind(':');
    if (colon == std::string_view::npos) {
      return "'" + std::string(listen) + "' has no port; want host:port";
    }
    host = listen.substr(0, colon);
    port = listen.substr(colon + 1);
    if (host.empty()) return "'" + std::string(listen) + "' has no host; want host:port";
    if (host.find(':') != std::string_view::npos) {
      return "'" + std::string(listen) + "': write an IPv6 address in brackets, [::1]:9464";
    }
    if (host.find_first_of(" \t,/") != std::string_view::npos) {
      return "'" + std::string(listen) + "' has an invalid host";
    }
  }
  if (!allDigits(port) || port.size() > 5 || std::stoul(std::string(port)) > 65535) {
    return "'" + std::string(listen) + "' has an invalid port (0-65535)";
  }
  return "";
}

}  // namespace

Status PrometheusConfig::validate() const {
  std::vector<std::string> errors;
  if (std::string err = checkListen(listen); !err.empty()) errors.push_back("listen: " + err);
  if (path.empty() || path.front() != '/') {
    errors.push_back("path: '" + path + "' must start with '/'");
  } else if (path.find_first_of(" \t\r\n?#") != std::string::npos) {
    errors.push_back("path: '" + path + "' must not contain whitespace, '?' or '#'");
  } else if (path == "/healthz") {
    errors.push_back("path: '/healthz' is the health endpoint");
  }
  if (refresh_period.count() < 0) {
    errors.push_back("refresh_period: must not be negative (0s builds on every scrape)");
  } else if (refresh_period.count() > 0 && refresh_period < std::chrono::milliseconds(100)) {
    errors.push_back("refresh_period: " + std::to_string(refresh_period.count()) +
                     "ms is too short to build in; use at least 100ms, or 0s to build on every scrape");
  } else if (refresh_period > std::chrono::minutes(1)) {
    errors.push_back("refresh_period: " + std::to_string(refresh_period.count() / 1000) +
                     "s would serve data older than a scrape interval; at most 1m");
  }
  if (errors.empty()) return Status::ok();
  std::string msg;
  for (const std::string& e : errors) msg += (msg.empty() ? "" : "; ") + e;
  return Status::invalidArgument(msg);
}

}  // namespace rdmagw::northbound::prometheus
