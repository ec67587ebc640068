#include "northbound/gnmi/gnmi_server_config.h"

#include <charconv>
#include <vector>

namespace rdmagw::northbound::gnmi {

bool splitHostPort(const std::string& listen, std::string* host, int* port) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string h = listen.substr(0, colon);
  if (h.front() == '[') {
    if (h.back() != ']' || h.size() < 3) return false;
    h = h.substr(1, h.size() - 2);
  } else if (h.find(':') != std::string::npos) {
    return false;  // a v6 address must be bracketed
  }
  const std::string p = listen.substr(colon + 1);
  int value = -1;
  auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), value);
  if (ec != std::errc() || ptr != p.data() + p.size() || value < 0 || value > 65535) return false;
  *host = h;
  *port = value;
  return true;
}

bool isLoopbackHost(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

Status GnmiServerConfig::validate() const {
  std::vector<std::string> errs;
  std::string host;
  int port = 0;
  if (!splitHostPort(listen, &host, &port)) {
    errs.push_back("listen: \"" + listen + "\" is not host:port or [v6-address]:port");
  }
  const bool tls = !tls_cert.empty() || !tls_key.empty();
  if (tls && (tls_cert.empty() || tls_key.empty())) {
    errs.push_back("tls: cert and key go together; one of them is missing");
  }
  if (!tls_client_ca.empty() && !tls) {
    errs.push_back("tls.client_ca: mutual TLS needs tls.cert and tls.key too");
  }
  if (tls && insecure) errs.push_back("insecure: true contradicts the tls settings; choose one");
  if (!tls && !insecure) {
    errs.push_back("tls: no certificate and key given; set tls.cert and tls.key, or insecure: true "
                   "for plain text on loopback");
  }
  if (insecure && !insecure_remote && !host.empty() && !isLoopbackHost(host)) {
    errs.push_back("listen: plain text (insecure: true) listens on loopback only; \"" + host +
                   "\" is not loopback (set insecure_remote: true to allow it)");
  }
  if (min_sample_interval.count() <= 0) errs.push_back("min_sample_interval: must be positive");
  if (target_defined_interval < min_sample_interval) {
    errs.push_back("target_defined_interval: must not be below min_sample_interval");
  }
  if (max_subscriptions == 0) errs.push_back("limits.max_subscriptions: must be at least 1");
  if (max_subscriptions_per_client == 0) {
    errs.push_back("limits.max_subscriptions_per_client: must be at least 1");
  }
  if (max_queued_updates == 0) errs.push_back("limits.max_queued_updates: must be at least 1");
  if (errs.empty()) return Status::ok();
  std::string msg;
  for (const std::string& e : errs) msg += (msg.empty() ? "" : "; ") + e;
  return Status::invalidArgument(msg);
}

}  // namespace rdmagw::northbound::gnmi
