#include "southbound/ssh/ssh_session.h"

#include <libssh/libssh.h>
#include <libssh/server.h>  // ssh_send_keepalive lives here in 0.10
#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "southbound/ssh/cli_command.h"
#include "southbound/secret_source.h"

namespace rdmagw::southbound::ssh {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr size_t kStderrKeep = 4096;
constexpr milliseconds kReadSlice(100);  // stdout wait per turn, then stderr is drained

void initOnce() {
  static std::once_flag once;
  std::call_once(once, [] { ssh_init(); });
}

int64_t remainingMs(Clock::time_point deadline) {
  return std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
}

std::string fingerprint(ssh_session s) {
  ssh_key key = nullptr;
  if (ssh_get_server_publickey(s, &key) != SSH_OK) return "unknown fingerprint";
  unsigned char* hash = nullptr;
  size_t len = 0;
  std::string out = "unknown fingerprint";
  if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) == SSH_OK) {
    char* fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
    if (fp != nullptr) {
      out = std::string(ssh_key_type_to_char(ssh_key_type(key))) + " " + fp;
      ssh_string_free_char(fp);
    }
    ssh_clean_pubkey_hash(&hash);
  }
  ssh_key_free(key);
  return out;
}

// RAII for a channel so every early return frees it. ssh_free() frees the
// session's channels itself, so once a failure dropped the session (which
// nulls `session`) the channel must be left alone.
struct ChannelGuard {
  ssh_session_struct* const& session;
  ssh_channel ch;
  ~ChannelGuard() {
    if (ch != nullptr && session != nullptr) ssh_channel_free(ch);
  }
};

}  // namespace

SshSession::SshSession(SshConfig config) : config_(std::move(config)) { initOnce(); }

SshSession::~SshSession() { disconnect(); }

bool SshSession::connected() const { return connected_ && session_ != nullptr && !broken(); }

bool SshSession::broken() const {
  if (session_ == nullptr) return true;
  return ssh_is_connected(session_) == 0 ||
         (ssh_get_status(session_) & (SSH_CLOSED | SSH_CLOSED_ERROR)) != 0;
}

std::string SshSession::lastError() const {
  const char* e = session_ != nullptr ? ssh_get_error(session_) : nullptr;
  return (e != nullptr && *e != '\0') ? e : "unknown error";
}

void SshSession::setTimeout(Clock::time_point deadline) {
  // libssh reads 0 as "wait forever": never pass less than 1 ms.
  const int64_t ms = std::max<int64_t>(1, remainingMs(deadline));
  long sec = static_cast<long>(ms / 1000);
  long usec = static_cast<long>((ms % 1000) * 1000);
  ssh_options_set(session_, SSH_OPTIONS_TIMEOUT, &sec);
  ssh_options_set(session_, SSH_OPTIONS_TIMEOUT_USEC, &usec);
}

void SshSession::disconnect() {
  if (session_ == nullptr) return;
  if (connected_ && !broken()) {
    // A dead peer must not hold up the goodbye: a short flush at most.
    setTimeout(Clock::now() + milliseconds(500));
    ssh_disconnect(session_);
  }
  ssh_free(session_);
  session_ = nullptr;
  connected_ = false;
}

Status SshSession::fail(std::string message) {
  disconnect();
  return Status::unavailable(std::move(message));
}

Status SshSession::failTimeout(std::string message) {
  timed_out_ = true;
  return fail(std::move(message));
}

