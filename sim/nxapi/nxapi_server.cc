#include "sim/nxapi/nxapi_server.h"

#include <arpa/inet.h>
#include <civetweb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string_view>
#include <thread>
#include <vector>

#include "models/log.h"
#include "sim/device_shell.h"
#include "sim/nxapi/nxapi_dialect.h"

namespace rdmagw::sim {
namespace {

constexpr const char* kComponent = "sim-nxapi";
constexpr size_t kMaxBody = 1 << 20;  // an NX-API request is a few commands

// civetweb explains a failed bind only through its log callback; while
// start() runs on this thread the first message is kept for the Status.
thread_local std::string* t_start_error = nullptr;

int onLog(const mg_connection*, const char* message) {
  if (t_start_error != nullptr) {
    if (t_start_error->empty()) *t_start_error = message;
    return 1;
  }
  RDMAGW_LOG(kDebug, kComponent) << "civetweb: " << message;
  return 1;
}

void pokeLoopback(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  (void)::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::close(fd);
}

std::string base64Decode(std::string_view in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const int v = value(c);
    if (v < 0) break;  // '=' padding ends the data
    acc = (acc << 6) | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(char((acc >> bits) & 0xff));
    }
  }
  return out;
}

// The page nginx in front of NX-API sends for a missing or wrong login
// (and, with its own title, for any status the server refuses with).
std::string nginxPage(int status, const char* reason) {
  const std::string title = std::to_string(status) + " " + reason;
  return "<html>\n<head><title>" + title + "</title></head>\n<body bgcolor=\"white\">\n<center><h1>" + title +
         "</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n";
}

void send(mg_connection* conn, int status, const char* content_type, const std::string& body,
          const std::string& set_cookie = "") {
  mg_response_header_start(conn, status);
  mg_response_header_add(conn, "Content-Type", content_type, -1);
  const std::string length = std::to_string(body.size());
  mg_response_header_add(conn, "Content-Length", length.c_str(), -1);
  if (!set_cookie.empty()) mg_response_header_add(conn, "Set-Cookie", set_cookie.c_str(), -1);
  if (status == 401) mg_response_header_add(conn, "WWW-Authenticate", "Basic realm=\"Cisco NX-API\"", -1);
  mg_response_header_send(conn);
  if (!body.empty()) mg_write(conn, body.data(), body.size());
}

bool readBody(mg_connection* conn, std::string* body) {
  std::vector<char> buf(8192);  // not on the worker's small stack
  for (int n; (n = mg_read(conn, buf.data(), buf.size())) > 0;) {
    body->append(buf.data(), size_t(n));
    if (body->size() > kMaxBody) return false;
  }
  return true;
}

}  // namespace

NxapiServer::NxapiServer(NxapiServerOptions options)
    : options_(std::move(options)),
      sessions_(options_.cookie_ttl, options_.max_sessions),
      port_(options_.port),
      delay_(options_.command_delay) {}

NxapiServer::~NxapiServer() { stop(); }

