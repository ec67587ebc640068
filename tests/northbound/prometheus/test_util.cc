#include "tests/northbound/prometheus/test_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace rdmagw::northbound::testing {

void put(Store* store, const std::string& target, const std::string& path, Value v) {
  Update u{path, std::move(v), nowNs(), CounterSource::monotonic64()};
  Store::ApplyResult r = store->apply(target, std::span<const Update>(&u, 1));
  ASSERT_EQ(r.rejected, 0u) << path << ": " << r.first_error;
}

void fillStore(Store* store) {
  put(store, "host01", kCnpPath, uint64_t{42});
  put(store, "host01", kPfcPath, uint64_t{7});
  put(store, "host01", kPfcDurationPath, uint64_t{1500000});
  put(store, "host01", kFwPath, std::string("14.28.2006"));
  put(store, "host01", kRatePath, uint64_t{100000000000});
  put(store, "host01", kUnknownPath, uint64_t{5});

  TargetHealth up;
  up.kind = "rdma-host";
  up.transport = "sysfs";
  up.up = true;
  up.last_attempt_ns = 1700000000'000000000;
  up.last_success_ns = 1700000000'500000000;
  up.poll_duration_ns = 250'000'000;
  up.polls = 10;
  up.poll_errors = 1;
  up.read_errors = 2;
  up.labels = {{"rack", "r1"}};
  store->setHealth("host01", up);

  TargetHealth down;
  down.kind = "nexus";
  down.transport = "gnmi";
  down.up = false;
  down.polls = 3;
  down.poll_errors = 3;
  down.last_error = "connection refused";
  store->setHealth("down1", down);
}

CommandResult runCommand(const std::string& command) {
  CommandResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

int freePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string makeTempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "rdmagw-prom-XXXXXX").string();
  char* dir = mkdtemp(tmpl.data());
  return dir == nullptr ? std::string() : std::string(dir);
}

void removeTree(const std::string& dir) {
  std::error_code ec;
  if (!dir.empty()) std::filesystem::remove_all(dir, ec);
}

bool writeFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  return bool(out);
}

}  // namespace rdmagw::northbound::testing
