#include "southbound/nxapi/nxapi_http.h"

#include <curl/curl.h>
#include <strings.h>

#include <mutex>

#include "models/self_metrics.h"
#include "southbound/secret_source.h"

namespace rdmagw::southbound::nxapi {
namespace {

// curl_global_init is not thread-safe and must run before any handle; the
// targets' threads build their clients concurrently.
void globalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  std::string body;
  size_t max_bytes = 0;
  bool too_big = false;
  std::string set_cookie;  // "nxapi_auth=<token>" when the reply set one
};

size_t onBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t len = size * n;
  if (t->body.size() + len > t->max_bytes) {
    t->too_big = true;
    return 0;  // curl ends the transfer with CURLE_WRITE_ERROR
  }
  t->body.append(data, len);
  return len;
}

// Keeps the session cookie of a Set-Cookie header; other cookies are none
// of ours. Header names are case-insensitive.
size_t onHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * n);
  constexpr std::string_view kName = "set-cookie:";
  if (line.size() > kName.size() && strncasecmp(line.data(), kName.data(), kName.size()) == 0) {
    std::string_view v = line.substr(kName.size());
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    if (v.starts_with("nxapi_auth=")) {
      v = v.substr(0, v.find_first_of(";\r\n"));
      t->set_cookie = std::string(v);
    }
  }
  return size * n;
}

CURL* handle(void* p) { return static_cast<CURL*>(p); }

}  // namespace

NxapiHttp::NxapiHttp(NxapiConfig config, std::string target, std::function<Clock::time_point()> now)
    : config_(std::move(config)), now_(std::move(now)), target_(std::move(target)) {
  globalInit();
}

NxapiHttp::~NxapiHttp() {
  if (metrics_id_ != 0) SelfMetrics::instance().remove(metrics_id_);
  reset();
}

NxapiHttpStats NxapiHttp::stats() const {
  NxapiHttpStats s;
  s.requests = counters_.requests.load();
  s.logins = counters_.logins.load();
  s.cookie_requests = counters_.cookie_requests.load();
  s.connections = counters_.connections.load();
  s.bytes_received = counters_.bytes_received.load();
  s.unauthorized = counters_.unauthorized.load();
  s.max_sessions = counters_.max_sessions.load();
  s.text_fallbacks = counters_.text_fallbacks.load();
  return s;
}

void NxapiHttp::reset() {
  if (curl_ != nullptr) curl_easy_cleanup(handle(curl_));
  curl_ = nullptr;
  curl_slist_free_all(static_cast<curl_slist*>(connect_to_));
  connect_to_ = nullptr;
  cookie_.clear();
}

Status NxapiHttp::applyTls() {
  CURL* c = handle(curl_);
  if (config_.insecure) {
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
  } else {
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!config_.ca_file.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, config_.ca_file.c_str());
  }
  if (!config_.pinned_public_key.empty()) {
    if (curl_easy_setopt(c, CURLOPT_PINNEDPUBLICKEY, config_.pinned_public_key.c_str()) != CURLE_OK) {
      return Status::invalidArgument("pinned_public_key: this libcurl's TLS library cannot pin keys");
    }
  }
  return Status::ok();
}

Result<HttpReply> NxapiHttp::post(std::string_view body, std::string_view content_type) {
  // A cookie the switch has certainly expired is not worth a 401 round trip.
  if (!cookie_.empty() && now_() - cookie_since_ >= config_.session_lifetime) cookie_.clear();
  const bool had_cookie = !cookie_.empty();
  Result<HttpReply> r = send(body, content_type, /*login=*/!had_cookie);
  if (r.isOk() && r->status == 401 && had_cookie) {
    // The switch forgot the session (it restarted NX-API, or its clock ran
    // faster than ours): log in again, once.
    cookie_.clear();
    r = send(body, content_type, /*login=*/true);
  }
  return r;
}

