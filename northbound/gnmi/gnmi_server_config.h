#pragma once
// Configuration of the gNMI northbound (`northbound.gnmi` in the YAML).
//
// Transport security is explicit: TLS needs tls_cert and tls_key (plus
// tls_client_ca for mutual TLS); plain text needs `insecure: true` and then
// listens on loopback only, unless `insecure_remote: true` says otherwise.
// Users: username/password from each call's metadata, checked against
// users_file and/or the variable named by users_env (format in
// northbound/gnmi/user_auth.h). Without either, calls are not
// authenticated (TLS client certificates may still be required).

#include <chrono>
#include <cstddef>
#include <string>

#include "models/status.h"

namespace rdmagw::northbound::gnmi {

struct GnmiServerConfig {
  std::string listen = "127.0.0.1:9339";  // 9339: gNMI's IANA port
  std::string tls_cert;
  std::string tls_key;
  std::string tls_client_ca;  // set: clients must present a certificate it signed
  bool insecure = false;
  bool insecure_remote = false;
  std::string users_file;
  std::string users_env;
  std::chrono::milliseconds min_sample_interval{1000};       // also what sample_interval 0 means
  std::chrono::milliseconds target_defined_interval{10000};  // TARGET_DEFINED counters
  // A collector host (gnmic, Telegraf) opens a stream per subscription, 20
  // or more, all from one address; gnmic's own server allows 64. A stream
  // costs the server ~50-100 KB bare, ~0.6-1.1 MB for the whole tree of a
  // 2,000-leaf gateway, and its initial sync ~150 B a leaf, kept by the
  // allocator (bench/gnmi_subscriber_memory.cc, Release): max_subscriptions
  // bounds the total, max_queued_updates one stream's queue.
  size_t max_subscriptions_per_client = 64;
  size_t max_subscriptions = 256;
  size_t max_queued_updates = 200'000;  // pending leaves per subscriber
  // In a fleet (from the `cluster` block): this member's name, sent on
  // every call to another member, and the file of the secret the members
  // share (member_identity.h); empty outside a fleet.
  std::string member_name;
  std::string member_secret_file;

  // Every problem at once, each prefixed with its key ("listen: ...").
  Status validate() const;
};

// True for 127.0.0.0/8, ::1 and localhost.
bool isLoopbackHost(const std::string& host);
// Splits "host:port" / "[v6]:port"; false when malformed.
bool splitHostPort(const std::string& listen, std::string* host, int* port);

}  // namespace rdmagw::northbound::gnmi
