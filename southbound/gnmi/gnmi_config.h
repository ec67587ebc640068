#pragma once
// Configuration of one gNMI target (a Nexus switch's gNMI server). Secrets
// are never inline: only where to find the password (environment variable or
// file), read at dial time (southbound/secret_source.h).

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace rdmagw::southbound::gnmi {

enum class SubscriptionMode { kSample, kOnChange };

// "sample" | "on_change" (also "on-change"), as the config file spells them.
Result<SubscriptionMode> parseSubscriptionMode(std::string_view text);

struct GnmiSubscription {
  // Full path with origin, e.g. "openconfig:/interfaces/interface/state/counters".
  // No prefix is ever sent (NX-OS rejects prefixes), so every path is complete.
  std::string path;
  SubscriptionMode mode = SubscriptionMode::kSample;
  std::chrono::milliseconds sample_interval{0};  // 0: GnmiConfig::sample_interval
  bool operator==(const GnmiSubscription&) const = default;
};

enum class EncodingChoice { kAuto, kProto, kJson, kJsonIetf };
Result<EncodingChoice> parseEncodingChoice(std::string_view text);  // auto|proto|json|json_ietf

struct GnmiConfig {
  std::string address;  // host:port (NX-OS default port 50051)
  std::string kind = "nexus";  // TargetHealth.kind
  std::string username;
  std::string password_env;   // checked first
  std::string password_file;  // one trailing newline trimmed

  // Transport security: TLS by default. Turning verification off, or TLS off
  // altogether, must be said explicitly.
  bool tls = true;
  bool insecure_skip_verify = false;  // TLS without checking the server's certificate
  bool plaintext = false;             // no TLS at all (lab switches with `grpc use-vrf` only)
  std::string ca_file;                // empty: the system roots
  std::string cert_file, key_file;    // client certificate (mTLS), both or neither
  std::string server_name_override;   // name checked in the server certificate

  std::vector<GnmiSubscription> subscriptions;  // empty: nxosDefaultSubscriptions()
  EncodingChoice encoding = EncodingChoice::kAuto;  // auto: PROTO, else JSON, else JSON_IETF
  std::chrono::milliseconds sample_interval{10000};  // NX-OS accepts 1 s .. 604800 s
  // After a fatal status (UNAUTHENTICATED, UNIMPLEMENTED, ...) the SSH fallback
  // (if any) runs this long before gNMI is tried again.
  std::chrono::milliseconds retry_gnmi_after{300000};
  // Jittered exponential backoff for transient failures (UNAVAILABLE, ...).
  std::chrono::milliseconds backoff_initial{1000};
  std::chrono::milliseconds backoff_max{60000};
  // Transient failures in a row before the SSH fallback (if any) takes over.
  int fallback_after_failures = 3;
  // connect + TLS + Capabilities; also the longest a dial holds its handshake
  // slot waiting for the stream's first response.
  std::chrono::milliseconds dial_timeout{10000};
  // No message (keepalives included) for this long: the stream is stalled and
  // is reopened. 0: 3 x the longest SAMPLE interval + 10 s. ON_CHANGE-only
  // subscriptions can be legitimately quiet, so then 0 means never.
  std::chrono::milliseconds idle_timeout{0};
  // HTTP/2 keepalive pings; NX-OS answers too_many_pings below 60 s. 0: off.
  std::chrono::milliseconds keepalive_time{300000};
  // Updates buffered between the stream reader and the store writer; when
  // full, updates coalesce per path, and what cannot coalesce is dropped
  // (both counted).
  size_t queue_capacity = 16384;  // ~200 B each with its path: ~3 MiB per target at most
  // A SubscribeResponse larger than this is refused by gRPC (RESOURCE_EXHAUSTED):
  // the stream ends, the target shows why, and redials follow the backoff,
  // which such a refusal does not reset (the peer would only send it again).
  size_t max_message_bytes = size_t{64} << 20;
  // A stream that has sent no sync_response this long after subscribing is
  // reported in the target's health (its updates are still applied: each
  // carries its own reading; NX-OS 9.3(8) never syncs). 0: never reported.
  std::chrono::milliseconds sync_timeout{60000};
  // Down this long: the target's data is expired (`up` stays, at 0). 0: 3 x sample_interval.
  std::chrono::milliseconds stale_after{0};
  // Wait this long before the first dial (redials follow the backoff). A
  // switch samples from the moment its subscription starts, so switches
  // subscribed together send their SAMPLE bursts together; the gateway sets
  // this per switch (firstDialSpread) to spread the bursts over the interval.
  std::chrono::milliseconds first_dial_delay{0};

  // Collects every problem, each prefixed with its field name.
  Status validate() const;
  // The subscriptions to send: `subscriptions`, or the NX-OS defaults.
  std::vector<GnmiSubscription> effectiveSubscriptions() const;
  std::chrono::milliseconds effectiveIdleTimeout() const;
  // Field by field: a config reload keeps a target whose settings are equal.
  bool operator==(const GnmiConfig&) const = default;
};

// The first-dial delay of the `index`-th of a gateway's gNMI switches: the
// fractional part of index x the golden ratio, times `interval`. Index 0 dials
// at once, and however many switches there are, their offsets stay evenly
// spread (no two gaps differ by more than the ratio 2.62), so the SAMPLE bursts
// of N switches land about interval/N apart instead of in one instant.
std::chrono::milliseconds firstDialSpread(size_t index, std::chrono::milliseconds interval);

// The NX-OS set: the mapping table's paths (mapping/notification_mapper.h
// nxosSubscriptionPaths(): OpenConfig interface, ethernet pause and queue
// counters, native ipqos queuing stats with per-class PFC, dot3 stats,
// OpenConfig LLDP neighbour state), all SAMPLE at `sample_interval`;
// oper/admin status ON_CHANGE.
std::vector<GnmiSubscription> nxosDefaultSubscriptions(std::chrono::milliseconds sample_interval);

}  // namespace rdmagw::southbound::gnmi