Status NxapiServer::start() {
  if (ctx_ != nullptr) return Status::ok();
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = false;
  }
  // With TLS civetweb listens on an internal port only the front talks to.
  const std::string listen = "127.0.0.1:" + std::to_string(tls() ? 0 : port_);
  const std::string threads = std::to_string(std::max(1, options_.threads));
  const char* opts[] = {"listening_ports",
                        listen.c_str(),
                        "num_threads",
                        threads.c_str(),
                        "request_timeout_ms",
                        "30000",
                        "enable_keep_alive",
                        "yes",
                        "keep_alive_timeout_ms",
                        "30000",
                        // civetweb writes headers and body apart: with Nagle on,
                        // the body waits for the peer's delayed ACK, a fixed
                        // wait per request that a switch does not have.
                        "tcp_nodelay",
                        "1",
                        nullptr};
  mg_callbacks callbacks{};
  callbacks.begin_request = &NxapiServer::onRequest;
  callbacks.init_connection = &NxapiServer::onConnection;
  callbacks.log_message = &onLog;
  mg_init_data init{};
  init.callbacks = &callbacks;
  init.user_data = this;
  init.configuration_options = opts;
  char error_text[256] = {0};
  mg_error_data error{};
  error.text = error_text;
  error.text_buffer_size = sizeof error_text;
  std::string first_log;
  t_start_error = &first_log;
  ctx_ = mg_start2(&init, &error);
  t_start_error = nullptr;
  if (ctx_ == nullptr) {
    const std::string why = !first_log.empty() ? first_log : error_text[0] ? error_text : "civetweb failed to start";
    return Status::unavailable("nxapi: cannot serve on " + listen + ": " + why);
  }
  mg_server_port ports[2];
  const uint16_t http_port = mg_get_server_ports(ctx_, 2, ports) > 0 ? uint16_t(ports[0].port) : 0;
  http_port_ = http_port;
  if (!tls()) {
    port_ = http_port;
  } else {
    if (front_ == nullptr) front_ = std::make_unique<TlsFront>(options_.cert_file, options_.key_file);
    if (Status st = front_->start(port_, http_port); !st.isOk()) {
      mg_stop(ctx_);
      ctx_ = nullptr;
      return st;
    }
    port_ = front_->port();
  }
  RDMAGW_LOG(kDebug, kComponent) << "NX-API of " << options_.device_dir << " at " << url();
  return Status::ok();
}