Status SshSession::connect() {
  timed_out_ = false;
  disconnect();
  const auto deadline = Clock::now() + config_.connect_timeout;
  session_ = ssh_new();
  if (session_ == nullptr) return Status::internal("ssh: cannot allocate a libssh session");
  const std::string known_hosts = config_.knownHostsPath();
  int port = config_.port;
  int verbosity = SSH_LOG_NOLOG;
  int nodelay = 1;
  // ~/.ssh/config is the operator's interactive setup; the gateway's config
  // alone decides how it reaches devices.
  bool process_config = false;
  ssh_options_set(session_, SSH_OPTIONS_HOST, config_.host.c_str());
  ssh_options_set(session_, SSH_OPTIONS_PORT, &port);
  ssh_options_set(session_, SSH_OPTIONS_USER, config_.username.c_str());
  ssh_options_set(session_, SSH_OPTIONS_KNOWNHOSTS, known_hosts.c_str());
  ssh_options_set(session_, SSH_OPTIONS_LOG_VERBOSITY, &verbosity);
  ssh_options_set(session_, SSH_OPTIONS_NODELAY, &nodelay);
  ssh_options_set(session_, SSH_OPTIONS_PROCESS_CONFIG, &process_config);
  setTimeout(deadline);
  if (ssh_connect(session_) != SSH_OK) {
    return fail("ssh: cannot connect to " + config_.endpoint() + ": " + lastError());
  }
  connected_ = true;
  if (Status st = checkHostKey(); !st.isOk()) return st;
  if (Status st = authenticate(deadline); !st.isOk()) return st;
  return Status::ok();
}

Status SshSession::checkHostKey() {
  const std::string ep = config_.endpoint();
  const std::string file = config_.knownHostsPath();
  switch (ssh_session_is_known_server(session_)) {
    case SSH_KNOWN_HOSTS_OK:
      return Status::ok();
    case SSH_KNOWN_HOSTS_CHANGED:
      return fail("ssh: host key for " + ep + " CHANGED (now " + fingerprint(session_) +
                  ", not the key in " + file +
                  "): possible man-in-the-middle attack; refusing to connect. If the device "
                  "was really re-keyed, remove its line from " + file);
    case SSH_KNOWN_HOSTS_OTHER:
      return fail("ssh: host key for " + ep + " CHANGED type (now " + fingerprint(session_) +
                  ", " + file + " records another key type): possible man-in-the-middle "
                  "attack; refusing to connect");
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN:
      if (!config_.accept_unknown_host_key) {
        return fail("ssh: host key for " + ep + " (" + fingerprint(session_) +
                    ") is not in " + file +
                    "; add it, or set accept_unknown_host_key to trust it on first use");
      }
      if (ssh_session_update_known_hosts(session_) != SSH_OK) {
        return fail("ssh: cannot record the host key of " + ep + " in " + file + ": " +
                    lastError());
      }
      return Status::ok();
    case SSH_KNOWN_HOSTS_ERROR:
    default:
      return fail("ssh: cannot check the host key of " + ep + " against " + file + ": " +
                  lastError());
  }
}

Status SshSession::authenticate(Clock::time_point deadline) {
  const std::string who = "'" + config_.username + "' on " + config_.endpoint();
  setTimeout(deadline);
  if (!config_.key_file.empty()) {
    Result<common::Secret> passphrase = resolveSecret("passphrase_env", config_.passphrase_env, "", "");
    if (!passphrase.isOk()) return fail("ssh: " + passphrase.status().message());
    if (::access(config_.key_file.c_str(), R_OK) != 0) {
      return fail("ssh: key_file: cannot read " + config_.key_file);
    }
    ssh_key key = nullptr;
    const char* pp = passphrase->empty() ? nullptr : passphrase->reveal();
    if (ssh_pki_import_privkey_file(config_.key_file.c_str(), pp, nullptr, nullptr, &key) !=
        SSH_OK) {
      return fail("ssh: key_file: cannot load " + config_.key_file +
                  " (wrong or missing passphrase, or not a private key)");
    }
    int rc = ssh_userauth_publickey(session_, nullptr, key);
    ssh_key_free(key);
    if (rc == SSH_AUTH_SUCCESS) return Status::ok();
    return fail("ssh: public key authentication as " + who + " failed: " +
                passphrase->scrub(lastError()));
  }
  Result<common::Secret> password = resolveSecret("password_env", config_.password_env, "password_file",
                                          config_.password_file);
  if (!password.isOk()) return fail("ssh: " + password.status().message());
  int rc = ssh_userauth_password(session_, nullptr, password->reveal());
  if (rc == SSH_AUTH_SUCCESS) return Status::ok();
  return fail("ssh: password authentication as " + who + " failed: " +
              password->scrub(lastError()));
}

