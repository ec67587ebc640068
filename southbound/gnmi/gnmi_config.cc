#include "southbound/gnmi/gnmi_config.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "models/path.h"
#include "southbound/gnmi/mapping/notification_mapper.h"

namespace rdmagw::southbound::gnmi {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr milliseconds kMinSample = seconds(1);        // NX-OS bounds
constexpr milliseconds kMaxSample = seconds(604800);

void addError(std::string* all, const std::string& field, const std::string& msg) {
  if (!all->empty()) *all += "; ";
  *all += field + ": " + msg;
}

}  // namespace

Result<SubscriptionMode> parseSubscriptionMode(std::string_view text) {
  if (text == "sample") return SubscriptionMode::kSample;
  if (text == "on_change" || text == "on-change") return SubscriptionMode::kOnChange;
  return Status::invalidArgument("unknown subscription mode '" + std::string(text) +
                                 "' (sample, on_change)");
}

Result<EncodingChoice> parseEncodingChoice(std::string_view text) {
  if (text == "auto") return EncodingChoice::kAuto;
  if (text == "proto") return EncodingChoice::kProto;
  if (text == "json") return EncodingChoice::kJson;
  if (text == "json_ietf") return EncodingChoice::kJsonIetf;
  return Status::invalidArgument("unknown encoding '" + std::string(text) +
                                 "' (auto, proto, json, json_ietf)");
}

Status GnmiConfig::validate() const {
  std::string errs;
  if (address.empty()) {
    addError(&errs, "address", "required (host:port)");
  } else {
    const size_t colon = address.rfind(':');
    const std::string port = colon == std::string::npos ? "" : address.substr(colon + 1);
    if (port.empty() || !std::all_of(port.begin(), port.end(), ::isdigit)) {
      addError(&errs, "address", "'" + address + "' has no port (host:port)");
    }
  }
  if (plaintext && insecure_skip_verify) {
    addError(&errs, "insecure_skip_verify", "makes no sense with plaintext (no TLS at all)");
  }
  if (plaintext && (!ca_file.empty() || !cert_file.empty() || !key_file.empty())) {
    addError(&errs, "plaintext", "conflicts with ca_file/cert_file/key_file");
  }
  if (!plaintext && !tls) {
    addError(&errs, "tls", "false requires plaintext: true (say it explicitly)");
  }
  if (cert_file.empty() != key_file.empty()) {
    addError(&errs, "cert_file", "cert_file and key_file go together");
  }
  if (!password_env.empty() && !password_file.empty()) {
    addError(&errs, "password_env", "set password_env or password_file, not both");
  }
  if (sample_interval < kMinSample || sample_interval > kMaxSample) {
    addError(&errs, "sample_interval", "must be within 1s..604800s");
  }
  if (retry_gnmi_after.count() <= 0) addError(&errs, "retry_gnmi_after", "must be positive");
  if (backoff_initial.count() <= 0 || backoff_max < backoff_initial) {
    addError(&errs, "backoff_initial", "must be positive and not above backoff_max");
  }
  if (dial_timeout.count() <= 0) addError(&errs, "dial_timeout", "must be positive");
  if (keepalive_time.count() != 0 && keepalive_time < seconds(60)) {
    addError(&errs, "keepalive_time", "NX-OS answers pings under 60s with too_many_pings; use >= 60s or 0 (off)");
  }
  if (first_dial_delay.count() < 0) addError(&errs, "first_dial_delay", "must not be negative");
  if (queue_capacity < 16) addError(&errs, "queue_capacity", "must be at least 16");
  if (max_message_bytes < 4096 || max_message_bytes > size_t{INT32_MAX}) {
    addError(&errs, "max_message_bytes", "must be within 4096..2147483647");
  }
  if (sync_timeout.count() < 0) addError(&errs, "sync_timeout", "must not be negative");
  if (fallback_after_failures < 1) addError(&errs, "fallback_after_failures", "must be at least 1");
  for (size_t i = 0; i < subscriptions.size(); ++i) {
    const GnmiSubscription& s = subscriptions[i];
    const std::string field = "subscriptions[" + std::to_string(i) + "]";
    Result<Path> p = Path::parse(s.path);
    if (!p.isOk()) {
      addError(&errs, field + ".path", p.status().message());
    } else if (p->empty()) {
      addError(&errs, field + ".path", "empty");
    }
    if (s.sample_interval.count() != 0 &&
        (s.sample_interval < kMinSample || s.sample_interval > kMaxSample)) {
      addError(&errs, field + ".sample_interval", "must be within 1s..604800s");
    }
  }
  if (errs.empty()) return Status::ok();
  return Status::invalidArgument(errs);
}

std::vector<GnmiSubscription> GnmiConfig::effectiveSubscriptions() const {
  std::vector<GnmiSubscription> subs =
      subscriptions.empty() ? nxosDefaultSubscriptions(sample_interval) : subscriptions;
  for (GnmiSubscription& s : subs) {
    if (s.mode == SubscriptionMode::kSample && s.sample_interval.count() == 0) {
      s.sample_interval = sample_interval;
    }
  }
  return subs;
}

milliseconds GnmiConfig::effectiveIdleTimeout() const {
  if (idle_timeout.count() != 0) return idle_timeout;
  milliseconds longest{0};
  for (const GnmiSubscription& s : effectiveSubscriptions()) {
    if (s.mode == SubscriptionMode::kSample) longest = std::max(longest, s.sample_interval);
  }
  if (longest.count() == 0) return milliseconds(0);  // ON_CHANGE only: quiet is normal
  return 3 * longest + seconds(10);
}

std::vector<GnmiSubscription> nxosDefaultSubscriptions(milliseconds sample_interval) {
  // The counter paths come from the mapping table's owner, so every model
  // leaf arrives from exactly one subscription: OpenConfig interface and
  // ethernet (802.3x pause) counters, OpenConfig output queues, the native
  // ipqos queuing stats (per-class PFC: no OpenConfig model has it) and the
  // native dot3 stats.
  std::vector<GnmiSubscription> subs;
  for (std::string& p : nxosSubscriptionPaths()) {
    subs.push_back(GnmiSubscription{std::move(p), SubscriptionMode::kSample, sample_interval});
  }
  // State leaves change rarely and matter at once: ON_CHANGE, unless a
  // SAMPLE subscription above already covers them.
  for (const char* leaf : {"openconfig:/interfaces/interface/state/oper-status",
                           "openconfig:/interfaces/interface/state/admin-status",
                           "openconfig:/interfaces/interface/state/description",
                           "openconfig:/interfaces/interface/state/mtu",
                           "openconfig:/interfaces/interface/ethernet/state/port-speed",
                           "openconfig:/interfaces/interface/ethernet/state/negotiated-port-speed"}) {
    Result<Path> want = Path::parse(leaf);
    bool covered = false;
    for (const GnmiSubscription& s : subs) {
      Result<Path> have = Path::parse(s.path);
      covered = covered || (have.isOk() && want.isOk() && want->hasPrefix(*have) &&
                            have->origin() == want->origin());
    }
    if (!covered) subs.push_back(GnmiSubscription{leaf, SubscriptionMode::kOnChange, milliseconds(0)});
  }
  return subs;
}

std::chrono::milliseconds firstDialSpread(size_t index, std::chrono::milliseconds interval) {
  constexpr double kGoldenFraction = 0.6180339887498949;  // (sqrt(5) - 1) / 2
  const double fraction = std::fmod(double(index) * kGoldenFraction, 1.0);
  return std::chrono::milliseconds(int64_t(fraction * double(interval.count())));
}

}  // namespace rdmagw::southbound::gnmi