void NxapiServer::stop() {
  if (ctx_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();                       // slow-mode requests end now, so mg_stop's join is quick
  if (front_ != nullptr) front_->stop();  // clients see their connections close
  // civetweb's accept loop looks at its stop flag only between polls of 2 s;
  // a connection wakes it, so a fleet of servers stops in milliseconds.
  closing_ = true;
  std::atomic<bool> stopped{false};
  std::thread stopper([this, &stopped] {
    mg_stop(ctx_);
    stopped = true;
  });
  while (!stopped) {
    pokeLoopback(http_port_);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stopper.join();
  closing_ = false;
  ctx_ = nullptr;
  sessions_.clear();  // a switch that comes back knows no cookie of before
}

bool NxapiServer::running() const { return ctx_ != nullptr; }

std::string NxapiServer::url() const {
  return std::string(tls() ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + "/ins";
}

void NxapiServer::failNextWith429(int n) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_429_ = n;
}

void NxapiServer::refuseJsonFor(const std::string& command) {
  const NxosMatch m = matchNxos(command);
  std::lock_guard<std::mutex> lock(mu_);
  refuse_json_.insert(m.kind == NxosMatch::Kind::kOk ? m.command : command);
}

void NxapiServer::failAllWith(int http_status) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_all_ = http_status;
}

void NxapiServer::setCommandDelay(std::chrono::milliseconds delay) {
  std::lock_guard<std::mutex> lock(mu_);
  delay_ = delay;
}

NxapiServer::Counters NxapiServer::counters() const {
  Counters c;
  c.requests = counters_.requests.load();
  c.authentications = counters_.authentications.load();
  c.cookie_requests = counters_.cookie_requests.load();
  c.unauthorized = counters_.unauthorized.load();
  c.too_many_sessions = counters_.too_many_sessions.load();
  c.commands = counters_.commands.load();
  c.connections = counters_.connections.load();
  return c;
}

size_t NxapiServer::liveSessions() { return sessions_.live(NxapiSessions::Clock::now()); }

int NxapiServer::onConnection(const mg_connection* conn, void**) {
  auto* self = static_cast<NxapiServer*>(mg_get_user_data(mg_get_context(conn)));
  if (!self->closing_) self->counters_.connections.fetch_add(1);
  return 0;
}

int NxapiServer::onRequest(mg_connection* conn) {
  static_cast<NxapiServer*>(mg_get_user_data(mg_get_context(conn)))->handle(conn);
  return 1;  // handled; civetweb must not look for files
}

bool NxapiServer::waitCommandDelay() {
  std::unique_lock<std::mutex> lock(mu_);
  if (delay_.count() <= 0) return false;
  const bool too_slow = delay_ > options_.command_limit;
  cv_.wait_for(lock, too_slow ? options_.command_limit : delay_, [this] { return stopping_; });
  return too_slow;
}

void NxapiServer::handle(mg_connection* conn) {
  counters_.requests.fetch_add(1);
  const mg_request_info* req = mg_get_request_info(conn);
  const std::string_view uri = req->local_uri != nullptr ? req->local_uri : "";
  const std::string_view method = req->request_method != nullptr ? req->request_method : "";
  if (uri != "/ins") return send(conn, 404, "text/html", nginxPage(404, "Not Found"));
  if (method != "POST") return send(conn, 405, "text/html", nginxPage(405, "Not Allowed"));
  std::string body;
  if (!readBody(conn, &body)) return send(conn, 413, "text/html", nginxPage(413, "Request Entity Too Large"));
  const char* type = mg_get_header(conn, "Content-Type");
  const bool json_rpc = type != nullptr && std::string_view(type).starts_with("application/json-rpc");
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (fail_all_ != 0) {
      const int status = fail_all_;
      return send(conn, status, "text/html", nginxPage(status, mg_get_response_code_text(conn, status)));
    }
    if (fail_429_ > 0) {
      --fail_429_;
      counters_.too_many_sessions.fetch_add(1);
      return send(conn, 429, "application/json", nxapiRequestError(json_rpc, 429, "Max sessions reached"));
    }
  }
  // A valid cookie is the session; without one, a basic-auth login makes a
  // new session (clients that drop the cookie run into the session limit).
  const auto now = NxapiSessions::Clock::now();
  std::string set_cookie;
  char token[128];
  const char* cookie_header = mg_get_header(conn, "Cookie");
  if (cookie_header != nullptr && mg_get_cookie(cookie_header, "nxapi_auth", token, sizeof token) > 0 &&
      !sessions_.userOf(token, now).empty()) {
    counters_.cookie_requests.fetch_add(1);
  } else {
    const char* auth = mg_get_header(conn, "Authorization");
    const std::string_view a = auth != nullptr ? auth : "";
    const bool basic_ok =
        a.starts_with("Basic ") && base64Decode(a.substr(6)) == options_.username + ":" + options_.password;
    if (!basic_ok) {
      counters_.unauthorized.fetch_add(1);
      return send(conn, 401, "text/html", nginxPage(401, "Authorization Required"));
    }
    const std::string session = sessions_.login(options_.username, req->remote_addr, now);
    if (session.empty()) {
      counters_.too_many_sessions.fetch_add(1);
      return send(conn, 429, "application/json", nxapiRequestError(json_rpc, 429, "Max sessions reached"));
    }
    counters_.authentications.fetch_add(1);
    set_cookie = "nxapi_auth=" + session + "; Path=/; HttpOnly" + (tls() ? "; Secure" : "") +
                 "; Max-Age=" + std::to_string(options_.cookie_ttl.count());
  }
  NxapiCommandPolicy policy;
  policy.device_dir = options_.device_dir;
  policy.timed_out = waitCommandDelay();
  policy.refuse_json = [this](const std::string& canonical) {
    std::lock_guard<std::mutex> lock(mu_);
    return refuse_json_.count(canonical) > 0;
  };
  // civetweb's workers run on small stacks (Debian builds it with
  // USE_STACK_SIZE) and reading a rendered file takes a 64 KiB buffer on the
  // stack: the answer is built on a thread of ordinary size.
  NxapiReply reply;
  std::thread([&] { reply = json_rpc ? answerJsonRpc(body, policy) : answerInsApi(body, policy); }).join();
  counters_.commands.fetch_add(reply.commands);
  send(conn, reply.http_status, "application/json", reply.body, set_cookie);
}

}  // namespace rdmagw::sim