Result<HttpReply> NxapiHttp::send(std::string_view body, std::string_view content_type, bool login) {
  if (metrics_id_ == 0 && !target_.empty()) {
    // From the first request, not the constructor: a target rebuilt by a
    // reload exports one set of rows, the new client's, once it polls.
    metrics_id_ = SelfMetrics::instance().add([this](std::vector<SelfMetricSample>* out) {
      const NxapiHttpStats s = stats();
      out->push_back({"nxapi_requests", {target_}, double(s.requests)});
      out->push_back({"nxapi_logins", {target_}, double(s.logins)});
      out->push_back({"nxapi_connections", {target_}, double(s.connections)});
      out->push_back({"nxapi_response_bytes", {target_}, double(s.bytes_received)});
      out->push_back({"nxapi_max_sessions_refusals", {target_}, double(s.max_sessions)});
      out->push_back({"nxapi_text_fallbacks", {target_}, double(s.text_fallbacks)});
    });
  }
  if (curl_ == nullptr) {
    curl_ = curl_easy_init();
    if (curl_ == nullptr) return Status::internal("nxapi " + config_.endpoint() + ": curl_easy_init failed");
    CURL* c = handle(curl_);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
    curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    const std::string name = config_.server_name.empty() ? config_.host : config_.server_name;
    NxapiConfig shown = config_;
    shown.host = name;
    curl_easy_setopt(c, CURLOPT_URL, shown.url().c_str());
    if (name != config_.host) {
      // Verify the certificate for `name` while connecting to `host`.
      const std::string rule =
          name + ":" + std::to_string(config_.port) + ":" + config_.host + ":" + std::to_string(config_.port);
      connect_to_ = curl_slist_append(nullptr, rule.c_str());
      curl_easy_setopt(c, CURLOPT_CONNECT_TO, static_cast<curl_slist*>(connect_to_));
    }
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, long(config_.connect_timeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, long(config_.request_timeout.count()));
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, onHeader);
    if (Status st = applyTls(); !st.isOk()) {
      reset();
      return st;
    }
  }
  CURL* c = handle(curl_);
  Transfer t;
  t.max_bytes = config_.max_response_bytes;
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, long(body.size()));
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());

  curl_slist* headers = curl_slist_append(nullptr, ("Content-Type: " + std::string(content_type)).c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
  if (!login) headers = curl_slist_append(headers, ("Cookie: " + cookie_).c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);

  common::Secret password;
  if (login) {
    Result<common::Secret> secret =
        resolveSecret("password_env", config_.password_env, "password_file", config_.password_file);
    if (!secret.isOk()) {
      curl_slist_free_all(headers);
      return Status::unavailable("nxapi " + config_.endpoint() + ": " + secret.status().message());
    }
    password = std::move(secret).value();
    curl_easy_setopt(c, CURLOPT_HTTPAUTH, long(CURLAUTH_BASIC));
    curl_easy_setopt(c, CURLOPT_USERNAME, config_.username.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, password.reveal());
  } else {
    curl_easy_setopt(c, CURLOPT_USERNAME, static_cast<char*>(nullptr));
    curl_easy_setopt(c, CURLOPT_PASSWORD, static_cast<char*>(nullptr));
  }
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);

  const CURLcode rc = curl_easy_perform(c);
  ++counters_.requests;
  ++(login ? counters_.logins : counters_.cookie_requests);
  long connects = 0;
  curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &connects);
  counters_.connections += uint64_t(connects);
  // Drop curl's copy of the password and the per-request pointers now, not
  // at the next request.
  curl_easy_setopt(c, CURLOPT_PASSWORD, static_cast<char*>(nullptr));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, static_cast<curl_slist*>(nullptr));
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, static_cast<char*>(nullptr));
  curl_slist_free_all(headers);

  if (rc != CURLE_OK) {
    std::string why = curl_easy_strerror(rc);
    if (error[0] != '\0') why += ": " + std::string(error);
    if (t.too_big) why = "answer larger than max_response_bytes (" + std::to_string(config_.max_response_bytes) + ")";
    if (rc == CURLE_PEER_FAILED_VERIFICATION) {
      why = "TLS: the switch's certificate was refused (" +
            (config_.ca_file.empty() ? std::string("system CA store") : "ca_file " + config_.ca_file) + "): " + why;
    } else if (rc == CURLE_SSL_PINNEDPUBKEYNOTMATCH) {
      why = "TLS: the switch's public key does not match pinned_public_key: " + why;
    }
    // The connection may be half-used: start afresh next time (the session
    // cookie stays; it is the switch's, not the connection's).
    std::string keep = cookie_;
    Clock::time_point since = cookie_since_;
    reset();
    cookie_ = std::move(keep);
    cookie_since_ = since;
    return Status::unavailable("nxapi " + config_.endpoint() + ": " + password.scrub(why));
  }
  HttpReply reply;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  char* type = nullptr;
  curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
  if (type != nullptr) reply.content_type = type;
  reply.body = std::move(t.body);
  counters_.bytes_received += reply.body.size();
  if (reply.status == 429) ++counters_.max_sessions;
  if (reply.status == 401) {
    ++counters_.unauthorized;
    cookie_.clear();
  } else if (!t.set_cookie.empty()) {
    cookie_ = std::move(t.set_cookie);
    cookie_since_ = now_();
  }
  return reply;
}

}  // namespace rdmagw::southbound::nxapi
