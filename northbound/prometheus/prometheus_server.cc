#include "northbound/prometheus/prometheus_server.h"

#include <civetweb.h>
#include <malloc.h>

#include <chrono>
#include <cstring>
#include <string>
#include <string_view>

#include "models/log.h"
#include "northbound/prometheus/fleet_sd.h"
#include "northbound/prometheus/gzip_body.h"

namespace rdmagw::northbound::prometheus {
namespace {

constexpr const char* kComponent = "prometheus";
constexpr const char* kTextFormat = "text/plain; version=0.0.4; charset=utf-8";

// civetweb reports why a bind failed only through its log callback; while
// start() runs (port setup happens on the calling thread) the first message
// is kept here for the returned Status.
thread_local std::string* t_start_error = nullptr;

// civetweb would print its own log lines to stderr; route them through ours.
int onLog(const mg_connection*, const char* message) {
  if (t_start_error != nullptr) {
    if (t_start_error->empty()) *t_start_error = message;
    return 1;
  }
  RDMAGW_LOG(kWarn, kComponent) << "civetweb: " << message;
  return 1;
}

constexpr unsigned kFeatureIpv6 = 8;  // mg_check_feature bit

void sendHeaders(mg_connection* conn, int status, const char* content_type, size_t length,
                 const char* encoding = nullptr) {
  mg_response_header_start(conn, status);
  mg_response_header_add(conn, "Content-Type", content_type, -1);
  const std::string length_text = std::to_string(length);
  mg_response_header_add(conn, "Content-Length", length_text.c_str(), -1);
  if (encoding != nullptr) mg_response_header_add(conn, "Content-Encoding", encoding, -1);
  if (status == 405) mg_response_header_add(conn, "Allow", "GET, HEAD", -1);
  mg_response_header_send(conn);
}

// The body as pieces written one after the other (an exposition is ~90 MB
// at a million series: it is never joined into one buffer).
void send(mg_connection* conn, int status, const char* content_type, const std::vector<std::string_view>& body,
          bool head_only = false, const char* encoding = nullptr) {
  size_t size = 0;
  for (std::string_view piece : body) size += piece.size();
  sendHeaders(conn, status, content_type, size, encoding);
  if (head_only) return;
  for (std::string_view piece : body) {
    // A client gone mid-body: stop writing, nothing else to do for it.
    if (!piece.empty() && mg_write(conn, piece.data(), piece.size()) <= 0) return;
  }
}

void send(mg_connection* conn, int status, const char* content_type, std::string_view body,
          bool head_only = false, const char* encoding = nullptr) {
  send(conn, status, content_type, std::vector<std::string_view>{body}, head_only, encoding);
}

std::string indexPage(const std::string& path) {
  // The path passed validate(): no quotes or angle brackets can break out.
  return "<html><head><title>rdmagw</title></head><body><h1>rdmagw</h1>"
         "<p><a href=\"" + path + "\">Metrics</a></p></body></html>\n";
}

}  // namespace

PrometheusServer::PrometheusServer(const Store& store, PrometheusConfig config, const FleetView* fleet)
    : store_(store), config_(std::move(config)), fleet_(fleet) {}

PrometheusServer::~PrometheusServer() { stop(); }

Status PrometheusServer::start() {
  if (ctx_ != nullptr) return Status::ok();
  if (Status st = config_.validate(); !st.isOk()) {
    return Status::invalidArgument("prometheus: " + st.message());
  }
  if (config_.listen.front() == '[' && mg_check_feature(kFeatureIpv6) == 0) {
    return Status::unavailable("prometheus: cannot listen on " + config_.listen +
                               ": the civetweb library was built without IPv6");
  }
  // Few threads: scrapes are rare and each builds the whole exposition; more
  // threads would only multiply peak memory under a scrape storm.
  const char* options[] = {"listening_ports", config_.listen.c_str(),
                           "num_threads", "4",
                           "request_timeout_ms", "30000",
                           "enable_keep_alive", "yes",
                           "keep_alive_timeout_ms", "60000",
                           nullptr};
  mg_callbacks callbacks{};
  callbacks.begin_request = &PrometheusServer::onRequest;
  callbacks.log_message = &onLog;
  mg_init_data init{};
  init.callbacks = &callbacks;
  init.user_data = this;
  init.configuration_options = options;
  char error_text[256] = {0};
  mg_error_data error{};
  error.text = error_text;
  error.text_buffer_size = sizeof error_text;
  // The cache exists before civetweb's threads can ask it for an exposition.
  if (config_.refresh_period.count() > 0) {
    cache_ = std::make_unique<ExpositionCache>(store_, writer_, config_.refresh_period);
    cache_->start();
  }
  std::string first_log;
  t_start_error = &first_log;
  ctx_ = mg_start2(&init, &error);
  t_start_error = nullptr;
  if (ctx_ == nullptr) {
    cache_.reset();
    // "cannot bind to 127.0.0.1:9464: 98 (Address already in use)" beats
    // civetweb's summary "Failed to setup server ports".
    std::string why = !first_log.empty() ? first_log
                      : error_text[0] != '\0' ? std::string(error_text)
                                              : std::string("civetweb failed to start");
    return Status::unavailable("prometheus: cannot listen on " + config_.listen + ": " + why);
  }
  mg_server_port ports[4];
  int n = mg_get_server_ports(ctx_, 4, ports);
  port_ = n > 0 ? ports[0].port : 0;
  RDMAGW_LOG(kInfo, kComponent) << "serving " << config_.path << " on " << config_.listen
                                << " (port " << port_ << ")"
                                << (cache_ != nullptr ? ", prebuilt every " + std::to_string(config_.refresh_period.count()) + "ms"
                                                      : std::string());
  return Status::ok();
}

void PrometheusServer::stop() {
  if (ctx_ == nullptr) return;
  mg_stop(ctx_);  // joins the worker threads: no request is in flight after this
  ctx_ = nullptr;
  cache_.reset();  // joins its builder
  port_ = 0;
}

int PrometheusServer::onRequest(mg_connection* conn) {
  auto* self = static_cast<PrometheusServer*>(mg_get_user_data(mg_get_context(conn)));
  const mg_request_info* req = mg_get_request_info(conn);
  const std::string_view method = req->request_method != nullptr ? req->request_method : "";
  const std::string_view uri = req->local_uri != nullptr ? req->local_uri : "";
  const bool head_only = method == "HEAD";
  const FleetSnapshot fleet = self->fleet_ != nullptr ? self->fleet_->snapshot() : FleetSnapshot{};
  const bool sd = uri == "/sd" && fleet.enabled && self->config_.path != "/sd";
  const bool known = uri == self->config_.path || uri == "/" || uri == "/healthz" || sd;
  if (!known) {
    send(conn, 404, "text/plain; charset=utf-8", "not found\n", head_only);
  } else if (method != "GET" && !head_only) {
    send(conn, 405, "text/plain; charset=utf-8", "method not allowed\n");
  } else if (uri == self->config_.path) {
    self->last_scrape_ns_.store(nowNs(), std::memory_order_relaxed);
    self->scrapes_.fetch_add(1, std::memory_order_relaxed);
    if (self->cache_ == nullptr || !self->servePrebuilt(conn, head_only)) {
      self->serveMetrics(conn, head_only);
      // The scrape's compressed body and target labels went back to the heap,
      // which keeps them: hand the free pages back to the kernel.
      malloc_trim(0);
    }
  } else if (uri == "/healthz") {
    send(conn, 200, "text/plain; charset=utf-8", healthText(fleet), head_only);
  } else if (sd) {
    send(conn, 200, "application/json", fleetSdJson(fleet), head_only);
  } else {
    send(conn, 200, "text/html; charset=utf-8", indexPage(self->config_.path), head_only);
  }
  return 1;  // handled; civetweb must not look for files
}

void PrometheusServer::serveMetrics(mg_connection* conn, bool head_only) {
  // The writer lends its pooled buckets to one scrape at a time; a scrape
  // that finds them busy builds into buckets of its own.
  Exposition exposition;
  writer_.build(store_, &exposition);
  if (acceptsGzip(mg_get_header(conn, "Accept-Encoding"))) {
    Result<std::string> gz = gzipCompress(exposition.pieces());
    if (gz.isOk()) {
      send(conn, 200, kTextFormat, *gz, head_only, "gzip");
    } else {
      RDMAGW_LOG(kWarn, kComponent) << gz.status().message() << "; sending uncompressed";
      send(conn, 200, kTextFormat, exposition.pieces(), head_only);
    }
  } else {
    send(conn, 200, kTextFormat, exposition.pieces(), head_only);
  }
}

bool PrometheusServer::servePrebuilt(mg_connection* conn, bool head_only) {
  // Only the first scrapes after start() wait, for the first build (~1 s at a
  // million series); without one in time they are built on demand.
  std::shared_ptr<const BuiltExposition> built = cache_->latest(std::chrono::seconds(10));
  if (built == nullptr) return false;
  if (acceptsGzip(mg_get_header(conn, "Accept-Encoding"))) {
    send(conn, 200, kTextFormat, built->gzip, head_only, "gzip");
    return true;
  }
  // A plain scrape (a person with curl) is inflated as it is sent: the text
  // is not kept between builds.
  sendHeaders(conn, 200, kTextFormat, built->text_bytes);
  if (head_only) return true;
  Status st = gunzipTo(built->gzip, [conn](std::string_view slice) {
    return mg_write(conn, slice.data(), slice.size()) > 0;  // false: the client left
  });
  // Our own gzip failing to inflate is a bug: the body is cut short, so the
  // client sees a short read rather than a wrong exposition.
  if (!st.isOk()) {
    RDMAGW_LOG(kError, kComponent) << "prebuilt exposition: " << st.message();
  }
  return true;
}

}  // namespace rdmagw::northbound::prometheus
