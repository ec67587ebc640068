#include "tests/support/test_support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>
#include <variant>

#include "sim/child_setup.h"

namespace rdmagw::testing {

bool waitUntil(const std::function<bool()>& cond, std::chrono::milliseconds limit,
               std::chrono::milliseconds step) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (cond()) return true;
    std::this_thread::sleep_for(step);
  }
  return cond();
}

std::optional<int> interruptChild(int pid) { return stopChild(pid, SIGINT); }

std::optional<int> stopChild(int pid, int signal, std::chrono::milliseconds limit) {
  ::kill(pid, signal);
  int status = 0;
  if (waitUntil([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, limit)) return status;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return std::nullopt;
}

int spawnLogged(const std::vector<std::string>& argv, const std::string& log) {
  // Built before the fork: the child may only make async-signal-safe calls.
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    sim::prepareChildOutput(log);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

int connectUnix(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof(addr.sun_path)) {
    ::close(fd);
    return -1;
  }
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

TempDir::TempDir(const std::string& prefix) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

bool writeFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  return bool(out);
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

// Everything `command` prints on stdout, and its wait status (-1: no popen).
std::string readPipe(const std::string& command, int* status) {
  std::string out;
  *status = -1;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  *status = ::pclose(p);
  return out;
}

}  // namespace

CommandResult runCommand(const std::string& command) {
  CommandResult r;
  int status = -1;
  r.output = readPipe(command + " 2>&1", &status);
  r.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::vector<std::string> metricsFamily(const std::string& body, const std::string& name) {
  std::vector<std::string> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name + "{", 0) == 0 || line.rfind(name + " ", 0) == 0) out.push_back(line);
  }
  return out;
}

std::string snmpStringIndex(const std::string& text) {
  std::string out = std::to_string(text.size());
  for (unsigned char c : text) out += "." + std::to_string(c);
  return out;
}

size_t openDescriptors() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

int freeLoopbackPort() { return sim::freeTcpPort(); }

std::string httpGet(const std::string& url) {
  int status = -1;
  return readPipe("curl -s --max-time 5 " + url, &status);
}

const Update* findUpdate(const PollBatch& b, const std::string& path) {
  for (const Update& u : b.updates) {
    if (u.path == path) return &u;
  }
  return nullptr;
}

std::optional<uint64_t> u64At(const PollBatch& b, const std::string& path) {
  const Update* u = findUpdate(b, path);
  if (!u || !std::holds_alternative<uint64_t>(u->value)) return std::nullopt;
  return std::get<uint64_t>(u->value);
}

std::optional<std::string> strAt(const PollBatch& b, const std::string& path) {
  const Update* u = findUpdate(b, path);
  if (!u || !std::holds_alternative<std::string>(u->value)) return std::nullopt;
  return std::get<std::string>(u->value);
}

}  // namespace rdmagw::testing
