#include "sim/sshd_launcher.h"
#include "sim/sshd_log_markers.h"

#include "sim/child_setup.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "common/file_text.h"

extern char** environ;

namespace rdmagw::sim {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using namespace sshd_log;


// "" when unreadable: a log not written yet, a process gone.
std::string readFile(const std::string& path) { return common::readFileText(path).text; }

Status writeFile(const std::string& path, const std::string& text, bool append = false) {
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::ioError("cannot write " + path);
  return Status::ok();
}

// Runs a program (no shell) and waits; stdout/stderr go to `log`.
Status runProgram(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return Status::ioError("cannot run " + args[0] + ": " + std::strerror(rc));
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status::ioError(args[0] + " failed; see " + log);
  }
  return Status::ok();
}

// `before_connect` gets the probe's own port first (so sshd's log of the
// probe can be told from a client's connection).
bool portAccepts(int port, const std::function<void(int)>& before_connect = nullptr) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (before_connect) {
    socklen_t len = sizeof a;
    if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
      before_connect(ntohs(a.sin_port));
    }
  }
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

// Every live descendant of `root`, read from /proc. sshd's per-connection
// children call setsid(), so a process group kill would miss them.
std::vector<pid_t> descendants(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d)) {
      pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
      if (pid <= 0) continue;
      std::string stat = readFile("/proc/" + std::string(e->d_name) + "/stat");
      size_t close_paren = stat.rfind(')');
      if (close_paren == std::string::npos) continue;
      std::istringstream rest(stat.substr(close_paren + 2));
      char state;
      pid_t ppid = 0;
      rest >> state >> ppid;
      children.emplace(ppid, pid);
    }
    closedir(d);
  }
  std::vector<pid_t> out;
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    pid_t p = todo.back();
    todo.pop_back();
    auto [b, e] = children.equal_range(p);
    for (auto it = b; it != e; ++it) {
      out.push_back(it->second);
      todo.push_back(it->second);
    }
  }
  return out;
}

bool validDeviceName(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

}  // namespace

SshdLauncher::SshdLauncher(SshdOptions options) : options_(std::move(options)) {}

SshdLauncher::~SshdLauncher() { stop(); }

Status SshdLauncher::prepareDir() {
  if (!dir_.empty()) return Status::ok();
  // sshd's privilege separation directory; absent in slim containers.
  ::mkdir("/run/sshd", 0755);
  char tmpl[] = "/tmp/rdmagw-sshd-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return Status::ioError("mkdtemp: " + std::string(std::strerror(errno)));
  dir_ = tmpl;
  // Forced commands of the (non-root) password user append to sessions/.
  ::chmod(dir_.c_str(), 0755);
  ::mkdir((dir_ + "/keys").c_str(), 0700);
  ::mkdir((dir_ + "/sessions").c_str(), 01777);
  ::chmod((dir_ + "/sessions").c_str(), 01777);
  if (Status st = writeFile(dir_ + "/authorized_keys", ""); !st.isOk()) return st;
  return generateHostKey();
}

Status SshdLauncher::generateHostKey() {
  const std::string key = dir_ + "/ssh_host_ed25519_key";
  fs::remove(key);
  fs::remove(key + ".pub");
  return runProgram({options_.keygen_path, "-q", "-t", "ed25519", "-N", "", "-C", "rdmagw-sim-host", "-f", key},
                    dir_ + "/keygen.log");
}

Status SshdLauncher::writeConfig() {
  std::ostringstream c;
  c << "ListenAddress 127.0.0.1\n"
    << "Port " << port_ << "\n"
    << "HostKey " << dir_ << "/ssh_host_ed25519_key\n"
    << "PidFile " << dir_ << "/sshd.pid\n"
    << "AuthorizedKeysFile " << dir_ << "/authorized_keys\n"
    << "StrictModes no\nUsePAM no\nPubkeyAuthentication yes\n"
    << "PasswordAuthentication " << (options_.password_auth ? "yes" : "no") << "\n"
    << "PermitEmptyPasswords no\nKbdInteractiveAuthentication no\nPermitRootLogin yes\n"
    << "LogLevel " << (options_.log_connections ? "VERBOSE" : "ERROR") << "\nMaxStartups 200\nMaxSessions 200\nUseDNS no\nPrintMotd no\n"
    << "PrintLastLog no\nPermitUserRC no\nX11Forwarding no\nAllowTcpForwarding no\n"
    << "LoginGraceTime 30\n"
    // sshd runs every forced command as `<login shell> -c ...`, and bash,
    // when it sees it was started by sshd, sources /etc/bash.bashrc and
    // ~/.bashrc first, unless SHLVL says it is already a nested shell. A
    // developer's or CI image's ~/.bashrc (pyenv init, conda, nvm...) then
    // runs before every simulated device command: here `pyenv init` took
    // pyenv's rehash lock, which serialised every command of every session
    // at ~0.8 s each, so concurrent polls timed out while sshd looked idle.
    // A device's CLI answers without the login user's dotfiles; so do ours.
    << "SetEnv SHLVL=1\n";
  if (!password_command_.empty()) {
    // Last in the file: a Match block runs to the end of it.
    c << "Match User " << options_.password_user << "\n"
      << "  ForceCommand " << wrap("password", password_command_) << "\n";
  }
  return writeFile(dir_ + "/sshd_config", c.str());
}

