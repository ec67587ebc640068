#include "sim/etcd_launcher.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "common/file_text.h"
#include "sim/child_setup.h"

namespace rdmagw::sim {
namespace {

bool accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

EtcdLauncher::EtcdLauncher(EtcdOptions options) : options_(std::move(options)) {}

EtcdLauncher::~EtcdLauncher() {
  kill();
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

std::string EtcdLauncher::endpoint() const {
  const char* scheme = options_.server_cert_file.empty() ? "http://" : "https://";
  return scheme + std::string("127.0.0.1:") + std::to_string(client_port_);
}

std::string EtcdLauncher::logText() const { return common::readFileText(dir_ + "/etcd.log").text; }

Status EtcdLauncher::start() {
  if (running()) return Status::ok();
  if (dir_.empty()) {
    char tmpl[] = "/tmp/rdmagw-etcd-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return Status::ioError("mkdtemp: " + std::string(std::strerror(errno)));
    dir_ = tmpl;
  }
  const bool fixed = client_port_ != 0;
  Status last;
  // A port found free can be taken before etcd binds it: try fresh ones.
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (!fixed) {
      client_port_ = freeTcpPort();
      peer_port_ = freeTcpPort();
      if (peer_port_ == client_port_) peer_port_ = freeTcpPort();
    }
    last = spawn();
    if (last.isOk() || fixed) return last;
  }
  return last;
}

Status EtcdLauncher::spawn() {
  const std::string client = endpoint();
  const std::string peer = "http://127.0.0.1:" + std::to_string(peer_port_);
  std::vector<std::string> args = {
      options_.etcd_path, "--name", "default", "--data-dir", dir_ + "/data",
      "--listen-client-urls", client, "--advertise-client-urls", client,
      "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
      "--initial-cluster", "default=" + peer};
  if (!options_.server_cert_file.empty()) {
    args.insert(args.end(), {"--cert-file", options_.server_cert_file, "--key-file", options_.server_key_file});
    if (!options_.trusted_ca_file.empty()) {
      args.insert(args.end(), {"--trusted-ca-file", options_.trusted_ca_file, "--client-cert-auth"});
    }
  }
  args.insert(args.end(), options_.extra_args.begin(), options_.extra_args.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log = dir_ + "/etcd.log";
  // A fresh log per start: readiness is read from it.
  std::error_code ignored;
  std::filesystem::rename(log, log + ".old", ignored);
  pid_t pid = fork();
  if (pid < 0) return Status::ioError("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec (the parent has
    // gRPC threads). etcd dies with the test, even one that crashes.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prepareChildOutput(log);
    execv(argv[0], argv.data());
    _exit(127);
  }
  pid_ = pid;
  paused_ = false;
  for (int i = 0; i < 600; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return Status::unavailable("etcd exited at start: " + logText());
    }
    if (logText().find("ready to serve client requests") != std::string::npos && accepts(client_port_)) {
      return Status::ok();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  kill();
  return Status::unavailable("etcd did not serve clients within 60 s: " + logText());
}

void EtcdLauncher::reap(int signal) {
  if (pid_ <= 0) return;
  if (paused_) ::kill(pid_, SIGCONT);  // a stopped process would not act on SIGTERM
  paused_ = false;
  ::kill(pid_, signal);
  for (int i = 0; i < 200; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void EtcdLauncher::stop() { reap(SIGTERM); }
void EtcdLauncher::kill() { reap(SIGKILL); }

void EtcdLauncher::pause() {
  if (pid_ > 0 && !paused_ && ::kill(pid_, SIGSTOP) == 0) paused_ = true;
}

void EtcdLauncher::resume() {
  if (pid_ > 0 && paused_ && ::kill(pid_, SIGCONT) == 0) paused_ = false;
}

}  // namespace rdmagw::sim
