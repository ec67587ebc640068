#include "tests/northbound/gnmi/python_client.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace rdmagw::testing {
namespace {

std::string& moduleDir() {
  static std::string dir;
  return dir;
}

struct DirRemover {
  ~DirRemover() {
    std::error_code ec;
    if (!moduleDir().empty()) std::filesystem::remove_all(moduleDir(), ec);
  }
};

}  // namespace

const std::string& pythonModuleDir() { return moduleDir(); }

bool preparePythonClient(std::string* error) {
  if (!moduleDir().empty()) return true;
  static DirRemover remover;
  char tmpl[] = "/tmp/rdmagw-gnmi-nb-py-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) {
    *error = "mkdtemp failed";
    return false;
  }
  const std::string dir = tmpl;
  const std::string cmd = "protoc -I " RDMAGW_SOURCE_DIR "/proto --python_out=" + dir +
                          " --grpc_python_out=" + dir +
                          " --plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin"
                          " gnmi.proto gnmi_ext.proto";
  if (std::system(cmd.c_str()) != 0) {
    *error = "failed: " + cmd;
    return false;
  }
  moduleDir() = dir;
  return true;
}

PythonClient::PythonClient(const std::string& address, const std::string& request_json) {
  static std::atomic<int> seq{0};
  request_file_ = moduleDir() + "/request-" + std::to_string(::getpid()) + "-" +
                  std::to_string(seq.fetch_add(1)) + ".json";
  std::ofstream(request_file_) << request_json;
  const std::string script = RDMAGW_SOURCE_DIR "/tests/northbound/gnmi/python_client.py";
  const std::string err = moduleDir() + "/stderr.txt";
  int fds[2];
  if (::pipe(fds) != 0) return;
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    FILE* e = std::fopen(err.c_str(), "a");
    if (e != nullptr) ::dup2(::fileno(e), 2);
    ::execl("/usr/bin/python3", "python3", script.c_str(), moduleDir().c_str(), address.c_str(),
            request_file_.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  pipe_ = ::fdopen(fds[0], "r");
}

PythonClient::~PythonClient() {
  // A test that read what it needed ends the client now, not at its deadline.
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (pipe_ != nullptr) std::fclose(pipe_);
  std::error_code ec;
  std::filesystem::remove(request_file_, ec);
}

std::string PythonClient::next() {
  if (pipe_ == nullptr) return "";
  const int fd = ::fileno(pipe_);
  // The client bounds its own calls (30-60 s), but grpcio can hang at
  // interpreter exit with its output still open; a read that waits past
  // every deadline the client has ends it, so a test fails on what it
  // read instead of hanging until CTest kills it.
  constexpr int kSilenceLimitMs = 150'000;
  for (;;) {
    const size_t eol = buffered_.find('\n');
    if (eol != std::string::npos) {
      std::string line = buffered_.substr(0, eol);
      buffered_.erase(0, eol + 1);
      return line;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, kSilenceLimitMs);
    if (ready < 0 && errno == EINTR) continue;
    char buf[8192];
    const ssize_t n = ready > 0 ? ::read(fd, buf, sizeof buf) : -1;
    if (n > 0) {
      buffered_.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (ready == 0 && pid_ > 0) {
      std::fprintf(stderr, "python gNMI client: no output for %d s; killed\n", kSilenceLimitMs / 1000);
      ::kill(pid_, SIGKILL);
    }
    std::string rest;
    rest.swap(buffered_);
    return rest;
  }
}

std::vector<std::string> PythonClient::until(const std::string& prefix) {
  std::vector<std::string> lines;
  for (std::string l = next(); !l.empty(); l = next()) {
    lines.push_back(l);
    if (l.rfind(prefix, 0) == 0) break;
  }
  return lines;
}

std::vector<std::string> PythonClient::rest() {
  std::vector<std::string> lines;
  for (std::string l = next(); !l.empty(); l = next()) lines.push_back(l);
  return lines;
}

std::vector<std::string> runPython(const std::string& address, const std::string& request_json) {
  PythonClient c(address, request_json);
  return c.rest();
}

}  // namespace rdmagw::testing
