#include "northbound/admin/admin_server.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "models/log.h"
#include "models/self_metrics.h"
#include "models/thread_role.h"

namespace rdmagw::northbound::admin {
namespace {

constexpr const char* kComponent = "admin";

std::string errorReply(const std::string& message) {
  nlohmann::ordered_json j = {{"error", message}};
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// Milliseconds left before `deadline`, for poll(); 0 once it passed.
int msLeft(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return left.count() > 0 ? int(left.count()) : 0;
}

// Waits for `events` on fd or the wake fd; false on timeout, stop or error.
bool waitFor(int fd, short events, int wake_fd, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    pollfd fds[2] = {{fd, events, 0}, {wake_fd, POLLIN, 0}};
    const int n = ::poll(fds, 2, msLeft(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || (fds[1].revents & POLLIN)) return false;
    return (fds[0].revents & (events | POLLHUP | POLLERR)) != 0;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

}  // namespace

AdminServer::AdminServer(const Store& store, AdminSocketConfig config, StateProbe probe)
    : store_(store), config_(std::move(config)), probe_(std::move(probe)) {}

AdminServer::~AdminServer() { stop(); }

Status AdminServer::start() {
  if (config_.path.empty() || serving()) return Status::ok();
  std::string why;  // the messages of listenUnix name the path themselves
  if (Status st = config_.validate(); !st.isOk()) {
    why = "admin socket " + config_.path + ": " + st.message();
  } else if (Result<admin::UnixListener> l = admin::listenUnix(config_.path, 0660); !l.isOk()) {
    why = "admin socket: " + l.status().message();
  } else {
    listener_ = *l;
  }
  if (!why.empty()) {
    if (config_.required) return Status::unavailable(why);
    RDMAGW_LOG(kWarn, kComponent) << why << "; running without it (`rdmagw status` cannot reach this gateway; "
                                  << "set admin_socket to a path to choose another)";
    return Status::ok();
  }
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd_ < 0) {
    const int err = errno;
    admin::closeUnix(&listener_, config_.path);
    return Status::ioError(std::string("eventfd: ") + std::strerror(err));
  }
  started_ns_ = nowNs();
  thread_ = std::thread([this] {
    enterThreadRole("admin", ThreadRole::kServe);
    run();
  });
  RDMAGW_LOG(kInfo, kComponent) << "status on unix socket " << config_.path << " (rdmagw status --socket "
                                << config_.path << ")";
  return Status::ok();
}

void AdminServer::stop() {
  if (!thread_.joinable()) return;
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof(one));
  thread_.join();
  admin::closeUnix(&listener_, config_.path);
  ::close(wake_fd_);
  wake_fd_ = -1;
}

void AdminServer::run() {
  for (;;) {
    pollfd fds[2] = {{listener_.fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const int n = ::poll(fds, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      RDMAGW_LOG(kError, kComponent) << "poll: " << std::strerror(errno) << "; admin socket closed";
      return;
    }
    if (fds[1].revents & POLLIN) return;
    const int conn = ::accept4(listener_.fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (conn < 0) {
      // EMFILE and friends: the next poll round tries again; a short pause
      // keeps a full fd table from spinning this thread.
      if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
        RDMAGW_LOG(kWarn, kComponent) << "accept: " << std::strerror(errno);
        ::poll(fds + 1, 1, 100);
      }
      continue;
    }
    serveConnection(conn);
    ::close(conn);
  }
}

void AdminServer::serveConnection(int fd) const {
  const auto deadline = std::chrono::steady_clock::now() + kConnectionDeadline;
  std::string request;
  std::string reply;
  char buf[kMaxRequestBytes + 1];
  for (;;) {
    if (!waitFor(fd, POLLIN, wake_fd_, deadline)) {
      reply = errorReply("no complete request line within " + std::to_string(kConnectionDeadline.count()) + " s");
      break;
    }
    const ssize_t got = ::recv(fd, buf, sizeof(buf), 0);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (got <= 0) break;  // EOF: the request is what came
    request.append(buf, size_t(got));
    if (request.find('\n') != std::string::npos || request.size() > kMaxRequestBytes) break;
  }
  if (reply.empty()) {
    const size_t line_end = std::min(request.find('\n'), request.size());
    if (line_end > kMaxRequestBytes) {
      reply = errorReply("request longer than " + std::to_string(kMaxRequestBytes) + " bytes");
    } else {
      reply = answer(std::string_view(request).substr(0, line_end));
    }
  }
  reply += '\n';
  size_t sent = 0;
  while (sent < reply.size()) {
    const ssize_t n = ::send(fd, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN && waitFor(fd, POLLOUT, wake_fd_, deadline)) continue;
    return;  // the client left, stalled past the deadline, or we are stopping
  }
}

std::string AdminServer::answer(std::string_view request) const {
  const std::string_view line = trim(request);
  if (line == "status") {
    admin::GatewayFacts facts;
    facts.pid = ::getpid();
    facts.started_ns = started_ns_;
    facts.now_ns = nowNs();
    return admin::buildStatusJson(store_.targets(), probe_ ? probe_() : admin::NorthboundStates{},
                                  SelfMetrics::instance().collect(), facts);
  }
  if (line.empty()) return errorReply("empty request; send \"status\"");
  return errorReply("unknown request \"" + std::string(line) + "\"; send \"status\"");
}

}  // namespace rdmagw::northbound::admin