std::string SshdLauncher::wrap(const std::string& device, const std::string& command) const {
  std::string w = "printf '%s\\n' \"$SSH_CLIENT\" >> " + dir_ + "/sessions/" + device + ".log; ";
  if (options_.log_connections) {
    // Written as the command's shell exits, so before the client can see
    // the command end (sshd's own "Close session" may come after that).
    w += "trap 'set -- $SSH_CLIENT; printf \"" + std::string(kCommandDone) + "%s\\n\" \"$2\" >> " + dir_ +
         "/sshd.log' EXIT; ";
  }
  return w + command;
}

Status SshdLauncher::spawn() {
  const std::string log = dir_ + "/sshd.log";
  const std::string conf = dir_ + "/sshd_config";
  std::vector<std::string> args = {options_.sshd_path, "-D", "-e", "-f", conf};
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  int rc = posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    pid_ = -1;
    return Status::ioError("cannot run " + options_.sshd_path + ": " + std::strerror(rc));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < deadline) {
    int wstatus = 0;
    if (waitpid(pid_, &wstatus, WNOHANG) == pid_) {
      pid_ = -1;
      return Status::unavailable("sshd exited at start: " + logText());
    }
    const auto mark = [this](int probe_port) {
      if (options_.log_connections) {
        (void)writeFile(dir_ + "/sshd.log", std::string(kProbeMarker) + std::to_string(probe_port) + "\n", true);
      }
    };
    if (portAccepts(port_, mark)) return Status::ok();
    std::this_thread::sleep_for(milliseconds(20));
  }
  stopServer();
  return Status::unavailable("sshd did not listen on 127.0.0.1:" + std::to_string(port_));
}

Status SshdLauncher::start() {
  if (running()) return Status::ok();
  if (Status st = prepareDir(); !st.isOk()) return st;
  const bool fixed_port = port_ != 0;
  Status last;
  // A port picked free may be taken before sshd binds it: pick again.
  for (int attempt = 0; attempt < (fixed_port ? 20 : 5); ++attempt) {
    if (!fixed_port) port_ = freeTcpPort();
    if (Status st = writeConfig(); !st.isOk()) return st;
    last = spawn();
    if (last.isOk()) return last;
    if (fixed_port) std::this_thread::sleep_for(milliseconds(100));  // old socket still closing
  }
  return last;
}

void SshdLauncher::stopServer() {
  if (pid_ <= 0) return;
  // Sessions first, while they are still the listener's children.
  for (int round = 0; round < 2; ++round) {
    for (pid_t p : descendants(pid_)) ::kill(p, SIGKILL);
  }
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int wstatus = 0;
  while (waitpid(pid_, &wstatus, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &wstatus, 0);
      break;
    }
    std::this_thread::sleep_for(milliseconds(10));
  }
  // Handshakes cut short by the kill log nothing: this line ends them all.
  // Written once the listener is gone, not before: a connection it accepted
  // in between would otherwise stay "in setup" for ever (handshakeStats).
  (void)writeFile(dir_ + "/sshd.log", std::string(kStoppedMarker) + "\n", true);
  pid_ = -1;
}

void SshdLauncher::stop() {
  stopServer();
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
}

Status SshdLauncher::restart(bool new_host_key) {
  stopServer();
  if (new_host_key && !dir_.empty()) {
    if (Status st = generateHostKey(); !st.isOk()) return st;
  }
  return start();
}

Result<ClientKey> SshdLauncher::addDevice(const std::string& device, const std::string& forced_command,
                                          const std::string& passphrase) {
  if (!validDeviceName(device)) return Status::invalidArgument("bad device name '" + device + "'");
  if (Status st = prepareDir(); !st.isOk()) return st;
  ClientKey key{device, dir_ + "/keys/" + device, ""};
  fs::remove(key.private_key_file);
  fs::remove(key.private_key_file + ".pub");
  if (Status st = runProgram({options_.keygen_path, "-q", "-t", "ed25519", "-N", passphrase, "-C",
                              "rdmagw-" + device, "-f", key.private_key_file},
                             dir_ + "/keygen.log");
      !st.isOk()) {
    return st;
  }
  key.public_key = readFile(key.private_key_file + ".pub");
  while (!key.public_key.empty() && key.public_key.back() == '\n') key.public_key.pop_back();
  // authorized_keys unescapes only \" inside an option value.
  std::string cmd;
  for (char c : wrap(device, forced_command)) {
    if (c == '"') cmd += '\\';
    cmd += c;
  }
  std::lock_guard lock(mu_);
  if (Status st = writeFile(dir_ + "/authorized_keys",
                            "command=\"" + cmd + "\",no-pty,no-port-forwarding,no-agent-forwarding," +
                                "no-X11-forwarding " + key.public_key + "\n",
                            true);
      !st.isOk()) {
    return st;
  }
  return key;
}

Status SshdLauncher::setPasswordForcedCommand(const std::string& command) {
  password_command_ = command;
  if (!running()) return Status::ok();
  return restart(false);
}

std::string SshdLauncher::hostKeyLine() const {
  std::istringstream in(readFile(dir_ + "/ssh_host_ed25519_key.pub"));
  std::string type, blob;
  in >> type >> blob;
  return type + " " + blob;
}

std::string SshdLauncher::knownHostsLine() const {
  return "[127.0.0.1]:" + std::to_string(port_) + " " + hostKeyLine();
}

}  // namespace rdmagw::sim