Result<CommandOutput> SshSession::execute(const std::string& command) {
  const std::string what = "'" + commandLabel(command) + "' on " + config_.endpoint();
  timed_out_ = false;
  if (!connected()) return fail("ssh: not connected to " + config_.endpoint());
  const auto deadline = Clock::now() + config_.command_timeout;
  const std::string timeout_text = "ssh: " + what + " timed out after " +
                                   std::to_string(config_.command_timeout.count()) + " ms";
  setTimeout(deadline);
  ChannelGuard guard{session_, ssh_channel_new(session_)};
  if (guard.ch == nullptr) return fail("ssh: cannot create a channel to " + config_.endpoint());
  if (ssh_channel_open_session(guard.ch) != SSH_OK) {
    if (remainingMs(deadline) <= 0) return failTimeout(timeout_text);
    return fail("ssh: cannot open a session channel to " + config_.endpoint() + ": " +
                lastError());
  }
  setTimeout(deadline);
  if (ssh_channel_request_exec(guard.ch, command.c_str()) != SSH_OK) {
    if (remainingMs(deadline) <= 0) return failTimeout(timeout_text);
    return fail("ssh: exec of " + what + " refused: " + lastError());
  }

  CommandOutput out;
  char buf[16384];
  for (;;) {
    const int64_t left = remainingMs(deadline);
    if (left <= 0) return failTimeout(timeout_text);
    const int slice = static_cast<int>(std::min<int64_t>(left, kReadSlice.count()));
    int n = ssh_channel_read_timeout(guard.ch, buf, sizeof buf, 0, slice);
    if (n == SSH_ERROR) return fail("ssh: connection to " + config_.endpoint() + " lost during " + what);
    if (n > 0) {
      if (out.text.size() + static_cast<size_t>(n) > config_.max_output_bytes) {
        // Unread data is still in flight on this session: start afresh.
        disconnect();
        return Status::ioError("ssh: output of " + what + " exceeds the " +
                               std::to_string(config_.max_output_bytes) + "-byte cap");
      }
      out.text.append(buf, static_cast<size_t>(n));
    }
    // Drain stderr so it cannot fill the channel window while we wait on stdout.
    int e;
    while ((e = ssh_channel_read_nonblocking(guard.ch, buf, sizeof buf, 1)) > 0) {
      if (out.stderr_text.size() < kStderrKeep) {
        out.stderr_text.append(buf, std::min<size_t>(e, kStderrKeep - out.stderr_text.size()));
      }
    }
    if (e == SSH_ERROR) return fail("ssh: connection to " + config_.endpoint() + " lost during " + what);
    // EOF (or a polite close, which libssh reports as EOF) is the only proof
    // that the output is whole. A dropped TCP connection never sets it.
    if (ssh_channel_is_eof(guard.ch)) break;
    if (broken()) return fail("ssh: connection to " + config_.endpoint() + " lost during " + what);
  }
  setTimeout(deadline);
  out.exit_status = ssh_channel_get_exit_status(guard.ch);
  if (out.exit_status < 0 && broken()) {
    return fail("ssh: connection to " + config_.endpoint() + " lost before " + what +
                " reported its exit status");
  }
  if (remainingMs(deadline) <= 0 && out.exit_status < 0) return failTimeout(timeout_text);
  setTimeout(Clock::now() + milliseconds(1000));
  ssh_channel_close(guard.ch);
  if (out.exit_status > 0 && out.text.empty()) {
    std::string err = out.stderr_text.substr(0, out.stderr_text.find('\n'));
    return Status::ioError("ssh: " + what + " exited with status " +
                           std::to_string(out.exit_status) + (err.empty() ? "" : ": " + err));
  }
  return out;
}

Result<std::string> SshSession::run(const std::string& command) {
  Result<CommandOutput> r = execute(command);
  if (!r.isOk()) return r.status();
  return std::move(r).value().text;
}

Status SshSession::keepalive() {
  if (!connected()) return fail("ssh: not connected to " + config_.endpoint());
  setTimeout(Clock::now() + std::min(config_.command_timeout, milliseconds(10000)));
  // The reply (OpenSSH answers "failure") is what proves the peer alive;
  // ssh_send_keepalive's own return value carries no meaning.
  ssh_send_keepalive(session_);
  if (broken()) return fail("ssh: keepalive to " + config_.endpoint() + " failed: " + lastError());
  return Status::ok();
}

}  // namespace rdmagw::southbound::ssh
